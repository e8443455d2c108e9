import { Button, Center, Drawer, Group, Stack, Table, Text } from '@mantine/core';
import { IconLockOpen, IconUserShare } from '@tabler/icons-react';
import { useState } from 'react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useMe } from '../../auth/api/use-me.ts';
import { formatDate } from '../../../lib/format.ts';
import { lockLabel } from '../../../lib/locks.ts';
import { useAncestors, useCurrentItem } from '../api/use-items.ts';
import { describeSearchText, useSearchText } from '../api/use-search-text.ts';
import { useVersions } from '../api/use-versions.ts';
import { folderTitle } from '../hooks/use-item-links.ts';
import { itemSize } from './item-name.tsx';
import { ItemIcon } from './item-icon.tsx';
import { ItemThumbnail } from './item-thumbnail.tsx';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';
import { ShareDialog } from '../../sharing/components/share-dialog.tsx';
import { ItemActivity } from '../../activity/components/item-activity.tsx';
import { BreakLockDialog } from './lock-dialogs.tsx';

/**
 * What the details panel shows of a file without a picture: why, when making it failed or is under
 * way; else its kind's icon (the viewer may still show the file: a text file has no picture, not no preview).
 */
function PreviewNote({ item }: { item: TItem }) {
  const p = item.preview;
  if (p?.state === 'failed' || p?.state === 'pending') {
    return (
      <Text size="sm" c="dimmed" role={p.state === 'failed' ? 'status' : undefined}>
        {p.state === 'failed' ? `No preview: ${p.reason ?? 'it could not be made'}.` : 'The preview is being made…'}
      </Text>
    );
  }
  return <ItemIcon item={item} size={64} />;
}

/**
 * An item's facts: type, size, owner, modified, where it is, who holds a lock on it; and, for whoever may share it or
 * break its lock, a way to.
 */
export function DetailsDrawer({ item: given, workspace, onClose }: { item: TItem; workspace: TWorkspace; onClose: () => void }) {
  useReturnFocus();
  const item = useCurrentItem(given);
  const me = useMe();
  const [sharing, setSharing] = useState(false);
  const [breaking, setBreaking] = useState(false);
  const ancestors = useAncestors(item.id);
  const location = (ancestors.data ?? []).map((a) => folderTitle(a, workspace)).join(' / ');
  // Whether the words inside a file can be found yet (a document's are, a moment after it is saved).
  const text = useSearchText(item.id, item.kind === 'file');
  const versions = useVersions(item);
  const rows: [string, string][] = [
    ['Type', item.kind === 'folder' ? 'Folder' : item.kind === 'document' ? 'Document' : (item.mimeType ?? 'File')],
    ['Size', item.kind === 'file' ? `${itemSize(item)} (${item.size.toLocaleString()} bytes)` : '—'],
    ['Owner', item.ownerId === me.data?.user.id ? 'You' : 'Another member'],
    ['Modified', `${formatDate(item.updatedAt)}${item.updatedBy === me.data?.user.id ? ' by you' : ''}`],
    ['Location', location || '—'],
    ['Your access', item.role[0]!.toUpperCase() + item.role.slice(1)],
    ...(item.lock ? [['Lock', lockLabel(item.lock, me.data?.user.id)] as [string, string]] : []),
    ...(item.kind === 'file'
      ? [['Versions', versions.data ? String(versions.data.length) : versions.isError ? 'Not known right now' : 'Counting…'] as [string, string]]
      : []),
    ...(item.kind === 'file'
      ? [['Search', text.data ? describeSearchText(text.data) : text.isError ? 'Not known right now' : 'Checking…'] as [string, string]]
      : []),
  ];
  return (
    <Drawer
      opened
      onClose={onClose}
      // Escape in a dialog opened from the panel closes that dialog alone.
      closeOnEscape={!breaking}
      position="right"
      title={
        <Text fw={600} truncate="end">
          {item.name}
        </Text>
      }
      aria-label={`Details of ${item.name}`}
    >
      <Stack>
        {item.kind === 'file' && (
          <Center>
            <ItemThumbnail item={item} size="1024" width={320} height={260} fallback={<PreviewNote item={item} />} />
          </Center>
        )}
        <Table variant="vertical" aria-label="Details">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={120}>{label}</Table.Th>
                <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {(item.abilities.share || item.lock?.breakable) && (
          <Group gap="xs" grow>
            {item.abilities.share && (
              <Button variant="light" leftSection={<IconUserShare aria-hidden size={18} />} onClick={() => setSharing(true)}>
                Share…
              </Button>
            )}
            {item.lock?.breakable && (
              <Button variant="default" leftSection={<IconLockOpen aria-hidden size={18} />} onClick={() => setBreaking(true)}>
                Break lock
              </Button>
            )}
          </Group>
        )}
        <ItemActivity itemId={item.id} />
      </Stack>
      {sharing && <ShareDialog item={item} workspace={workspace} onClose={() => setSharing(false)} />}
      {breaking && <BreakLockDialog item={item} workspaceId={workspace.id} onClose={() => setBreaking(false)} />}
    </Drawer>
  );
}
