import { Anchor, Breadcrumbs, Button, Group, Modal, NavLink, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFolder } from '@tabler/icons-react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { useAncestors, useChildren, useItem } from '../api/use-items.ts';
import { useItemMutations } from '../api/use-item-mutations.ts';
import { folderTitle } from '../hooks/use-item-links.ts';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';

/**
 * "Move to…" / "Copy to…": browse the folders (from My files or the Workspace root, for those who
 * may put things there; a guest starts from where the items are) and pick one the caller may add
 * to. Moving into the items themselves is not offered; the server refuses a cycle anyway.
 */
export function FolderPickerDialog({ workspace, items, mode, onClose }: { workspace: TWorkspace; items: TItem[]; mode: 'move' | 'copy'; onClose: () => void }) {
  useReturnFocus();
  const [folderId, setFolderId] = useState(items[0]?.parentId ?? workspace.homeId);
  const folder = useItem(folderId);
  const ancestors = useAncestors(folderId);
  const children = useChildren(workspace.id, folderId);
  const m = useItemMutations(workspace.id);
  const [busy, setBusy] = useState(false);
  const movingIds = new Set(items.map((i) => i.id));
  const folders = (children.items ?? []).filter((i) => i.kind === 'folder' && !movingIds.has(i.id));
  const title = folder.data ? folderTitle(folder.data, workspace) : '…';
  const label = items.length === 1 ? `“${items[0]!.name}”` : `${items.length} items`;
  const verb = mode === 'move' ? 'Move' : 'Copy';

  const submit = async () => {
    setBusy(true);
    try {
      for (const item of items) {
        if (mode === 'move') await m.move.mutateAsync({ id: item.id, parentId: folderId });
        else await m.copy.mutateAsync({ id: item.id, parentId: folderId });
      }
      notifications.show({ message: `${mode === 'move' ? 'Moved' : 'Copied'} ${label} to “${title}”` });
      onClose();
    } catch (error) {
      notifications.show({ color: 'red', message: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`${verb} ${label}`} size="lg">
      <Stack gap="sm">
        {workspace.abilities.createInRoots && (
          <Group gap="xs">
            <Button size="compact-sm" variant={folderId === workspace.homeId ? 'light' : 'subtle'} onClick={() => setFolderId(workspace.homeId)}>
              My files
            </Button>
            <Button size="compact-sm" variant={folderId === workspace.rootId ? 'light' : 'subtle'} onClick={() => setFolderId(workspace.rootId)}>
              Workspace
            </Button>
          </Group>
        )}
        <nav aria-label="Folder to choose">
          <Breadcrumbs separatorMargin={4}>
            {(ancestors.data ?? []).map((a) => (
              <Anchor key={a.id} component="button" type="button" size="sm" onClick={() => setFolderId(a.id)}>
                {folderTitle(a, workspace)}
              </Anchor>
            ))}
            <Text size="sm" fw={600} aria-current="location">
              {title}
            </Text>
          </Breadcrumbs>
        </nav>
        <ScrollArea.Autosize mah={320} type="auto">
          {children.isPending ? (
            <Skeleton h={80} />
          ) : children.error ? (
            <Text size="sm" c="red" py="sm" role="alert">
              This folder cannot be shown: {children.error.message}
            </Text>
          ) : folders.length === 0 ? (
            <Text size="sm" c="dimmed" py="sm">
              No folders in here.
            </Text>
          ) : (
            <Stack gap={0} role="list" aria-label={`Folders in ${title}`}>
              {folders.map((f) => (
                <NavLink
                  key={f.id}
                  role="listitem"
                  component="button"
                  label={f.name}
                  leftSection={<IconFolder aria-hidden size={18} />}
                  onClick={() => setFolderId(f.id)}
                />
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        {folder.data && !folder.data.abilities.createInside && (
          <Text size="sm" c="dimmed">
            You cannot add to “{title}”: choose a folder you may edit.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => void submit()}
            loading={busy}
            disabled={!folder.data?.abilities.createInside || (mode === 'move' && items.every((i) => i.parentId === folderId))}
          >
            {verb} here
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
