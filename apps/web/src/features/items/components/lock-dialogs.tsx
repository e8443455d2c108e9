import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TItem } from '@cabinet/contracts';
import { useState } from 'react';
import { ConfirmDialog, LockedConfirm } from '../../../components/ui/confirm-dialog.tsx';
import { lockHolder } from '../../../lib/locks.ts';
import { useMe } from '../../auth/api/use-me.ts';
import { useItemMutations } from '../api/use-item-mutations.ts';
import { NameDialog } from './name-dialog.tsx';

/** Asks before breaking the lock on an item, then breaks it. */
export function BreakLockDialog({ item, workspaceId, onClose }: { item: TItem; workspaceId: string; onClose: () => void }) {
  const me = useMe();
  const m = useItemMutations(workspaceId);
  const lock = item.lock;
  const own = !!lock && lock.by.id === me.data?.user.id;
  const holder = lock ? lockHolder(lock, me.data?.user.id) : 'someone';
  const loses = own ? 'what is not yet saved there may be lost' : `${lock?.by.name || 'they'} may lose changes not yet saved there`;
  return (
    <ConfirmDialog
      title={`Break the lock on “${item.name}”?`}
      confirmLabel="Break lock"
      pending={m.breakLock.isPending}
      onConfirm={() =>
        m.breakLock.mutate(item, {
          onSuccess: () => {
            notifications.show({ message: `The lock on “${item.name}” is broken` });
            onClose();
          },
          onError: (error) => notifications.show({ color: 'red', message: error.message }),
        })
      }
      onClose={onClose}
    >
      <Text size="sm">
        It is locked by {holder}. Once the lock is broken, anyone who may edit it can change it, and {loses}.
      </Text>
    </ConfirmDialog>
  );
}

/** Rename, asked about first when a WebDAV client holds the item. */
export function RenameItemDialog({ item, onSubmit, onClose }: { item: TItem; onSubmit: (name: string) => Promise<unknown>; onClose: () => void }) {
  const me = useMe();
  const [asked, setAsked] = useState(!item.lock);
  if (!asked && item.lock) {
    return (
      <LockedConfirm
        name={item.name}
        lock={item.lock}
        meId={me.data?.user.id}
        confirmLabel="Rename anyway"
        onConfirm={() => setAsked(true)}
        onClose={onClose}
      />
    );
  }
  return (
    <NameDialog
      title={`Rename “${item.name}”`}
      label="New name"
      submitLabel="Rename"
      initial={item.name}
      keepExtension={item.kind === 'file'}
      onClose={onClose}
      onSubmit={onSubmit}
    />
  );
}
