import { AppShell, Burger, Group, NavLink, Progress, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuilding, IconClock, IconFolder, IconHome, IconSettings, IconStar, IconTrash, IconUsers } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../components/ui/logo.tsx';
import { OfflineBanner } from '../components/ui/offline-banner.tsx';
import { UserMenu } from '../features/auth/components/user-menu.tsx';
import { NotificationBell } from '../features/notifications/components/notification-bell.tsx';
import { TOASTS_ROOM, UPLOADS_ROOM } from '../components/ui/room-below.ts';
import { SearchLauncher } from '../features/search/components/search-launcher.tsx';
import { WorkspaceSwitcher } from '../features/workspaces/components/workspace-switcher.tsx';
import { useCurrentWorkspace } from '../features/workspaces/hooks/use-current-workspace.ts';
import { formatBytes } from '../lib/format.ts';
import { settingsPath } from './routes/settings-pages.ts';
import { pageRoutes } from '../lib/page-routes.ts';

/** `roots`: shown to those who create in the roots (not a guest, who sees only what is shared with them). */
export const SECTIONS = [
  { to: (w: TWorkspace) => pageRoutes.workspace(w.slug), label: 'Home', icon: IconHome },
  { to: (w: TWorkspace) => pageRoutes.myFiles(w.slug), label: 'My files', icon: IconFolder, roots: true },
  { to: (w: TWorkspace) => pageRoutes.folder(w.slug, w.rootId), label: 'Workspace', icon: IconBuilding, roots: true },
  { to: (w: TWorkspace) => pageRoutes.shared(w.slug), label: 'Shared with me', icon: IconUsers },
  { to: (w: TWorkspace) => pageRoutes.recent(w.slug), label: 'Recent', icon: IconClock },
  { to: (w: TWorkspace) => pageRoutes.starred(w.slug), label: 'Starred', icon: IconStar },
  { to: (w: TWorkspace) => pageRoutes.trash(w.slug), label: 'Trash', icon: IconTrash },
] as const;

/**
 * The signed-in frame: header with workspace switcher and account menu, navigation, storage use.
 * `watched`: the page follows the workspace's live changes, which tell the bell of notifications too.
 */
export function Shell({ workspace, watched = false, children }: { workspace: TWorkspace | undefined; watched?: boolean; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // On a narrow screen the navigation opens over the page: Escape closes it and gives the keyboard back to its toggle.
  useEffect(() => {
    if (!opened) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      close();
      toggleRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [opened, close]);
  const location = useLocation();
  const home = workspace && pageRoutes.workspace(workspace.slug);
  const settings = workspace && settingsPath(workspace);
  const inSettings = !!workspace && location.pathname.startsWith(pageRoutes.settings(workspace.slug));
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Burger ref={toggleRef} opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Link to={home ?? pageRoutes.root()} aria-label="Cabinet home" style={{ color: 'inherit', textDecoration: 'none' }}>
              <Logo size="md" compact />
            </Link>
            <WorkspaceSwitcher current={workspace} />
          </Group>
          <Group gap={4} wrap="nowrap">
            {workspace && <SearchLauncher workspace={workspace} />}
            <NotificationBell watched={watched} />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          {workspace &&
            SECTIONS.filter((s) => !('roots' in s) || workspace.abilities.createInRoots).map((s) => {
              const to = s.to(workspace);
              return (
                <NavLink
                  key={s.label}
                  component={Link}
                  to={to}
                  label={s.label}
                  leftSection={<s.icon aria-hidden size={18} />}
                  active={location.pathname === to}
                  variant="filled"
                  aria-current={location.pathname === to ? 'page' : undefined}
                  onClick={close}
                />
              );
            })}
          {settings && (
            <NavLink
              component={Link}
              to={settings}
              label="Members and settings"
              leftSection={<IconSettings aria-hidden size={18} />}
              active={inSettings}
              variant="filled"
              aria-current={inSettings ? 'page' : undefined}
              onClick={close}
            />
          )}
        </AppShell.Section>
        {workspace && workspace.usedBytes !== null && (
          <AppShell.Section p="xs">
            <Stack gap={4}>
              <Text size="xs" c="dimmed">
                Storage
              </Text>
              <Progress
                value={workspace.quotaBytes ? Math.min(100, (workspace.usedBytes / workspace.quotaBytes) * 100) : 0}
                size="sm"
                aria-label="Storage used"
              />
              <Text size="xs">
                {formatBytes(workspace.usedBytes)} used{workspace.quotaBytes ? ` of ${formatBytes(workspace.quotaBytes)}` : ''}
              </Text>
            </Stack>
          </AppShell.Section>
        )}
      </AppShell.Navbar>
      {/* Room at the end for the uploads panel and the notifications while they are shown, so they never cover the last rows. */}
      <AppShell.Main
        style={{
          paddingBottom: `calc(var(--app-shell-footer-offset, 0rem) + var(--app-shell-padding) + max(var(${UPLOADS_ROOM}, 0px), var(${TOASTS_ROOM}, 0px)))`,
        }}
      >
        <OfflineBanner />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

/** The frame of a signed-in page outside a workspace's address (the account, an invitation, a page not found): the workspace used last. */
export function PersonalShell({ children }: { children: ReactNode }) {
  const { workspace } = useCurrentWorkspace();
  return <Shell workspace={workspace}>{children}</Shell>;
}
