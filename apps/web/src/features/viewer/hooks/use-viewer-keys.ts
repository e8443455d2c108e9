import { useEffect, useEffectEvent } from 'react';

/** Whether a key press belongs to a text field (the find box, a dialog's input): the viewer's own keys leave those alone. */
export function isTyping(e: KeyboardEvent): boolean {
  const target = e.target as HTMLElement | null;
  if (!target) return false;
  return target.isContentEditable || !!target.closest('input, textarea, select, [role="textbox"], [role="combobox"]');
}

/**
 * The viewer's keys, on the whole page: the handler answers true for a key it took (its default is
 * then prevented). Keys pressed in a text field, with a modifier (other than Shift), or while a
 * dialog, a menu or a list of options is open are not the viewer's: Escape closes those first. Heard in the
 * capture phase, before a dialog's own Escape has closed it (React may remove it before the key
 * reaches the window).
 */
export function useViewerKeys(handler: (e: KeyboardEvent) => boolean, enabled = true) {
  const handle = useEffectEvent(handler);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e)) return;
      if (document.querySelector('[role="dialog"], [role="menu"], [role="alertdialog"], [role="listbox"]')) return;
      if (handle(e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [enabled]);
}
