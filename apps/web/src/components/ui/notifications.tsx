// Imported lazily by main.tsx: through this module the toasts' container gets its own chunk (a
// dynamic import of the package itself would keep it in the first one, beside the store).
import { Notifications as Toasts, type NotificationsProps } from '@mantine/notifications';
import { useEffect } from 'react';
import { keepRoomBelow, TOASTS_ROOM } from './room-below.ts';

const STACK = 'cabinet-toasts';

/**
 * The toasts, at the bottom of the window: while they are shown the page leaves their height as
 * room at its end, so a list's last rows can be scrolled clear of them (on a phone they span the
 * width and would cover the last row's buttons until they closed).
 */
export function Notifications(props: NotificationsProps & { position: 'bottom-left' | 'bottom-right' | 'bottom-center' }) {
  useEffect(() => {
    // The stack is drawn in a portal a moment after this mounts: found as it arrives, then watched.
    let end: (() => void) | undefined;
    const find = () => {
      const stack = document.querySelector<HTMLElement>(`.${STACK}[data-position="${props.position}"]`);
      if (!stack) return;
      arrival.disconnect();
      end = keepRoomBelow(stack, TOASTS_ROOM);
    };
    const arrival = new MutationObserver(find);
    arrival.observe(document.body, { childList: true, subtree: true });
    find();
    return () => {
      arrival.disconnect();
      end?.();
    };
  }, [props.position]);
  return <Toasts {...props} className={STACK} />;
}
