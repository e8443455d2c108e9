import type { TItem } from '@cabinet/contracts';
import { useState, type DragEvent, type FocusEvent, type MouseEvent, type RefObject } from 'react';
import type { Selection } from './use-selection.ts';

/** The focus ring drawn inside a row or a card (one object, so that a row's props compare equal while unchanged). */
const ROW_STYLE = { outlineOffset: -2 };

/** The drag type that carries item ids between rows (and onto breadcrumbs). */
export const ITEM_DRAG_TYPE = 'application/x-cabinet-items';

interface ItemInteractionOptions {
  selection: Selection;
  /** The selected items, in the list's order. */
  chosen: TItem[];
  /** The index of the row in focus: the one the Tab key reaches. */
  focus: number;
  /** Whether the person's last input was Tab (useItemKeyboard). */
  tabbing: RefObject<boolean>;
  setFocusId: (id: string) => void;
  open: (item: TItem) => void;
  /** A right click: the item's menu opens. */
  onMenu: (item: TItem) => void;
  /** Dropping items onto a folder moves them there; dropping files uploads them there. */
  onDropOnFolder?: ((folder: TItem, event: DragEvent) => void) | undefined;
}

/**
 * What a row and a card share, as props to spread on either: focus, selection (click, Ctrl/⌘-click,
 * Shift-click), opening on a double click, the context menu, dragging the selection and dropping
 * onto a folder (which is marked while something is over it).
 */
export function useItemInteractions({ selection, chosen, focus, tabbing, setFocusId, open, onMenu, onDropOnFolder }: ItemInteractionOptions) {
  const [dropTarget, setDropTarget] = useState<string>();
  return (item: TItem, index: number) => {
    const droppable = item.kind === 'folder' && item.abilities.createInside && !!onDropOnFolder;
    const isSelected = selection.selected.has(item.id);
    return {
      'data-row': index,
      tabIndex: index === focus ? 0 : -1,
      'aria-selected': isSelected,
      onClick: (e: MouseEvent) => {
        if ((e.target as HTMLElement).closest('a, button, input')) return;
        setFocusId(item.id);
        selection.select(item.id, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });
      },
      onDoubleClick: (e: MouseEvent) => {
        if (!(e.target as HTMLElement).closest('a, button, input')) open(item);
      },
      onFocus: (e: FocusEvent<HTMLElement>) => {
        setFocusId(item.id);
        // Tabbing to a row carries the selection, as arrows do: Delete, F2 and Enter act on the row the person sees marked.
        // Focus given back by a closing menu or dialog (Escape, Enter on an item, Cancel) leaves the selection as it was.
        if (!isSelected && tabbing.current && e.currentTarget.matches(':focus-visible, :has(:focus-visible)')) selection.select(item.id);
      },
      onContextMenu: (e: MouseEvent) => {
        e.preventDefault();
        setFocusId(item.id);
        if (!isSelected) selection.select(item.id);
        onMenu(item);
      },
      draggable: item.abilities.edit,
      onDragStart: (e: DragEvent) => {
        const ids = isSelected ? chosen.filter((i) => i.abilities.edit).map((i) => i.id) : [item.id];
        e.dataTransfer.setData(ITEM_DRAG_TYPE, JSON.stringify(ids));
        e.dataTransfer.effectAllowed = 'move';
      },
      ...(droppable
        ? {
            onDragOver: (e: DragEvent) => {
              e.preventDefault();
              e.stopPropagation();
              setDropTarget(item.id);
            },
            onDragLeave: () => setDropTarget(undefined),
            onDrop: (e: DragEvent) => {
              e.preventDefault();
              e.stopPropagation();
              setDropTarget(undefined);
              onDropOnFolder!(item, e);
            },
          }
        : {}),
      bg: dropTarget === item.id || isSelected ? 'var(--mantine-primary-color-light)' : undefined,
      style: ROW_STYLE,
    };
  };
}

/** The props a row or a card spreads for its item. */
export type ItemInteractions = ReturnType<ReturnType<typeof useItemInteractions>>;
