import { Box, Checkbox, Table, VisuallyHidden } from '@mantine/core';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useNavigate } from 'react-router';
import { useItemMutations } from '../api/use-item-mutations.ts';
import { useItemInteractions, type ItemInteractions } from '../hooks/use-item-interactions.ts';
import { useItemKeyboard } from '../hooks/use-item-keyboard.ts';
import { useSelection } from '../hooks/use-selection.ts';
import { useTrashKeepingFocus } from '../hooks/use-trash-keeping-focus.ts';
import { DetailsDrawer } from './details-drawer.tsx';
import { FolderPickerDialog } from './folder-picker-dialog.tsx';
import { ItemActions, useTrashWithUndo, type ItemDialog } from './item-actions.tsx';
import { forgetReturn, keepRows, rememberReturn, returnHere } from '../../../lib/viewer-return.ts';
import { CARD_HEIGHT, CARD_WIDTH, ItemCard } from './item-card.tsx';
import { ItemRow, ROW_HEIGHT } from './item-row.tsx';
import { BreakLockDialog, RenameItemDialog } from './lock-dialogs.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { VersionsDrawer } from './versions-drawer.tsx';
import { ShareDialog } from '../../sharing/components/share-dialog.tsx';

interface ItemTableProps {
  label: string;
  /** A table of rows, or a grid of cards. */
  view?: 'list' | 'grid';
  workspace: TWorkspace;
  items: TItem[];
  starredIds: Set<string>;
  linkTo: (item: TItem) => string;
  /** More rows exist than are loaded: called as the list nears its end. */
  onNearEnd?: (() => void) | undefined;
  /** Dropping items onto a folder row moves them there; dropping files uploads them there. */
  onDropOnFolder?: ((folder: TItem, event: DragEvent) => void) | undefined;
}

/**
 * Items as a table, rendering only the rows near the viewport (the page scrolls, the table keeps
 * its real height), so a folder of 100,000 items scrolls as smoothly as one of ten. Rows select
 * like a file manager's (click, Ctrl/⌘-click, Shift-click, Ctrl/⌘-A) and answer the keyboard
 * (useItemKeyboard); a right click opens the row's menu.
 */
