import { Card, Center, Group, Text } from '@mantine/core';
import type { TItem } from '@cabinet/contracts';
import type { ReactNode } from 'react';
import { formatRelative } from '../../../lib/format.ts';
import type { ItemInteractions } from '../hooks/use-item-interactions.ts';
import { ItemCheckbox } from './item-checkbox.tsx';
import { ItemIcon } from './item-icon.tsx';
import { ItemName, itemSize } from './item-name.tsx';
import { LockMark } from './lock-mark.tsx';
import { ItemThumbnail } from './item-thumbnail.tsx';

/** A card's place in the grid: its width sets how many fit a row; its height, the row's. */
export const CARD_WIDTH = 176;
export const CARD_HEIGHT = 168;

interface ItemCardProps {
  item: TItem;
  to: string | undefined;
  starred: boolean;
  selected: boolean;
  onToggle: () => void;
  /** Focus, selection, opening, the menu, dragging and dropping (useItemInteractions). */
  interactions: ItemInteractions;
  /** The item's menu. */
  actions: ReactNode;
}

/** The box a card's picture fits in. */
const PICTURE_WIDTH = CARD_WIDTH - 40;
const PICTURE_HEIGHT = 64;

/** One item of the grid view: its box and menu, its thumbnail (or a large icon), its name, and its size and when it was modified. */
export function ItemCard({ item, to, starred, selected, onToggle, interactions, actions }: ItemCardProps) {
  return (
    <Card role="gridcell" withBorder radius="md" padding="xs" h={CARD_HEIGHT - 12} {...interactions}>
      <Group justify="space-between" wrap="nowrap" gap={4}>
        <ItemCheckbox item={item} selected={selected} onToggle={onToggle} />
        {actions}
      </Group>
      <Center flex={1} mih={0} c={item.kind === 'folder' ? 'var(--mantine-primary-color-filled)' : 'dimmed'}>
        <ItemThumbnail
          item={item}
          size="256"
          width={PICTURE_WIDTH}
          height={PICTURE_HEIGHT}
          fallback={
            <span aria-hidden>
              <ItemIcon item={item} size={44} />
            </span>
          }
        />
      </Center>
      <ItemName item={item} to={to} starred={starred} bare after={item.lock && <LockMark lock={item.lock} />} />
      <Text size="xs" c="dimmed" truncate="end">
        {item.kind === 'file' ? `${itemSize(item)} · ${formatRelative(item.updatedAt)}` : formatRelative(item.updatedAt)}
      </Text>
    </Card>
  );
}
