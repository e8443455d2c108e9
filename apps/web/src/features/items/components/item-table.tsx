import { Box, Button, Card, Center, Checkbox, Group, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconDownload, IconFolderShare, IconTrash, IconUserShare, IconX } from '@tabler/icons-react';
import { filesApi, urlOf, type TItem, type TWorkspace } from '@cabinet/contracts';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type DragEvent, type FocusEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { formatRelative } from '../../../lib/format.ts';
import { useItemMutations } from '../api/use-items.ts';
import { useSelection } from '../hooks/use-selection.ts';
import { DetailsDrawer } from './details-drawer.tsx';
import { FolderPickerDialog } from './folder-picker-dialog.tsx';
import { contentUrl, ItemActions, useTrashWithUndo, type ItemDialog } from './item-actions.tsx';
import { VersionsDrawer } from './versions-drawer.tsx';
import { ItemIcon, ItemName, itemSize } from './item-name.tsx';
import { NameDialog } from './name-dialog.tsx';
import { ShareDialog } from '../../sharing/components/share-dialog.tsx';

/** The drag type that carries item ids between rows (and onto breadcrumbs). */
export const ITEM_DRAG_TYPE = 'application/x-cabinet-items';
const ROW_HEIGHT = 49;
const CARD_WIDTH = 176;
const CARD_HEIGHT = 168;

interface ItemTableProps {
  label: string;
  /** A table of rows, or a grid of cards. */
  view?: 'list' | 'grid';
  workspace: TWorkspace;
  items: TItem[];
  starredIds: Set<string>;
  linkTo: (item: TItem) => string | undefined;
  /** More rows exist than are loaded: called as the list nears its end. */
  onNearEnd?: (() => void) | undefined;
  /** Dropping items onto a folder row moves them there; dropping files uploads them there. */
  onDropOnFolder?: ((folder: TItem, event: DragEvent) => void) | undefined;
}

/**
 * Items as a table, rendering only the rows near the viewport (the page scrolls, the table keeps
 * its real height), so a folder of 100,000 items scrolls as smoothly as one of ten. Rows select
 * like a file manager's (click, Ctrl/⌘-click, Shift-click, Ctrl/⌘-A) and answer the keyboard:
 * arrows move (and select), Space adds the row in focus to the selection or takes it out, Enter
 * opens, Delete trashes, F2 renames; a right click opens the row's menu.
 */