export function ItemTable({ label, view = 'list', workspace, items, starredIds, linkTo, onNearEnd, onDropOnFolder }: ItemTableProps) {
  const ws = workspace.id;
  const tableRef = useRef<HTMLTableElement & HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);
  const [offset, setOffset] = useState(0);
  // The row in focus, by id: rows come and go (trashed, uploaded, live changes) and it stays on its item.
  const [focusId, setFocusId] = useState<string>();
  const [menuFor, setMenuFor] = useState<string>();
  const [dialog, setDialog] = useState<{ kind: ItemDialog; items: TItem[] }>();
  const showDialog = (kind: ItemDialog, item: TItem) => setDialog({ kind, items: [item] });
  const selection = useSelection(items.map((i) => i.id));
  const m = useItemMutations(ws);
  const navigate = useNavigate();
  useEffect(() => {
    const el = tableRef.current;
    if (!el) return;
    setOffset(el.offsetTop);
    // A grid has as many columns as cards of CARD_WIDTH fit.
    const observer = new ResizeObserver(() => setColumns(Math.max(2, Math.floor(el.clientWidth / CARD_WIDTH))));
    observer.observe(el);
    return () => observer.disconnect();
  }, [view]);
  const grid = view === 'grid';
  const perRow = grid ? columns : 1;
  // Back from the viewer: the list it was left as (read once, as the list is first drawn).
  const [back] = useState(returnHere);
  // Rows are measured as they are drawn (a card grid is placed by its fixed height alone). Their heights go with the
  // list to the viewer and come back with it, so rows above the scroll are placed as they were, not estimated again.
  const virtualizer = useWindowVirtualizer({
    count: Math.ceil(items.length / perRow),
    estimateSize: () => (grid ? CARD_HEIGHT : ROW_HEIGHT),
    getItemKey: (index) => (grid ? index : (items[index]?.id ?? index)),
    indexAttribute: 'data-row',
    initialMeasurementsCache: grid ? [] : (back?.rows ?? []).map(([key, size], index) => ({ key, size, index, start: 0, end: size, lane: 0 })),
    overscan: grid ? 4 : 12,
    scrollMargin: offset,
  });
  useEffect(() => {
    const path = window.location.pathname + window.location.search;
    return () =>
      keepRows(
        path,
        virtualizer.takeSnapshot().map((row) => [String(row.key), row.size]),
      );
  }, [virtualizer]);
  const rows = virtualizer.getVirtualItems();
  const last = rows.at(-1);
  useEffect(() => {
    if (onNearEnd && last && (last.index + 1) * perRow >= items.length - 50) onNearEnd();
  }, [last, items.length, onNearEnd, perRow]);
  const top = rows[0] ? rows[0].start - offset : 0;
  const bottom = last ? virtualizer.getTotalSize() - (last.end - offset) : 0;
  const chosen = items.filter((i) => selection.selected.has(i.id));
  const focus = Math.max(
    0,
    items.findIndex((i) => i.id === focusId),
  );

  const focusRow = (index: number) => {
    virtualizer.scrollToIndex(Math.floor(index / perRow));
    requestAnimationFrame(() => tableRef.current?.querySelector<HTMLElement>(`[data-row="${index}"]`)?.focus());
  };
  // Back from the viewer: the page scrolled as it was when the file was opened, the keyboard on the file shown last.
  useEffect(() => {
    if (!back) return;
    forgetReturn();
    const shownIndex = back.itemId ? items.findIndex((i) => i.id === back.itemId) : -1;
    const shownRow = () => (shownIndex < 0 ? null : tableRef.current?.querySelector<HTMLElement>(`[data-row="${shownIndex}"]`));
    // The rows come back at the heights they had, so the old scroll shows them where they stood. It is set again on
    // the next frames while the page is still shorter than it was (half a second at most), and left at once when the
    // person scrolls or types themselves (the file shown last still takes the keyboard, the page left where they put it).
    let gone = false;
    let moved = false;
    const onInput = () => (moved = true);
    const inputs = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
    for (const input of inputs) window.addEventListener(input, onInput, { passive: true, once: true });
    const restore = (frames: number) => {
      if (gone) return;
      if (!moved) window.scrollTo(0, back.scrollY);
      if (!moved && frames > 0 && Math.abs(window.scrollY - back.scrollY) > 1) {
        requestAnimationFrame(() => restore(frames - 1));
        return;
      }
      if (shownIndex < 0) return;
      setFocusId(back.itemId);
      // A frame later, once the list has drawn the rows at this scroll: the file shown last is among them unless the
      // person stepped beyond, and only then is the list scrolled to it.
      requestAnimationFrame(() => (gone ? undefined : focusShown()));
    };
    const focusShown = () => {
      if (!shownRow() && !moved) virtualizer.scrollToIndex(Math.floor(shownIndex / perRow));
      requestAnimationFrame(() => {
        const el = shownRow();
        el?.focus({ preventScroll: true });
        // The file stepped to may lie beyond what was on screen: brought just into view.
        const box = el?.getBoundingClientRect();
        if (!moved && box && (box.top < 0 || box.bottom > window.innerHeight)) el!.scrollIntoView({ block: 'nearest' });
      });
    };
    requestAnimationFrame(() => restore(30));
    // Gone before it settled (another folder opened): nothing more is done to the page.
    return () => {
      gone = true;
      for (const input of inputs) window.removeEventListener(input, onInput);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the list first shows
  }, []);
  const trash = useTrashWithUndo(ws);
  const trashItems = useTrashKeepingFocus({ items, trash, focusRow, clearSelection: selection.clear, listRef: tableRef });
  // A file opens in the viewer, which comes back here (this scroll, this row) on Escape.
  const open = (item: TItem) => {
    void navigate(linkTo(item), item.kind === 'file' ? { state: rememberReturn() } : undefined);
  };
  const { onKeyDown, tabbing } = useItemKeyboard({
    items,
    focus,
    perRow,
    grid,
    selection,
    chosen,
    setFocusId,
    focusRow,
    open,
    rename: (item) => showDialog('rename', item),
    trash: trashItems,
  });
  const interactions = useItemInteractions({ selection, chosen, focus, tabbing, setFocusId, open, onMenu: (item) => setMenuFor(item.id), onDropOnFolder });
  // A row is drawn again only when what it shows changed (ItemRow's memo): its handlers call this render's, whatever
  // render drew it, so that a row drawn before a change (the selection, the list, the focus) acts on the list as it is.
  const current = useRef({ interactions, open, trashItems, select: selection.select });
  useLayoutEffect(() => {
    current.current = { interactions, open, trashItems, select: selection.select };
  });
  const handlers = useMemo(
    () => ({
      open: (item: TItem) => current.current.open(item),
      trash: (item: TItem) => void current.current.trashItems([item]),
      dialog: (kind: ItemDialog, item: TItem) => setDialog({ kind, items: [item] }),
      toggle: (id: string) => current.current.select(id, { toggle: true }),
    }),
    [],
  );
  /** The row's interactions as of now, each handler calling the latest render's. */
  const rowInteractions = (item: TItem, index: number): ItemInteractions => {
    type Handlers = Record<string, ((...args: unknown[]) => void) | undefined>;
    const now = interactions(item, index) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(now))
      if (typeof value === 'function') now[key] = (...args: unknown[]) => (current.current.interactions(item, index) as unknown as Handlers)[key]?.(...args);
    return now as unknown as ItemInteractions;
  };
  /** What a row and a card show of an item besides its own fields. */
  const shown = (item: TItem, index: number) => ({
    item,
    to: linkTo(item),
    starred: starredIds.has(item.id),
    selected: selection.selected.has(item.id),
    onToggle: () => handlers.toggle(item.id),
    interactions: rowInteractions(item, index),
    actions: (
      <ItemActions
        item={item}
        workspace={workspace}
        starred={starredIds.has(item.id)}
        onOpen={handlers.open}
        onDialog={handlers.dialog}
        opened={menuFor === item.id}
        onChange={(opened) => setMenuFor(opened ? item.id : undefined)}
        onTrash={handlers.trash}
      />
    ),
  });

  return (
    <>
      {chosen.length > 0 && (
        <SelectionBar
          ws={ws}
          chosen={chosen}
          onDialog={(kind, targets) => setDialog({ kind, items: targets })}
          onTrash={trashItems}
          onClear={selection.clear}
        />
      )}
      {grid ? (
        <Box
          ref={tableRef}
          role="grid"
          aria-label={label}
          aria-multiselectable
          aria-rowcount={Math.ceil(items.length / perRow)}
          onKeyDown={onKeyDown}
          pos="relative"
          h={virtualizer.getTotalSize()}
        >
          {rows.map((row) => (
            <Box
              key={row.index}
              role="row"
              pos="absolute"
              left={0}
              right={0}
              top={row.start - offset}
              style={{ display: 'grid', gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`, gap: 12 }}
            >
              {items.slice(row.index * perRow, row.index * perRow + perRow).map((item, k) => (
                <ItemCard key={item.id} {...shown(item, row.index * perRow + k)} />
              ))}
            </Box>
          ))}
        </Box>
      ) : (
        <Table ref={tableRef} highlightOnHover verticalSpacing="xs" aria-label={label} aria-rowcount={items.length + 1} layout="fixed" onKeyDown={onKeyDown}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={44}>
                <Checkbox
                  aria-label="Select all"
                  size="xs"
                  checked={chosen.length > 0 && chosen.length === items.length}
                  indeterminate={chosen.length > 0 && chosen.length < items.length}
                  onChange={() => (chosen.length === items.length ? selection.clear() : selection.selectAll())}
                />
              </Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th visibleFrom="sm" w={160}>
                Modified
              </Table.Th>
              <Table.Th visibleFrom="sm" w={110}>
                Size
              </Table.Th>
              <Table.Th w={56}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {top > 0 && <tr aria-hidden style={{ height: top }} />}
            {rows.map((row) => (
              <ItemRow key={items[row.index]!.id} index={row.index} measure={virtualizer.measureElement} {...shown(items[row.index]!, row.index)} />
            ))}
            {bottom > 0 && <tr aria-hidden style={{ height: bottom }} />}
          </Table.Tbody>
        </Table>
      )}
      {dialog?.kind === 'rename' && (
        <RenameItemDialog
          item={dialog.items[0]!}
          onClose={() => setDialog(undefined)}
          onSubmit={(name) => m.rename.mutateAsync({ id: dialog.items[0]!.id, name })}
        />
      )}
      {dialog?.kind === 'breakLock' && <BreakLockDialog item={dialog.items[0]!} workspaceId={ws} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'details' && <DetailsDrawer item={dialog.items[0]!} workspace={workspace} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'share' && <ShareDialog item={dialog.items[0]!} workspace={workspace} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'versions' && <VersionsDrawer item={dialog.items[0]!} onClose={() => setDialog(undefined)} />}
      {(dialog?.kind === 'move' || dialog?.kind === 'copy') && (
        <FolderPickerDialog
          workspace={workspace}
          items={dialog.items}
          mode={dialog.kind}
          onClose={() => {
            setDialog(undefined);
            selection.clear();
          }}
        />
      )}
    </>
  );
}
