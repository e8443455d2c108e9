import { Table, Text } from '@mantine/core';
import type { TItem } from '@cabinet/contracts';
import { memo, type ReactElement } from 'react';
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
  /** The item's menu (ItemActions). */
  actions: ReactElement<{ item: TItem; workspace: unknown; starred: boolean; opened?: boolean }>;
  /** Measures the drawn row, for the list to place the rows after it (the virtualizer's `measureElement`). */
  measure?: ((row: HTMLTableRowElement | null) => void) | undefined;
}

/**
 * Whether a row shows the same as before: its item, place, link, star and selection, how long ago it changed, what its interactions set on it
 * (focus in the Tab order, the selection's and a drop's colour, whether it drags) and its menu's state. Handlers are
 * not compared: the table's call the latest render's whichever drew the row (item-table.tsx).
 */
function showsTheSame(a: ItemRowProps, b: ItemRowProps): boolean {
  if (a.item !== b.item || a.index !== b.index || a.to !== b.to || a.starred !== b.starred || a.selected !== b.selected || a.measure !== b.measure)
    return false;
  // "5 minutes ago" moves on with the clock, the item unchanged: it is drawn again as the list is.
  if (formatRelative(a.item.updatedAt) !== formatRelative(b.item.updatedAt)) return false;
  for (const key of Object.keys(a.interactions) as (keyof ItemInteractions)[]) {
    const value = a.interactions[key];
    if (typeof value !== 'function' && value !== b.interactions[key]) return false;
  }
  if (Object.keys(a.interactions).length !== Object.keys(b.interactions).length) return false;
  const [x, y] = [a.actions.props, b.actions.props];
  return x.item === y.item && x.workspace === y.workspace && x.starred === y.starred && x.opened === y.opened;
}

/**
 * One item of the list view: its box, name (and a padlock when a WebDAV client holds it), when it was modified, its size
 * and its menu. Drawn again only when it shows something else (`showsTheSame`): a change to one row, the selection or
 * the focus drew every row on the screen again.
 */
export const ItemRow = memo(function ItemRow({ item, index, to, starred, selected, onToggle, interactions, actions, measure }: ItemRowProps) {
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
}, showsTheSame);
