import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './components/ui/control-contrast.css';
import {
  DEFAULT_THEME,
  MantineProvider,
  createTheme,
  defaultVariantColorsResolver,
  virtualColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoutes, startOpening } from './app/router.tsx';
import { queryClient } from './lib/query-client.ts';
import { watchControls } from './components/ui/use-return-focus.ts';

const red = DEFAULT_THEME.colors.red;
/** Red with `shade` as its 6th step, the one a coloured menu item's text takes. */
const redWith = (shade: string): MantineColorsTuple => [red[0], red[1], red[2], red[3], red[4], red[5], shade, red[7], red[8], red[9]];

const theme = createTheme({
  primaryColor: 'blue',
  colors: {
    // Destructive actions (`color="danger"`): Mantine's red 6 is 3.3:1 on white and 4.1:1 on a dark
    // menu, so each scheme takes its own shade — red 9 on light (5.5:1), red 4 on dark (5.9:1).
    dangerLight: redWith(red[9]),
    dangerDark: redWith(red[4]),
    danger: virtualColor({ name: 'danger', light: 'dangerLight', dark: 'dangerDark' }),
  },
  // A destructive menu item (the light variant of `danger`) hovered or given the keyboard takes the plain hover of any
  // control: on Mantine's light red its red text fell below 4.5:1 in both schemes (axe, files/folders.spec.ts).
  variantColorResolver: (input) => {
    const colors = defaultVariantColorsResolver(input);
    return input.color === 'danger' && input.variant === 'light' ? { ...colors, hover: 'var(--mantine-color-default-hover)' } : colors;
  },
  // Shade 8 keeps white button labels and link text above WCAG AA contrast.
  primaryShade: 8,
  defaultRadius: 'md',
  // Someone who asked their system for less motion gets dialogs, menus and drawers without their transitions.
  respectReducedMotion: true,
  // Plain objects rather than `Anchor.extend(...)`, which would put the components themselves in
  // the first bundle of every page.
  components: {
    // Links inside text are underlined so they do not rely on colour alone.
    Anchor: { defaultProps: { underline: 'always' } },
    // Mantine's close buttons have no name of their own.
    // A long title (a dialog about an item with a long name) ends in "…" rather than pushing the
    // close button off a phone's screen.
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { title: { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } },
    },
    // The focus placeholder Mantine puts first in a menu is a role="presentation" child of role="menu",
    // which a menu may not have; without it the first item takes the focus when a menu opens from the keyboard.
    // A menu with room neither below nor above its button (a row's menu in a short window) opens beside it, moved
    // along into the window, rather than running off the window with its last actions out of reach; not over its
    // button, where a second click would land on an action, nor made to scroll (a scrolling region the keyboard
    // cannot reach by Tab).
    Menu: {
      defaultProps: { withInitialFocusPlaceholder: false, middlewares: { flip: { fallbackAxisSideDirection: 'start' }, shift: { padding: 8 } } },
    },
    Drawer: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } },
      styles: { title: { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } },
    },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
});

// Mantine's default "dimmed" grey is below WCAG AA contrast on both backgrounds, and so is the
// red of a field's error message (red 6 on white, 3.3:1; red 8 on dark, 3.4:1): red 9 and red 4,
// as for destructive actions. A light-variant control under the pointer (the current settings page's
// link, a light or subtle button) puts blue 9 text on blue 2, 4.0:1: its hover is a paler blue
// between blue 1 and 2, 4.6:1, still a change from blue 1 at rest. A yellow alert's title and icon (yellow 8
// on yellow 1, 1.9:1, and no darker yellow or orange reaches 4.5:1 there) take the text's colour.
const lightHover = '#c3e5ff';
const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-primary-color-light-hover': lightHover,
    '--mantine-color-blue-light-hover': lightHover,
    '--mantine-color-yellow-light-color': 'var(--mantine-color-text)',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)', '--mantine-color-error': 'var(--mantine-color-red-4)' },
});

// The toasts' container and its animations are fetched with the first toast, not with every page.
const Notifications = lazy(() => import('./components/ui/notifications.tsx').then((m) => ({ default: m.Notifications })));

function OnFirstToast({ children }: { children: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  const { notifications } = useNotifications();
  if (!wanted && notifications.length > 0) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}

startOpening(window.location.pathname);
// Where the keyboard was, for a dialog to give it back to when it closes.
watchControls();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={resolver}>
      {/* Bottom left, away from the uploads panel and the row menus (which open at the right); a few at a time;
          above dialogs (200) but below menus and popovers (300), so a toast never hides a menu. */}
      <OnFirstToast>
        <Notifications position="bottom-left" limit={3} zIndex={250} />
      </OnFirstToast>
      <QueryClientProvider client={queryClient}>
        <AppRoutes />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
