import { ActionIcon, Button, Group, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconDots, IconDownload, IconFileZip, IconInfoCircle, IconPencil, IconStar, IconStarOff, IconTrash } from '@tabler/icons-react';
import type { TItem } from '@cabinet/contracts';
import { useItemMutations } from '../api/use-items.ts';

export const canEdit = (item: TItem | undefined) => item?.role === 'editor' || item?.role === 'manager';

/** The address of an item's bytes: a file's (shown when safe, else downloaded), a folder's as a zip. */
export const contentUrl = (item: TItem, download = false) => `/api/v1/items/${item.id}/content${download ? '?download=1' : ''}`;

/** Moves an item to the trash and offers to undo it. */
export function useTrashWithUndo(ws: string) {
  const m = useItemMutations(ws);
  // mutateAsync, not mutate's callbacks: the row that asked is gone from the list by the time it succeeds.
  return (item: TItem) =>
    m.trash.mutateAsync(item.id).then(
      () => {
        const id = notifications.show({
          message: (
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">“{item.name}” moved to the trash</Text>
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => {
                  m.restore.mutate(item.id);
                  notifications.hide(id);
                }}
              >
                Undo
              </Button>
            </Group>
          ),
        });
      },
      (e: Error) => notifications.show({ color: 'red', message: e.message }),
    );
}

/** The menu of one item: download, details, star, rename, copy, trash — each offered only when the caller's role allows it. */
export function ItemActions(props: {
  item: TItem;
  ws: string;
  starred: boolean;
  onRename: (item: TItem) => void;
  onDetails: (item: TItem) => void;
  /** Controlled from outside when the menu opens on a right click. */
  opened?: boolean;
  onChange?: (opened: boolean) => void;
}) {
  const { item, ws, starred } = props;
  const m = useItemMutations(ws);
  const trash = useTrashWithUndo(ws);
  const editable = canEdit(item);
  const copy = () =>
    m.copy.mutate(
      { id: item.id, parentId: item.parentId! },
      { onSuccess: (c) => notifications.show({ message: `Copied as “${c.name}”` }), onError: (e) => notifications.show({ color: 'red', message: e.message }) },
    );
  return (
    <Menu position="bottom-end" withinPortal {...(props.opened !== undefined ? { opened: props.opened, onChange: props.onChange } : {})}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${item.name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={contentUrl(item, true)} leftSection={item.kind === 'folder' ? <IconFileZip aria-hidden size={16} /> : <IconDownload aria-hidden size={16} />}>
          {item.kind === 'folder' ? 'Download as zip' : 'Download'}
        </Menu.Item>
        <Menu.Item leftSection={<IconInfoCircle aria-hidden size={16} />} onClick={() => props.onDetails(item)}>
          Details
        </Menu.Item>
        <Menu.Item leftSection={starred ? <IconStarOff aria-hidden size={16} /> : <IconStar aria-hidden size={16} />} onClick={() => m.star.mutate({ id: item.id, starred: !starred })}>
          {starred ? 'Remove star' : 'Add star'}
        </Menu.Item>
        {editable && (
          <>
            <Menu.Item leftSection={<IconPencil aria-hidden size={16} />} onClick={() => props.onRename(item)}>
              Rename
            </Menu.Item>
            <Menu.Item leftSection={<IconCopy aria-hidden size={16} />} onClick={copy}>
              Make a copy
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item leftSection={<IconTrash aria-hidden size={16} />} color="red" onClick={() => void trash(item)}>
              Move to trash
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
