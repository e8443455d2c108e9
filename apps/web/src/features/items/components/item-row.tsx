import { Table, Text } from '@mantine/core';
import type { TItem } from '@cabinet/contracts';
import type { ReactNode } from 'react';
import { formatRelative } from '../../../lib/format.ts';
import type { ItemInteractions } from '../hooks/use-item-interactions.ts';
import { ItemCheckbox } from './item-checkbox.tsx';
import { ItemName, itemSize } from './item-name.tsx';
import { LockMark } from './lock-mark.tsx';

/** A row's height when its name fits one line, as the list estimates rows it has not drawn yet; drawn rows are measured. */
export const ROW_HEIGHT = 51;

interface ItemRowProps {
  item: TItem;
  /** Its place in the list (0 first): the table's header is row 1. */
  index: number;
  to: string | undefined;
  starred: boolean;
  selected: boolean;
  onToggle: () => void;
  /** Focus, selection, opening, the menu, dragging and dropping (useItemInteractions). */
  interactions: ItemInteractions;
  /** The item's menu. */
  actions: ReactNode;
  /** Measures the drawn row, for the list to place the rows after it (the virtualizer's `measureElement`). */
  measure?: ((row: HTMLTableRowElement | null) => void) | undefined;
}

/** One item of the list view: its box, name (and a padlock when a WebDAV client holds it), when it was modified, its size and its menu. */
export function ItemRow({ item, index, to, starred, selected, onToggle, interactions, actions, measure }: ItemRowProps) {
  return (
    <Table.Tr ref={measure} aria-rowindex={index + 2} h={ROW_HEIGHT} {...interactions}>
      <Table.Td>
        <ItemCheckbox item={item} selected={selected} onToggle={onToggle} />
      </Table.Td>
      <Table.Td style={{ overflow: 'hidden' }}>
        <ItemName item={item} to={to} starred={starred} after={item.lock && <LockMark lock={item.lock} />} />
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
      <Table.Td>{actions}</Table.Td>
    </Table.Tr>
  );
}
