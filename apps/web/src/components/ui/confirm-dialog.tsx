import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
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
