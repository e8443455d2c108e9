import { ActionIcon, Button, Group, Modal, Paper, PasswordInput, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { TPasskey } from '@cabinet/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useTextField } from '../../../components/ui/use-text-field.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { fieldMessage } from '../../../lib/field-message.ts';
import { describeUserAgent, formatDate, formatRelative } from '../../../lib/format.ts';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/use-passkeys.ts';

/** What went wrong adding a passkey, in the person's words: the browser's refusals by their name, the server's by its message. */
function addFailure(error: Error): string {
  if (error instanceof ApiError) return fieldMessage(error, 'response') ?? error.message;
  const cause = (error as Error & { cause?: Error }).cause;
  const name = cause?.name ?? error.name;
  if (name === 'InvalidStateError' || (error as Error & { code?: string }).code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This device already has a passkey for your account.';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The request was cancelled or timed out. Nothing was added.';
  return 'Your browser or device could not make a passkey. Try again, or use another device.';
}

/**
 * Passkeys: each signs in with the device's own check (a fingerprint, a face, a PIN) and no password, or stands in for the
 * app's code after one. Added with the browser's prompt and named after the browser and system (renamed at will); each
 * removed after a question.
 */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<TPasskey | null>(null);
  const [removing, setRemoving] = useState<TPasskey | null>(null);
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;

  return (
    <Stack gap="sm">
      <Title order={3} fz="md" mt="md">
        Passkeys
      </Title>
      <Text size="sm">
        Sign in with your fingerprint, face or screen lock instead of your password. With two-step sign-in on, a passkey can also stand in for the app’s code.
      </Text>
      {passkeys.isError ? (
        <Text size="sm" c="red">
          Your passkeys could not be loaded: {passkeys.error.message}
        </Text>
      ) : !passkeys.data ? (
        <Skeleton h={56} />
      ) : passkeys.data.passkeys.length === 0 ? (
        <Text size="sm" c="dimmed">
          No passkeys yet.
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Passkeys">
          {passkeys.data.passkeys.map((p) => (
            <Paper component="li" key={p.id} withBorder p="sm" radius="md">
              <Group justify="space-between" wrap="nowrap">
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} size="sm" truncate>
                    {p.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {p.synced ? 'Synced between devices' : 'On one device'} · added {formatDate(p.createdAt)} ·{' '}
                    {p.lastUsedAt ? `last used ${formatRelative(p.lastUsedAt)}` : 'never used'}
                  </Text>
                </div>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label="Rename">
                    <ActionIcon variant="subtle" onClick={() => setRenaming(p)} aria-label={`Rename passkey ${p.name}`}>
                      <IconPencil size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Remove">
                    <ActionIcon variant="subtle" color="red" onClick={() => setRemoving(p)} aria-label={`Remove passkey ${p.name}`}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      <Group>
        <Button variant="default" onClick={() => setAdding(true)} disabled={!supported}>
          Add a passkey
        </Button>
        {!supported && (
          <Text size="sm" c="dimmed">
            This browser cannot make passkeys.
          </Text>
        )}
      </Group>
      {adding && <AddPasskey onClose={() => setAdding(false)} />}
      {renaming && <RenamePasskey passkey={renaming} onClose={() => setRenaming(null)} />}
      {removing && (
        <ConfirmDialog
          title={`Remove the passkey “${removing.name}”?`}
          confirmLabel="Remove"
          pending={remove.isPending}
          onClose={() => setRemoving(null)}
          onConfirm={() =>
            remove.mutate(removing.id, {
              onSuccess: () => setRemoving(null),
              onError: (error) => notifications.show({ color: 'red', title: 'Not removed', message: error.message }),
            })
          }
        >
          <Text size="sm">
            It will no longer sign you in. Remove it from your device or password manager too. This cannot be undone: to use that device again, add a new
            passkey.
          </Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}

/**
 * The password first (a passkey signs in alone, so a session taken from its owner must not add one), then the browser's
 * prompt; named after the browser and system.
 */
function AddPasskey({ onClose }: { onClose: () => void }) {
  const add = useAddPasskey();
  const password = useTextField();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password.value) return password.setError('Enter your password');
    add.mutate(
      { name: describeUserAgent(navigator.userAgent), currentPassword: password.value },
      {
        onSuccess: (added) => {
          onClose();
          notifications.show({ color: 'green', title: 'Passkey added', message: `“${added.name}” signs you in now. Rename it to tell it apart.` });
        },
        onError: (error) => {
          const wrong = fieldMessage(error, 'currentPassword');
          if (wrong) return password.setError(wrong);
          onClose();
          notifications.show({ color: 'red', title: 'No passkey added', message: addFailure(error) });
        },
      },
    );
  };
  return (
    <DialogForm title="Add a passkey" submitLabel="Continue" pending={add.isPending} onSubmit={submit} onClose={onClose}>
      <Text size="sm">Enter your password. Your browser then asks your device to make the passkey, with your fingerprint, face or screen lock.</Text>
      <PasswordInput label="Password" autoComplete="current-password" data-autofocus {...password.input} />
    </DialogForm>
  );
}

function RenamePasskey({ passkey, onClose }: { passkey: TPasskey; onClose: () => void }) {
  const rename = useRenamePasskey();
  const name = useTextField(passkey.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = name.value.trim();
    if (!value) return name.setError('Enter a name for the passkey');
    if (value === passkey.name) return onClose();
    rename.mutate(
      { id: passkey.id, name: value },
      {
        onSuccess: onClose,
        onError: (e) => name.setError(fieldMessage(e, 'name') ?? e.message),
      },
    );
  };
  return (
    <DialogForm title="Rename passkey" submitLabel="Save" pending={rename.isPending} onSubmit={submit} onClose={onClose}>
      <TextInput label="Name" maxLength={100} data-autofocus {...name.input} />
    </DialogForm>
  );
}

/** A dialog of one small form: its fields, then Cancel and the form's own button. */
function DialogForm(props: {
  title: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (event: FormEvent) => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered>
      <form onSubmit={props.onSubmit} noValidate>
        <Stack>
          {props.children}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={props.pending}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
