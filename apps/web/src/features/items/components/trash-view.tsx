import { Button, Group, List, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatRelative } from '../../../lib/format.ts';
import { useTrash } from '../api/use-items.ts';
import { useItemMutations } from '../api/use-item-mutations.ts';
import { ItemName } from './item-name.tsx';

/** How many names the empty-trash dialog lists before it counts the rest. */
const NAMED = 5;

const what = (item: TItem) =>
  item.kind === 'folder'
    ? `“${item.name}” and everything in it`
    : item.kind === 'file'
      ? `“${item.name}” and all its versions`
      : `“${item.name}” and its history`;

export function TrashView({ workspace }: { workspace: TWorkspace }) {
  const trash = useTrash(workspace.id);
  const m = useItemMutations(workspace.id);
  // Deleting forever is asked first: the whole trash, or one item.
  const [confirm, setConfirm] = useState<{ all: true } | { item: TItem }>();
  const heading = useRef<HTMLHeadingElement>(null);
  const items = trash.data ?? [];
  // Emptying the trash deletes what the person may delete forever; the rest stays for its managers.
  const deletable = items.filter((i) => i.abilities.deleteForever);
  const failed = (error: Error) => notifications.show({ color: 'red', message: error.message });
  // The row's button is gone with it: the keyboard goes to the heading, not the page.
  const done = () => {
    setConfirm(undefined);
    heading.current?.focus();
  };
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2" ref={heading} tabIndex={-1}>
          Trash
        </Title>
        <Button variant="light" color="red" disabled={deletable.length === 0} onClick={() => setConfirm({ all: true })}>
          Empty trash
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Items you moved to the trash, or own. Restore them, or delete them forever.
      </Text>
      {trash.isPending ? (
        <Skeleton h={120} />
      ) : items.length === 0 ? (
        <EmptyState icon={<IconTrash size={32} />} title="The trash is empty">
          Items you delete wait here, so you can change your mind.
        </EmptyState>
      ) : (
        // Fixed columns: a long name is cut short rather than pushing the buttons off a narrow screen,
        // where the buttons stack instead of sitting side by side.
        <Table verticalSpacing="xs" aria-label="Items in the trash" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th visibleFrom="sm" w={160}>
                Deleted
              </Table.Th>
              <Table.Th w={{ base: 136, sm: 230 }}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td style={{ overflow: 'hidden' }}>
                  <ItemName item={item} plain />
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm" c="dimmed">
                    {formatRelative(item.updatedAt)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end">
                    {item.abilities.restore && (
                      <Button
                        size="compact-sm"
                        variant="light"
                        aria-label={`Restore ${item.name}`}
                        onClick={() =>
                          m.restore.mutate(item.id, {
                            onSuccess: (r) =>
                              notifications.show({
                                message:
                                  r.restoredInto === 'root'
                                    ? `“${r.item.name}” restored into ${r.item.parentId === workspace.rootId ? 'Workspace' : 'My files'}: its folder is gone`
                                    : `“${r.item.name}” restored`,
                              }),
                            onError: failed,
                          })
                        }
                      >
                        Restore
                      </Button>
                    )}
                    {item.abilities.deleteForever && (
                      <Button size="compact-sm" variant="subtle" color="red" aria-label={`Delete ${item.name} forever`} onClick={() => setConfirm({ item })}>
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
      {confirm && 'item' in confirm && (
        <ConfirmDialog
          title={`Delete “${confirm.item.name}” forever?`}
          confirmLabel="Delete forever"
          pending={m.purge.isPending}
          onClose={() => setConfirm(undefined)}
          onConfirm={() => m.purge.mutate(confirm.item.id, { onSuccess: done, onError: failed })}
        >
          <Text size="sm">{what(confirm.item)} will be deleted forever. This cannot be undone.</Text>
        </ConfirmDialog>
      )}
      {confirm && 'all' in confirm && (
        <ConfirmDialog
          title="Empty the trash?"
          confirmLabel="Delete forever"
          pending={m.emptyTrash.isPending}
          onClose={() => setConfirm(undefined)}
          onConfirm={() => m.emptyTrash.mutate(undefined, { onSuccess: done, onError: failed })}
        >
          <Text size="sm">
            {deletable.length === 1 ? 'This item' : `These ${deletable.length} items`} will be deleted forever
            {deletable.some((i) => i.kind === 'folder') ? ', folders with everything in them' : ''}. This cannot be undone.
          </Text>
          <List size="sm" aria-label="Items to delete forever">
            {deletable.slice(0, NAMED).map((item) => (
              <List.Item key={item.id}>{item.name}</List.Item>
            ))}
            {deletable.length > NAMED && <List.Item>and {deletable.length - NAMED} more</List.Item>}
          </List>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
