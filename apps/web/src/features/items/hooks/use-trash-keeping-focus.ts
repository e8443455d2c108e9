import type { TItem } from '@cabinet/contracts';
import { useEffect, useRef, type RefObject } from 'react';

interface TrashKeepingFocusOptions {
  items: TItem[];
  /** Trashes items, answering those that went (useTrashWithUndo). */
  trash: (items: TItem[]) => Promise<TItem[]>;
  /** Puts the keyboard on a row by its index. */
  focusRow: (index: number) => void;
  clearSelection: () => void;
  /** The list, inside the page's main region whose heading takes the focus when the list is gone. */
  listRef: RefObject<HTMLElement | null>;
}

/**
 * Trashes items (those the person may trash) and keeps the keyboard where it was: on the row
 * after them, else the one before, else — the list gone — on the view's heading; never the page.
 */
export function useTrashKeepingFocus({ items, trash, focusRow, clearSelection, listRef }: TrashKeepingFocusOptions) {
  // After a trash: the row to focus once the trashed rows have left the list.
  const refocus = useRef<{ next: string | undefined; gone: Set<string>; heading: HTMLElement | null }>(undefined);
  useEffect(() => {
    const pending = refocus.current;
    if (!pending || items.some((i) => pending.gone.has(i.id))) return;
    refocus.current = undefined;
    const index = items.findIndex((i) => i.id === pending.next);
    // The row's onFocus makes it the row in focus.
    if (index >= 0) focusRow(index);
    else pending.heading?.focus();
  });
  // The list left the page with its last row: its heading takes the focus.
  useEffect(() => () => refocus.current?.heading?.focus(), []);

  return (targets: TItem[]) => {
    const gone = new Set(targets.filter((i) => i.abilities.trash).map((i) => i.id));
    if (!gone.size) return;
    const indexes = items.flatMap((i, k) => (gone.has(i.id) ? [k] : []));
    const after = items.slice(indexes.at(-1)! + 1).find((i) => !gone.has(i.id));
    const before = items.slice(0, indexes[0]).findLast((i) => !gone.has(i.id));
    const pending = { next: (after ?? before)?.id, gone, heading: listRef.current?.closest('main')?.querySelector('h1') ?? null };
    refocus.current = pending;
    clearSelection();
    void trash(items.filter((i) => gone.has(i.id))).then((trashed) => {
      // Nothing went (refused, offline): the rows stay, and so does the focus.
      if (!trashed.length && refocus.current === pending) refocus.current = undefined;
    });
  };
}
