import { Button, Group, Modal, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatRelative } from '../../../lib/format.ts';
import { useItemMutations, useTrash } from '../api/use-items.ts';
import { ItemName } from './item-name.tsx';

export function TrashView({ workspace }: { workspace: TWorkspace }) {
  const trash = useTrash(workspace.id);
  const m = useItemMutations(workspace.id);
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  const items = trash.data ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2">Trash</Title>
        <Button variant="light" color="red" disabled={items.length === 0} onClick={() => setConfirmEmpty(true)}>Empty trash</Button>
      </Group>
      <Text size="sm" c="dimmed">Items you moved to the trash, or own. Restore them, or delete them forever.</Text>
      {trash.isPending ? (
        <Skeleton h={120} />
      ) : items.length === 0 ? (
        <EmptyState icon={<IconTrash size={32} />} title="The trash is empty">Items you delete wait here, so you can change your mind.</EmptyState>
      ) : (
        <Table verticalSpacing="xs" aria-label="Items in the trash">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th visibleFrom="sm">Deleted</Table.Th>
              <Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <ItemName item={item} plain />
                </Table.Td>
                <Table.Td visibleFrom="sm"><Text size="sm" c="dimmed">{formatRelative(item.updatedAt)}</Text></Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="light"
                      aria-label={`Restore ${item.name}`}
                      onClick={() =>
                        m.restore.mutate(item.id, {
                          onSuccess: (r) => notifications.show({ message: r.restoredInto === 'home' ? `“${r.item.name}” restored into My files: its folder is gone` : `“${r.item.name}” restored` }),
                        })
                      }
                    >
                      Restore
                    </Button>
                    {item.role === 'manager' && (
                      <Button size="compact-sm" variant="subtle" color="red" aria-label={`Delete ${item.name} forever`} onClick={() => m.purge.mutate(item.id)}>
                        Delete forever
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={confirmEmpty} onClose={() => setConfirmEmpty(false)} title="Empty the trash?" centered>
        <Stack>
          <Text size="sm">Everything in your trash will be deleted forever. This cannot be undone.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmEmpty(false)}>Cancel</Button>
            <Button color="red" loading={m.emptyTrash.isPending} onClick={() => m.emptyTrash.mutate(undefined, { onSuccess: () => setConfirmEmpty(false) })}>
              Delete forever
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
