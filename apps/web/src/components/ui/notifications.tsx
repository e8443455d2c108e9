// Imported lazily by main.tsx: through this module the toasts' container gets its own chunk (a
// dynamic import of the package itself would keep it in the first one, beside the store).
import { Notifications as Toasts, type NotificationsProps } from '@mantine/notifications';
import { useCallback } from 'react';
import { keepRoomBelow, TOASTS_ROOM } from './room-below.ts';

/**
 * The toasts, at the bottom of the window: while they are shown the page leaves their height as
 * room at its end, so a list's last rows can be scrolled clear of them (on a phone they span the
 * width and would cover the last row's buttons until they closed). They are drawn in place rather
 * than in a portal, so their stack is there when the wrapper's ref is set; fixed, they sit over the
 * page all the same, by their z-index.
 */
export function Notifications(props: NotificationsProps & { position: 'bottom-left' | 'bottom-right' | 'bottom-center' }) {
  const { position } = props;
  const roomBelow = useCallback(
    (wrapper: HTMLDivElement | null) => {
      const stack = wrapper?.querySelector<HTMLElement>(`[data-position="${position}"]`);
      return stack ? keepRoomBelow(stack, TOASTS_ROOM) : undefined;
    },
    [position],
  );
  return (
    <div ref={roomBelow}>
      <Toasts {...props} withinPortal={false} />
    </div>
  );
}
