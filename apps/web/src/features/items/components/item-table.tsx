import { Button, Checkbox, Group, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconDownload, IconFolderShare, IconTrash, IconX } from '@tabler/icons-react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { formatBytes, formatRelative } from '../../../lib/format.ts';
import { useItemMutations } from '../api/use-items.ts';
import { useSelection } from '../hooks/use-selection.ts';
import { DetailsDrawer } from './details-drawer.tsx';
import { FolderPickerDialog } from './folder-picker-dialog.tsx';
import { canEdit, contentUrl, ItemActions, useTrashWithUndo, type ItemDialog } from './item-actions.tsx';
import { VersionsDrawer } from './versions-drawer.tsx';
import { ItemName } from './item-name.tsx';
import { NameDialog } from './name-dialog.tsx';

/** The drag type that carries item ids between rows (and onto breadcrumbs). */
export const ITEM_DRAG_TYPE = 'application/x-cabinet-items';
const ROW_HEIGHT = 49;

interface ItemTableProps {
  label: string;
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
 * arrows move, Enter opens, Delete trashes, F2 renames; a right click opens the row's menu.
 */
export function ItemTable({ label, workspace, items, starredIds, linkTo, onNearEnd, onDropOnFolder }: ItemTableProps) {
  const ws = workspace.id;
  const tableRef = useRef<HTMLTableElement>(null);
  const [offset, setOffset] = useState(0);
  const [dropTarget, setDropTarget] = useState<string>();
  const [focus, setFocus] = useState(0);
  const [menuFor, setMenuFor] = useState<string>();
  const [dialog, setDialog] = useState<{ kind: ItemDialog; items: TItem[] }>();
  const showDialog = (kind: ItemDialog, item: TItem) => setDialog({ kind, items: [item] });
  const selection = useSelection(items.map((i) => i.id));
  const m = useItemMutations(ws);
  const trash = useTrashWithUndo(ws);
  const navigate = useNavigate();
  useEffect(() => setOffset(tableRef.current?.offsetTop ?? 0), []);
  const virtualizer = useWindowVirtualizer({ count: items.length, estimateSize: () => ROW_HEIGHT, overscan: 12, scrollMargin: offset });
  const rows = virtualizer.getVirtualItems();
  const last = rows.at(-1);
  useEffect(() => {
    if (onNearEnd && last && last.index >= items.length - 50) onNearEnd();
  }, [last, items.length, onNearEnd]);
  const top = rows[0] ? rows[0].start - offset : 0;
  const bottom = last ? virtualizer.getTotalSize() - (last.end - offset) : 0;
  const chosen = items.filter((i) => selection.selected.has(i.id));

  const open = (item: TItem) => {
    const to = linkTo(item);
    if (to) void navigate(to);
    else window.open(contentUrl(item), '_blank', 'noopener');
  };
  const moveFocus = (index: number, extend: boolean) => {
    const next = Math.max(0, Math.min(items.length - 1, index));
    setFocus(next);
    virtualizer.scrollToIndex(next);
    const item = items[next];
    if (item) selection.select(item.id, { range: extend });
    requestAnimationFrame(() => tableRef.current?.querySelector<HTMLElement>(`[data-row="${next}"]`)?.focus());
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.target as HTMLElement).closest('input, [role="menu"], button:not([data-row])')) return;
    const item = items[focus];
    if (e.key === 'ArrowDown') moveFocus(focus + 1, e.shiftKey);
    else if (e.key === 'ArrowUp') moveFocus(focus - 1, e.shiftKey);
    else if (e.key === 'Home') moveFocus(0, e.shiftKey);
    else if (e.key === 'End') moveFocus(items.length - 1, e.shiftKey);
    else if (e.key === 'a' && (e.ctrlKey || e.metaKey)) selection.selectAll();
    else if (e.key === 'Escape') selection.clear();
    else if (e.key === 'Enter' && item) open(item);
    else if (e.key === 'F2' && item && canEdit(item)) showDialog('rename', item);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && (chosen.length || item)) {
      for (const target of chosen.length ? chosen : [item!]) if (canEdit(target)) void trash(target);
      selection.clear();
    } else return;
    e.preventDefault();
  };
  const onRowClick = (e: MouseEvent, index: number, item: TItem) => {
    if ((e.target as HTMLElement).closest('a, button, input')) return;
    setFocus(index);
    selection.select(item.id, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });
  };

  return (
    <>
      {chosen.length > 0 && (
        <Paper withBorder p="xs" radius="md" pos="sticky" top={64} style={{ zIndex: 3 }} aria-label="Selection">
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={500} role="status">
              {chosen.length} selected
            </Text>
            <Group gap="xs">
              <Button size="compact-sm" variant="light" component="a" href={`/api/v1/workspaces/${ws}/zip?ids=${chosen.map((i) => i.id).join(',')}`} leftSection={<IconDownload aria-hidden size={16} />}>
                Download
              </Button>
              {chosen.every(canEdit) && (
                <Button size="compact-sm" variant="light" leftSection={<IconFolderShare aria-hidden size={16} />} onClick={() => setDialog({ kind: 'move', items: chosen })}>
                  Move to…
                </Button>
              )}
              {chosen.every(canEdit) && (
                <Button
                  size="compact-sm"
                  variant="light"
                  color="red"
                  leftSection={<IconTrash aria-hidden size={16} />}
                  onClick={() => {
                    for (const item of chosen) void trash(item);
                    selection.clear();
                  }}
                >
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
            const droppable = item.kind === 'folder' && canEdit(item) && !!onDropOnFolder;
            const isSelected = selection.selected.has(item.id);
            return (
              <Table.Tr
                key={item.id}
                data-row={row.index}
                tabIndex={row.index === focus ? 0 : -1}
                aria-rowindex={row.index + 2}
                aria-selected={isSelected}
                h={ROW_HEIGHT}
                onClick={(e) => onRowClick(e, row.index, item)}
                onDoubleClick={(e) => {
                  if (!(e.target as HTMLElement).closest('a, button, input')) open(item);
                }}
                onFocus={() => setFocus(row.index)}
                onContextMenu={(e) => {
                  e.preventDefault();
                  setFocus(row.index);
                  if (!isSelected) selection.select(item.id);
                  setMenuFor(item.id);
                }}
                draggable={canEdit(item)}
                onDragStart={(e) => {
                  const ids = isSelected ? chosen.filter(canEdit).map((i) => i.id) : [item.id];
                  e.dataTransfer.setData(ITEM_DRAG_TYPE, JSON.stringify(ids));
                  e.dataTransfer.effectAllowed = 'move';
                }}
                onDragOver={droppable ? (e) => {
                  e.preventDefault();
                  e.stopPropagation();
                  setDropTarget(item.id);
                } : undefined}
                onDragLeave={droppable ? () => setDropTarget(undefined) : undefined}
                onDrop={droppable ? (e) => {
                  e.preventDefault();
                  e.stopPropagation();
                  setDropTarget(undefined);
                  onDropOnFolder!(item, e);
                } : undefined}
                bg={dropTarget === item.id || isSelected ? 'var(--mantine-primary-color-light)' : undefined}
                style={{ outlineOffset: -2 }}
              >
                <Table.Td>
                  <Checkbox size="xs" aria-label={`Select ${item.name}`} checked={isSelected} onChange={() => selection.select(item.id, { toggle: true })} tabIndex={-1} />
                </Table.Td>
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
                    {item.kind === 'folder' ? '—' : formatBytes(item.size)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <ItemActions
                    item={item}
                    ws={ws}
                    starred={starredIds.has(item.id)}
                    onOpen={open}
                    onDialog={showDialog}
                    opened={menuFor === item.id}
                    onChange={(opened) => setMenuFor(opened ? item.id : undefined)}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
          {bottom > 0 && <tr aria-hidden style={{ height: bottom }} />}
        </Table.Tbody>
      </Table>
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={`Rename “${dialog.items[0]!.name}”`}
          label="New name"
          submitLabel="Rename"
          initial={dialog.items[0]!.name}
          onClose={() => setDialog(undefined)}
          onSubmit={(name) => m.rename.mutateAsync({ id: dialog.items[0]!.id, name })}
        />
      )}
      {dialog?.kind === 'details' && <DetailsDrawer item={dialog.items[0]!} workspace={workspace} onClose={() => setDialog(undefined)} />}
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
