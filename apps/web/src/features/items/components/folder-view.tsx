import { ActionIcon, Anchor, Breadcrumbs, Button, Group, Menu, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots, IconFolderOpen, IconFolderPlus, IconPencil, IconTrash } from '@tabler/icons-react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatBytes, formatRelative } from '../../../lib/format.ts';
import { useAncestors, useChildren, useItem, useItemMutations } from '../api/use-items.ts';
import { ItemName } from './item-name.tsx';
import { NameDialog } from './name-dialog.tsx';

const canEdit = (item: TItem | undefined) => item?.role === 'editor' || item?.role === 'manager';

export function folderTitle(item: TItem, workspace: TWorkspace): string {
  return item.id === workspace.homeId ? 'My files' : item.id === workspace.rootId ? 'Workspace' : item.name;
}

export function FolderView({ workspace, folderId }: { workspace: TWorkspace; folderId: string }) {
  const ws = workspace.id;
  const folder = useItem(folderId);
  const ancestors = useAncestors(folderId);
  const children = useChildren(ws, folderId);
  const m = useItemMutations(ws);
  const [dialog, setDialog] = useState<{ kind: 'new' } | { kind: 'rename'; item: TItem } | null>(null);
  const base = `/w/${workspace.slug}`;
  const linkTo = (item: TItem) => (item.id === workspace.homeId ? `${base}/my` : `${base}/f/${item.id}`);

  const trash = (item: TItem) =>
    m.trash.mutate(item.id, {
      onSuccess: () => {
        const id = notifications.show({
          message: (
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">“{item.name}” moved to the trash</Text>
              <Button size="compact-sm" variant="subtle" onClick={() => { m.restore.mutate(item.id); notifications.hide(id); }}>
                Undo
              </Button>
            </Group>
          ),
        });
      },
      onError: (e) => notifications.show({ color: 'red', message: e.message }),
    });

  if (folder.error) {
    return <EmptyState icon={<IconFolderOpen size={32} />} title="This folder does not exist">It may have been moved, deleted, or not shared with you.</EmptyState>;
  }
  const title = folder.data ? folderTitle(folder.data, workspace) : '';
  const items = children.data ?? [];
  return (
    <Stack gap="md">
      <nav aria-label="Folder path">
      <Breadcrumbs separatorMargin={4}>
        {(ancestors.data ?? []).map((a) => (
          <Anchor key={a.id} component={Link} to={linkTo(a)} size="sm" underline="hover">
            {folderTitle(a, workspace)}
          </Anchor>
        ))}
        <Text size="sm" aria-current="page">{title}</Text>
      </Breadcrumbs>
      </nav>
      <Group justify="space-between">
        <Title order={1} fz="h2">{title || <Skeleton h={28} w={160} />}</Title>
        {canEdit(folder.data) && (
          <Button leftSection={<IconFolderPlus aria-hidden size={18} />} onClick={() => setDialog({ kind: 'new' })}>
            New folder
          </Button>
        )}
      </Group>
      {children.isPending ? (
        <Skeleton h={120} />
      ) : items.length === 0 ? (
        <EmptyState icon={<IconFolderOpen size={32} />} title="This folder is empty">
          {canEdit(folder.data) ? 'Create a folder to start organising. Uploading files comes next.' : 'Nothing has been put here yet.'}
        </EmptyState>
      ) : (
        <Table highlightOnHover verticalSpacing="xs" aria-label={`Contents of ${title}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th visibleFrom="sm">Modified</Table.Th>
              <Table.Th visibleFrom="sm">Size</Table.Th>
              <Table.Th w={48}><VisuallyHidden>Actions</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <ItemName item={item} to={item.kind === 'folder' ? linkTo(item) : undefined} />
                </Table.Td>
                <Table.Td visibleFrom="sm"><Text size="sm" c="dimmed">{formatRelative(item.updatedAt)}</Text></Table.Td>
                <Table.Td visibleFrom="sm"><Text size="sm" c="dimmed">{item.kind === 'folder' ? '—' : formatBytes(item.size)}</Text></Table.Td>
                <Table.Td>
                  {canEdit(item) && (
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${item.name}`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item leftSection={<IconPencil aria-hidden size={16} />} onClick={() => setDialog({ kind: 'rename', item })}>Rename</Menu.Item>
                        <Menu.Item leftSection={<IconTrash aria-hidden size={16} />} color="red" onClick={() => trash(item)}>Move to trash</Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {dialog?.kind === 'new' && (
        <NameDialog title="New folder" label="Folder name" submitLabel="Create" initial="Untitled folder" onClose={() => setDialog(null)} onSubmit={(name) => m.createFolder.mutateAsync({ parentId: folderId, name })} />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog title={`Rename “${dialog.item.name}”`} label="New name" submitLabel="Rename" initial={dialog.item.name} onClose={() => setDialog(null)} onSubmit={(name) => m.rename.mutateAsync({ id: dialog.item.id, name })} />
      )}
    </Stack>
  );
}