export function ItemTable({ label, view = 'list', workspace, items, starredIds, linkTo, onNearEnd, onDropOnFolder }: ItemTableProps) {
  const ws = workspace.id;
  const tableRef = useRef<HTMLTableElement & HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);
  const [offset, setOffset] = useState(0);
  const [dropTarget, setDropTarget] = useState<string>();
  // The row in focus, by id: rows come and go (trashed, uploaded, live changes) and it stays on its item.
  const [focusId, setFocusId] = useState<string>();
  // After a trash: the row to focus once the trashed rows have left the list.
  const refocus = useRef<{ next: string | undefined; gone: Set<string>; heading: HTMLElement | null }>(undefined);
  const [menuFor, setMenuFor] = useState<string>();
  const [dialog, setDialog] = useState<{ kind: ItemDialog; items: TItem[] }>();
  const showDialog = (kind: ItemDialog, item: TItem) => setDialog({ kind, items: [item] });
  const selection = useSelection(items.map((i) => i.id));
  const m = useItemMutations(ws);
  const trash = useTrashWithUndo(ws);
  const navigate = useNavigate();
  // Whether the person's last input was Tab: only that moves the selection with the focus.
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
  const virtualizer = useWindowVirtualizer({
    count: Math.ceil(items.length / perRow),
    estimateSize: () => (grid ? CARD_HEIGHT : ROW_HEIGHT),
    overscan: grid ? 4 : 12,
    scrollMargin: offset,
  });
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
  /**
   * Trashes items (those the person may trash) and keeps the keyboard where it was: on the row
   * after them, else the one before, else — the list gone — on the view's heading; never the page.
   */
  const trashItems = (targets: TItem[]) => {
    const gone = new Set(targets.filter((i) => i.abilities.trash).map((i) => i.id));
    if (!gone.size) return;
    const indexes = items.flatMap((i, k) => (gone.has(i.id) ? [k] : []));
    const after = items.slice(indexes.at(-1)! + 1).find((i) => !gone.has(i.id));
    const before = items.slice(0, indexes[0]).findLast((i) => !gone.has(i.id));
    const pending = { next: (after ?? before)?.id, gone, heading: tableRef.current?.closest('main')?.querySelector('h1') ?? null };
    refocus.current = pending;
    selection.clear();
    void trash(items.filter((i) => gone.has(i.id))).then((trashed) => {
      // Nothing went (refused, offline): the rows stay, and so does the focus.
      if (!trashed.length && refocus.current === pending) refocus.current = undefined;
    });
  };
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

  const open = (item: TItem) => {
    const to = linkTo(item);
    if (to) void navigate(to);
    else window.open(contentUrl(item), '_blank', 'noopener');
  };
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
    else if (e.key === 'F2' && item?.abilities.edit) showDialog('rename', item);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && (chosen.length || item)) trashItems(chosen.length ? chosen : [item!]);
    else return;
    e.preventDefault();
  };
  const onRowClick = (e: MouseEvent, item: TItem) => {
    if ((e.target as HTMLElement).closest('a, button, input')) return;
    setFocusId(item.id);
    selection.select(item.id, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });
  };

  /** What a row and a card share: focus, selection, opening, the context menu, dragging and dropping. */
  const itemProps = (item: TItem, index: number) => {
    const droppable = item.kind === 'folder' && item.abilities.createInside && !!onDropOnFolder;
    const isSelected = selection.selected.has(item.id);
    return {
      'data-row': index,
      tabIndex: index === focus ? 0 : -1,
      'aria-selected': isSelected,
      onClick: (e: MouseEvent) => onRowClick(e, item),
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
        setMenuFor(item.id);
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
      style: { outlineOffset: -2 },
    };
  };
  const actions = (item: TItem) => (
    <ItemActions
      item={item}
      ws={ws}
      starred={starredIds.has(item.id)}
      onOpen={open}
      onDialog={showDialog}
      opened={menuFor === item.id}
      onChange={(opened) => setMenuFor(opened ? item.id : undefined)}
      onTrash={(target) => trashItems([target])}
    />
  );
  const checkbox = (item: TItem) => (
    <Checkbox
      size="xs"
      aria-label={`Select ${item.name}`}
      checked={selection.selected.has(item.id)}
      onChange={() => selection.select(item.id, { toggle: true })}
      tabIndex={-1}
    />
  );

  return (
    <>
      {chosen.length > 0 && (
        <Paper withBorder p="xs" radius="md" pos="sticky" top={64} style={{ zIndex: 3 }} aria-label="Selection">
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={500} role="status">
              {chosen.length} selected
            </Text>
            <Group gap="xs">
              {chosen.every((i) => i.abilities.download) && (
                <Button
                  size="compact-sm"
                  variant="light"
                  component="a"
                  href={urlOf(filesApi.zip, { ws }, { ids: chosen.map((i) => i.id).join(',') })}
                  leftSection={<IconDownload aria-hidden size={16} />}
                >
                  Download
                </Button>
              )}
              {chosen.length === 1 && chosen[0]!.abilities.share && (
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconUserShare aria-hidden size={16} />}
                  onClick={() => setDialog({ kind: 'share', items: chosen })}
                >
                  Share
                </Button>
              )}
              {chosen.every((i) => i.abilities.edit) && (
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconFolderShare aria-hidden size={16} />}
                  onClick={() => setDialog({ kind: 'move', items: chosen })}
                >
                  Move to…
                </Button>
              )}
              {chosen.every((i) => i.abilities.trash) && (
                <Button size="compact-sm" variant="light" color="red" leftSection={<IconTrash aria-hidden size={16} />} onClick={() => trashItems(chosen)}>
                  Move to trash
                </Button>
              )}
              <Button size="compact-sm" variant="subtle" color="gray" leftSection={<IconX aria-hidden size={16} />} onClick={selection.clear}>
                Clear selection
              </Button>
            </Group>
          </Group>
        </Paper>
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
              {items.slice(row.index * perRow, row.index * perRow + perRow).map((item, k) => {
                const index = row.index * perRow + k;
                return (
                  <Card key={item.id} role="gridcell" withBorder radius="md" padding="xs" h={CARD_HEIGHT - 12} {...itemProps(item, index)}>
                    <Group justify="space-between" wrap="nowrap" gap={4}>
                      {checkbox(item)}
                      {actions(item)}
                    </Group>
                    <Center flex={1} c={item.kind === 'folder' ? 'var(--mantine-primary-color-filled)' : 'dimmed'} aria-hidden>
                      <ItemIcon kind={item.kind} size={44} />
                    </Center>
                    <ItemName item={item} to={linkTo(item)} starred={starredIds.has(item.id)} bare />
                    <Text size="xs" c="dimmed" truncate="end">
                      {item.kind === 'file' ? `${itemSize(item)} · ${formatRelative(item.updatedAt)}` : formatRelative(item.updatedAt)}
                    </Text>
                  </Card>
                );
              })}
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
            {rows.map((row) => {
              const item = items[row.index]!;
              return (
                <Table.Tr key={item.id} aria-rowindex={row.index + 2} h={ROW_HEIGHT} {...itemProps(item, row.index)}>
                  <Table.Td>{checkbox(item)}</Table.Td>
                  <Table.Td style={{ overflow: 'hidden' }}>
                    <ItemName item={item} to={linkTo(item)} starred={starredIds.has(item.id)} />
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" c="dimmed">
                      {formatRelative(item.updatedAt)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" c="dimmed">
                      {itemSize(item)}
                    </Text>
                  </Table.Td>
                  <Table.Td>{actions(item)}</Table.Td>
                </Table.Tr>
              );
            })}
            {bottom > 0 && <tr aria-hidden style={{ height: bottom }} />}
          </Table.Tbody>
        </Table>
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={`Rename “${dialog.items[0]!.name}”`}
          label="New name"
          submitLabel="Rename"
          initial={dialog.items[0]!.name}
          keepExtension={dialog.items[0]!.kind === 'file'}
          onClose={() => setDialog(undefined)}
          onSubmit={(name) => m.rename.mutateAsync({ id: dialog.items[0]!.id, name })}
        />
      )}
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
