import { ActionIcon, Button, Group, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconUsers, IconUserShare } from '@tabler/icons-react';
import type { TItem, TItemRole, TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatDateTime, formatRelative } from '../../../lib/format.ts';
import { useSharedWithMe } from '../../sharing/api/use-shared-with-me.ts';
import { ShareDialog } from '../../sharing/components/share-dialog.tsx';
import { useItemLinks } from '../hooks/use-item-links.ts';
import { ItemName } from './item-name.tsx';

const ROLE_LABEL: Record<TItemRole, string> = { viewer: 'Can view', commenter: 'Can comment', editor: 'Can edit', manager: 'Can manage' };

/** `/w/:ws/shared`: what others shared with the person themself, newest share first, with who shared it and when. */
export function SharedView({ workspace }: { workspace: TWorkspace }) {
  const shared = useSharedWithMe(workspace.id);
  const linkTo = useItemLinks(workspace);
  const [sharing, setSharing] = useState<TItem>();
  const items = shared.items ?? [];
  return (
    <Stack gap="md">
      <Title order={1} fz="h2" tabIndex={-1}>
        Shared with me
      </Title>
      <Text size="sm" c="dimmed">
        {workspace.abilities.createInRoots
          ? 'Folders, documents and files that others shared with you yourself or with a group you are in, newest first. ' +
            'What is shared with the whole workspace is in Workspace.'
          : 'Folders, documents and files that others shared with you, newest first.'}
      </Text>
      {shared.isPending || shared.searching ? (
        <Skeleton h={120} />
      ) : shared.error ? (
        <Text c="red">{shared.error.message}</Text>
      ) : items.length === 0 ? (
        <EmptyState icon={<IconUsers size={32} />} title="Nothing shared with you yet">
          When someone shares a folder, document or file with you, it appears here with who shared it and when. Opening it takes you straight there.
        </EmptyState>
      ) : (
        <>
          <Table verticalSpacing="xs" aria-label="Shared with me" layout="fixed" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th visibleFrom="sm" w={200}>
                  Shared by
                </Table.Th>
                <Table.Th visibleFrom="sm" w={140}>
                  Shared
                </Table.Th>
                <Table.Th visibleFrom="sm" w={120}>
                  Your access
                </Table.Th>
                <Table.Th w={52}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((s) => {
                const by = s.sharedBy?.name ?? 'Someone no longer here';
                return (
                  <Table.Tr key={s.grantId}>
                    <Table.Td style={{ overflow: 'hidden' }}>
                      <ItemName item={s.item} to={linkTo(s.item)} />
                      {/* On a phone the other columns are hidden: the same facts under the name. */}
                      <Text size="xs" c="dimmed" hiddenFrom="sm" truncate="end">
                        {by}
                        {s.group ? ` with ${s.group.name}` : ''} · {formatRelative(s.sharedAt)} · {ROLE_LABEL[s.role]}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm" truncate="end">
                        {by}
                      </Text>
                      {s.group && (
                        <Text size="xs" c="dimmed" truncate="end">
                          with group {s.group.name}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm" c="dimmed" title={formatDateTime(s.sharedAt)}>
                        {formatRelative(s.sharedAt)}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">
                      <Text size="sm" c="dimmed">
                        {ROLE_LABEL[s.role]}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {s.item.abilities.share && (
                        <ActionIcon variant="subtle" color="gray" aria-label={`Share ${s.item.name}`} onClick={() => setSharing(s.item)}>
                          <IconUserShare aria-hidden size={18} />
                        </ActionIcon>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          {shared.hasNextPage && (
            <Group justify="center">
              <Button variant="default" loading={shared.isFetchingNextPage} onClick={() => void shared.fetchNextPage()}>
                Show more
              </Button>
            </Group>
          )}
        </>
      )}
      {sharing && <ShareDialog item={sharing} workspace={workspace} onClose={() => setSharing(undefined)} />}
    </Stack>
  );
}
