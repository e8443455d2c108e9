import { Anchor, Center, Group, Text } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { filesApi, urlOf, type TItem } from '@cabinet/contracts';
import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { formatBytes } from '../../../lib/format.ts';
import { rememberReturn } from '../../../lib/viewer-return.ts';
import { ItemIcon } from './item-icon.tsx';
import { ItemThumbnail } from './item-thumbnail.tsx';

/** An item's size as lists show it: only a file's bytes mean something to a person. */
export const itemSize = (item: TItem) => (item.kind === 'file' ? formatBytes(item.size) : '—');

/**
 * An item's icon and name, linking to where it opens in the app (a file: the viewer, which comes
 * back to this list on Escape); without `to`, a file links to its bytes. Names are text, never markup.
 */
export function ItemName({
  item,
  to,
  starred = false,
  plain = false,
  bare = false,
  after,
}: {
  item: TItem;
  to?: string | undefined;
  starred?: boolean;
  plain?: boolean;
  /** Without the icon (a card shows its own). */ bare?: boolean;
  /** After the name, outside its link (which the name alone names): a folder's list shows a lock there. */
  after?: ReactNode;
}) {
  const name = (
    <>
      {item.name}
      {starred && <IconStarFilled aria-hidden size={14} style={{ marginLeft: 6, verticalAlign: -2, color: 'var(--mantine-color-yellow-6)' }} />}
    </>
  );
  return (
    <Group gap="xs" wrap="nowrap" miw={0}>
      {!bare && (
        // A 20 px column whatever the picture's shape, so the names line up.
        <Center w={20} style={{ flex: 'none' }}>
          <ItemThumbnail item={item} size="256" width={20} height={20} decorative fallback={<ItemIcon item={item} size={20} />} />
        </Center>
      )}
      {to ? (
        <Anchor
          component={Link}
          to={to}
          underline="hover"
          c="var(--mantine-color-text)"
          fw={500}
          truncate="end"
          // The state is read when the link is followed: the list and its scroll are remembered then.
          {...(item.kind === 'file' ? { onClick: (e: MouseEvent) => !e.defaultPrevented && rememberReturn() } : {})}
          state={item.kind === 'file' ? { viewerFrom: window.location.pathname + window.location.search } : undefined}
        >
          {name}
        </Anchor>
      ) : item.kind === 'file' && !plain ? (
        <Anchor
          href={urlOf(filesApi.content, { id: item.id })}
          target="_blank"
          rel="noopener"
          underline="hover"
          c="var(--mantine-color-text)"
          fw={500}
          truncate="end"
        >
          {name}
        </Anchor>
      ) : (
        <Text truncate="end">{name}</Text>
      )}
      {after}
    </Group>
  );
}
