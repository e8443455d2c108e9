import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCopy,
  IconDots,
  IconDownload,
  IconExternalLink,
  IconFileZip,
  IconFolderShare,
  IconHistory,
  IconInfoCircle,
  IconLockOpen,
  IconPencil,
  IconStar,
  IconStarOff,
  IconTrash,
  IconUserShare,
} from '@tabler/icons-react';
import { filesApi, urlOf, type TItem, type TWorkspace } from '@cabinet/contracts';
import { showUndo } from '../../../components/ui/undo-toast.tsx';
import { useItemMutations } from '../api/use-item-mutations.ts';

/** The address of an item's bytes: a file's (shown when safe, else downloaded), a folder's as a zip. */
export const contentUrl = (item: TItem, download = false) => urlOf(filesApi.content, { id: item.id }, { download: download ? '1' : undefined });

/** Moves items to the trash and offers, in one notification, to undo it. */
export function useTrashWithUndo(ws: string) {
  const m = useItemMutations(ws);
  // mutateAsync, not mutate's callbacks: the rows that asked are gone from the list by the time it succeeds.
  return async (items: TItem[]): Promise<TItem[]> => {
    const results = await Promise.allSettled(items.map((item) => m.trash.mutateAsync(item.id)));
    const trashed = items.filter((_, i) => results[i]!.status === 'fulfilled');
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) notifications.show({ color: 'red', message: (failed.reason as Error).message });
    if (trashed.length) {
      showUndo(trashed.length === 1 ? `“${trashed[0]!.name}” moved to the trash` : `${trashed.length} items moved to the trash`, () => {
        for (const item of trashed) m.restore.mutate(item.id);
      });
    }
    return trashed;
  };
}

export type ItemDialog = 'rename' | 'details' | 'move' | 'copy' | 'versions' | 'share' | 'breakLock';

/**
 * The menu of one item: open, download, details, versions, share, star, rename, move, copy, break its lock, trash — each
 * offered only when the item's abilities (and its lock) allow it.
 */
export function ItemActions(props: {
  item: TItem;
  workspace: TWorkspace;
  starred: boolean;
  onOpen: (item: TItem) => void;
  onDialog: (dialog: ItemDialog, item: TItem) => void;
  /** Controlled from outside when the menu opens on a right click. */
  opened?: boolean;
  onChange?: (opened: boolean) => void;
  onTrash: (item: TItem) => void;
}) {
  const { item, workspace, starred, onDialog } = props;
  const m = useItemMutations(workspace.id);
  return (
    <Menu position="bottom-end" withinPortal {...(props.opened !== undefined ? { opened: props.opened, onChange: props.onChange } : {})}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${item.name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconExternalLink aria-hidden size={16} />} onClick={() => props.onOpen(item)}>
          Open
        </Menu.Item>
        {item.abilities.download && (
          <Menu.Item
            component="a"
            href={contentUrl(item, true)}
            leftSection={item.kind === 'folder' ? <IconFileZip aria-hidden size={16} /> : <IconDownload aria-hidden size={16} />}
          >
            {item.kind === 'folder' ? 'Download as zip' : 'Download'}
          </Menu.Item>
        )}
        <Menu.Item leftSection={<IconInfoCircle aria-hidden size={16} />} onClick={() => onDialog('details', item)}>
          Details
        </Menu.Item>
        {item.kind === 'file' && (
          <Menu.Item leftSection={<IconHistory aria-hidden size={16} />} onClick={() => onDialog('versions', item)}>
            Versions
          </Menu.Item>
        )}
        {item.abilities.share && (
          <Menu.Item leftSection={<IconUserShare aria-hidden size={16} />} onClick={() => onDialog('share', item)}>
            Share…
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={starred ? <IconStarOff aria-hidden size={16} /> : <IconStar aria-hidden size={16} />}
          onClick={() => m.star.mutate({ id: item.id, starred: !starred })}
        >
          {starred ? 'Remove star' : 'Add star'}
        </Menu.Item>
        {workspace.abilities.createInRoots && (
          // A guest has no folder of their own to copy into.
          <Menu.Item leftSection={<IconCopy aria-hidden size={16} />} onClick={() => onDialog('copy', item)}>
            Copy to…
          </Menu.Item>
        )}
        {item.abilities.edit && (
          <>
            <Menu.Item leftSection={<IconPencil aria-hidden size={16} />} onClick={() => onDialog('rename', item)}>
              Rename
            </Menu.Item>
            <Menu.Item leftSection={<IconFolderShare aria-hidden size={16} />} onClick={() => onDialog('move', item)}>
              Move to…
            </Menu.Item>
          </>
        )}
        {item.lock?.breakable && (
          <Menu.Item leftSection={<IconLockOpen aria-hidden size={16} />} onClick={() => onDialog('breakLock', item)}>
            Break lock
          </Menu.Item>
        )}
        {item.abilities.trash && (
          <>
            <Menu.Divider />
            <Menu.Item leftSection={<IconTrash aria-hidden size={16} />} color="danger" onClick={() => props.onTrash(item)}>
              Move to trash
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
