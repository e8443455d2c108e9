import { Anchor, Group, Text } from '@mantine/core';
import { IconFile, IconFolder } from '@tabler/icons-react';
import type { TItem } from '@cabinet/contracts';
import { Link } from 'react-router';

/** An item's icon and name; a link when it leads somewhere. */
export function ItemName({ item, to }: { item: TItem; to?: string | undefined }) {
  return (
    <Group gap="xs" wrap="nowrap">
      {item.kind === 'folder' ? <IconFolder aria-hidden size={20} /> : <IconFile aria-hidden size={20} />}
      {to ? (
        <Anchor component={Link} to={to} underline="hover" c="var(--mantine-color-text)" fw={500}>
          {item.name}
        </Anchor>
      ) : (
        <Text>{item.name}</Text>
      )}
    </Group>
  );
}
