import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateWorkspace } from '../api/use-workspaces.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';

/** Mounted while open: closed, it gives the keyboard back to what opened it. */
export function CreateWorkspaceModal({ onClose }: { onClose: () => void }) {
  useReturnFocus();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateWorkspace();
  const navigate = useNavigate();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('Give the workspace a name');
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (workspace) => {
          setName('');
          onClose();
          void navigate(pageRoutes.workspace(workspace.slug));
        },
        onError: (e) => setError(e instanceof ApiError ? e.message : 'Could not create the workspace.'),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Create workspace" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Workspace name"
            placeholder="Design team"
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            maxLength={100}
            data-autofocus
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
