import { useEffect, useState } from 'react';

/**
 * The control a dialog gives the keyboard back to: what had the focus when it opened — or, when
 * that was an item of a menu (which closes and unmounts as the dialog opens), the button that
 * opened the menu (Mantine's menu target names its open dropdown in aria-controls).
 */
export function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest<HTMLElement>('[role="menu"]');
  if (menu) return menu.id ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`) : null;
  return active;
}

/**
 * The last control outside a dialog that had the keyboard (a menu's item counting as its button): a dialog whose code
 * arrives after its menu has closed finds the keyboard on the page's body (a menu without a closing transition, as for
 * someone who asked for less motion, leaves at once), and was opened from this. Watched from the page's start
 * (`watchControls`), since a dialog's code comes later.
 */
let lastControl: HTMLElement | null = null;
export function watchControls(): void {
  document.addEventListener(
    'focusin',
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (target && !target.closest('[role="dialog"]')) lastControl = openerOf(target) ?? lastControl;
    },
    true,
  );
}

/**
 * Used by a dialog or drawer that is mounted while open: when it closes, the keyboard goes back to
 * the control that opened it, not to the page. It steps aside when something else has taken the
 * focus meanwhile (a page that opened, an editor focused on purpose) or the opener is gone.
 */
export function useReturnFocus() {
  // Read while the dialog first renders: the opener still has the focus, and a menu is still in the page.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (openerOf(document.activeElement) ?? lastControl)));
  useEffect(
    () => () => {
      // After the dialog has left the page (and after Mantine's own focus return, which waits 10 ms).
      setTimeout(() => {
        const active = document.activeElement;
        const dropped = !active || active === document.body || !active.isConnected;
        if (dropped && opener?.isConnected) opener.focus({ preventScroll: true });
      }, 20);
    },
    [opener],
  );
}
