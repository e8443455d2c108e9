import { Badge, Tooltip } from '@mantine/core';
import { IconLockFilled } from '@tabler/icons-react';
import type { TItemLock } from '@cabinet/contracts';
import { lockLabel } from '../../../lib/locks.ts';
import { useMe } from '../../auth/api/use-me.ts';

/** A row's or a card's sign that a WebDAV client holds the item: a padlock, named for screen readers, its words on hover. */
export function LockMark({ lock }: { lock: TItemLock }) {
  const me = useMe();
  const label = lockLabel(lock, me.data?.user.id);
  return (
    <Tooltip label={label}>
      <span role="img" aria-label={label} style={{ display: 'inline-flex', flex: 'none', color: 'var(--mantine-color-dimmed)' }}>
        <IconLockFilled aria-hidden size={14} />
      </span>
    </Tooltip>
  );
}

/** The lock in words, under the name in the file viewer's bar: "Locked by Bob (Finder)". */
export function LockBadge({ lock }: { lock: TItemLock }) {
  const me = useMe();
  const label = lockLabel(lock, me.data?.user.id);
  return (
    <Badge
      // Whole on hover where a narrow bar cuts it short.
      title={label}
      variant="outline"
      color="gray"
      size="xs"
      component="span"
      tt="none"
      maw="100%"
      style={{ flexShrink: 0 }}
      leftSection={<IconLockFilled aria-hidden size={10} />}
    >
      {label}
    </Badge>
  );
}
