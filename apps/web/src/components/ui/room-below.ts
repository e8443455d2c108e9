/**
 * The room what floats over the bottom of the window takes while it is shown (CSS lengths on the
 * document's root): the page pads its end by the larger (shell.tsx), so its last rows can be scrolled
 * clear of the uploads panel and of the notifications.
 */
export const UPLOADS_ROOM = '--cabinet-uploads-room';
export const TOASTS_ROOM = '--cabinet-toasts-room';

/** Keeps `element`'s height, and a gap above it, as `room` while it is there; what it returns ends that. */
export function keepRoomBelow(element: HTMLElement, room: string): () => void {
  const root = document.documentElement.style;
  const observer = new ResizeObserver(() => (element.offsetHeight > 0 ? root.setProperty(room, `${element.offsetHeight + 16}px`) : root.removeProperty(room)));
  observer.observe(element);
  return () => {
    observer.disconnect();
    root.removeProperty(room);
  };
}
