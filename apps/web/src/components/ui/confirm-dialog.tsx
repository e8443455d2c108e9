import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { TItemLock } from '@cabinet/contracts';
import type { ReactNode } from 'react';
import { lockHolder } from '../../lib/locks.ts';
import { useReturnFocus } from './use-return-focus.ts';

/**
 * Asks before something that cannot be undone. The dialog names what will go; Enter confirms
 * (the confirming button has the focus), Escape and Cancel leave everything as it was.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  pending,
  onConfirm,
  onClose,
  children,
  color = 'red',
}: {
  /** Red by default (something goes); another colour for a change that loses nothing. */
  color?: string;
  title: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  useReturnFocus();
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!pending) onConfirm();
        }}
      >
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={color} loading={pending} data-autofocus>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Asks before changing a file a WebDAV client holds a lock on (a rename, a new version): whoever holds it may be
 * changing it in their app, and what they have not saved there may be lost. Go on, or leave it as it is. Beside
 * ConfirmDialog, whose code the uploads' conflict question and the items' dialogs already share: in a module of its own
 * it would be one more file that the first page's script names.
 */
export function LockedConfirm(props: {
  name: string;
  lock: TItemLock;
  meId: string | undefined;
  confirmLabel: 'Rename anyway' | 'Replace anyway';
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { lock } = props;
  const own = lock.by.id === props.meId;
  const app = lock.client ?? (own ? 'another app' : 'their app');
  return (
    <ConfirmDialog
      title={`“${props.name}” is locked by ${lockHolder(lock, props.meId)}`}
      confirmLabel={props.confirmLabel}
      pending={false}
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    >
      <Text size="sm">
        {own
          ? `You may have it open in ${app}. If you go on, changes not yet saved there may be lost.`
          : `${lock.by.name || 'Someone'} may be changing it in ${app} right now. If you go on, they may lose changes not yet saved there.`}
      </Text>
    </ConfirmDialog>
  );
}
