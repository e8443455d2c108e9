import { Table, Text, VisuallyHidden } from '@mantine/core';
import type { TItem } from '@cabinet/contracts';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { formatBytes, formatRelative } from '../../../lib/format.ts';
import { canEdit, ItemActions } from './item-actions.tsx';
import { ItemName } from './item-name.tsx';

/** The drag type that carries item ids between rows (and onto breadcrumbs). */
export const ITEM_DRAG_TYPE = 'application/x-cabinet-items';
const ROW_HEIGHT = 49;

interface ItemTableProps {
  label: string;
  ws: string;
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
 * its real height), so a folder of 100,000 items scrolls as smoothly as one of ten.
 */
export function ItemTable({ label, ws, items, starredIds, linkTo, onNearEnd, onDropOnFolder }: ItemTableProps) {
  const tableRef = useRef<HTMLTableElement>(null);
  const [offset, setOffset] = useState(0);
  const [dropTarget, setDropTarget] = useState<string>();
  useEffect(() => setOffset(tableRef.current?.offsetTop ?? 0), []);
  const virtualizer = useWindowVirtualizer({ count: items.length, estimateSize: () => ROW_HEIGHT, overscan: 12, scrollMargin: offset });
  const rows = virtualizer.getVirtualItems();
  const last = rows.at(-1);
  useEffect(() => {
    if (onNearEnd && last && last.index >= items.length - 50) onNearEnd();
  }, [last, items.length, onNearEnd]);
  const top = rows[0] ? rows[0].start - offset : 0;
  const bottom = last ? virtualizer.getTotalSize() - (last.end - offset) : 0;

  return (
    <Table ref={tableRef} highlightOnHover verticalSpacing="xs" aria-label={label} aria-rowcount={items.length + 1} layout="fixed">
      <Table.Thead>
        <Table.Tr>
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
          return (
            <Table.Tr
              key={item.id}
              aria-rowindex={row.index + 2}
              h={ROW_HEIGHT}
              draggable={canEdit(item)}
              onDragStart={(e) => {
                e.dataTransfer.setData(ITEM_DRAG_TYPE, JSON.stringify([item.id]));
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
              bg={dropTarget === item.id ? 'var(--mantine-primary-color-light)' : undefined}
            >
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
                <ItemActions item={item} ws={ws} starred={starredIds.has(item.id)} />
              </Table.Td>
            </Table.Tr>
          );
        })}
        {bottom > 0 && <tr aria-hidden style={{ height: bottom }} />}
      </Table.Tbody>
    </Table>
  );
}
