import type { TItem } from '@cabinet/contracts';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { Selection } from './use-selection.ts';

interface ItemKeyboardOptions {
  items: TItem[];
  /** The index of the row in focus. */
  focus: number;
  /** A grid's cards per row (left and right move too); a list's 1. */
  perRow: number;
  grid: boolean;
  selection: Selection;
  /** The selected items, in the list's order. */
  chosen: TItem[];
  setFocusId: (id: string) => void;
  /** Puts the keyboard on a row by its index, scrolling it into view. */
  focusRow: (index: number) => void;
  open: (item: TItem) => void;
  rename: (item: TItem) => void;
  trash: (items: TItem[]) => void;
}

/**
 * A list's keys, as a file manager's: arrows move (and select; with Shift they extend the selection),
 * Home and End go to the ends, Ctrl/⌘-A selects all, Escape none, Space adds the row in focus to the
 * selection or takes it out, Enter opens, F2 renames, Delete trashes. Also answers whether the
 * person's last input was Tab (`tabbing`): only that carries the selection with the focus.
 */
export function useItemKeyboard({ items, focus, perRow, grid, selection, chosen, setFocusId, focusRow, open, rename, trash }: ItemKeyboardOptions) {
  const tabbing = useRef(false);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      tabbing.current = e.key === 'Tab';
    };
    const onPointer = () => {
      tabbing.current = false;
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);

  const moveFocus = (index: number, extend: boolean) => {
    const next = Math.max(0, Math.min(items.length - 1, index));
    const item = items[next];
    if (!item) return;
    setFocusId(item.id);
    selection.select(item.id, { range: extend });
    focusRow(next);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).closest('input, [role="menu"], button:not([data-row])')) return;
    const item = items[focus];
    if (e.key === 'ArrowDown') moveFocus(focus + perRow, e.shiftKey);
    else if (e.key === 'ArrowUp') moveFocus(focus - perRow, e.shiftKey);
    else if (grid && e.key === 'ArrowRight') moveFocus(focus + 1, e.shiftKey);
    else if (grid && e.key === 'ArrowLeft') moveFocus(focus - 1, e.shiftKey);
    else if (e.key === 'Home') moveFocus(0, e.shiftKey);
    else if (e.key === 'End') moveFocus(items.length - 1, e.shiftKey);
    else if (e.key === 'a' && (e.ctrlKey || e.metaKey)) selection.selectAll();
    else if (e.key === 'Escape') selection.clear();
    else if (e.key === ' ' && item) selection.select(item.id, { toggle: true });
    else if (e.key === 'Enter' && item) open(item);
    else if (e.key === 'F2' && item?.abilities.edit) rename(item);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && (chosen.length || item)) trash(chosen.length ? chosen : [item!]);
    else return;
    e.preventDefault();
  };
  return { onKeyDown, tabbing };
}
