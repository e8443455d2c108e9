import { Button, Group, Loader, ScrollArea, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBell, IconChecks, IconFileText, IconFile, IconFolder, IconMessageCircle, IconUpload, IconUserPlus } from '@tabler/icons-react';
import { describeNotification, type TNotification, type TWorkspace } from '@cabinet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { formatRelative } from '../../../lib/format.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useMarkRead, useNotifications } from '../api/use-notifications.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';

function KindIcon({ n }: { n: TNotification }) {
  const Icon =
    n.kind === 'invited'
      ? IconUserPlus
      : n.kind === 'uploaded'
        ? IconUpload
        : n.commentId
          ? IconMessageCircle
          : n.item?.kind === 'folder'
            ? IconFolder
            : n.item?.kind === 'file'
              ? IconFile
              : IconFileText;
  return <Icon aria-hidden size={18} style={{ flexShrink: 0, marginTop: 2 }} />;
}

/**
 * The list under the bell (loaded when first opened), newest first, where each entry opens its
 * item at the place — a document at its comment thread, a folder, a file, an invitation — and
 * counts as read.
 */
export default function NotificationList({ onClose }: { onClose: () => void }) {
  const list = useNotifications();
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const client = useQueryClient();
  const unread = list.unreadCount;
  const items = list.items ?? [];

  const open = async (n: TNotification) => {
    if (!n.readAt) markRead.mutate({ ids: [n.id] });
    onClose();
    // An invitation names no item: its page says what it is to, and joins.
    if (n.kind === 'invited' && n.invitationId) return void navigate(pageRoutes.invitation(n.invitationId));
    if (!n.item) return;
    // Something shared from a workspace the person was not in made them a guest there: the list of workspaces learns of it first.
    const known = client.getQueryData<TWorkspace[]>(queryKeys.workspaces);
    if (!known?.some((w) => w.id === n.workspace.id)) await client.refetchQueries({ queryKey: queryKeys.workspaces });
    void navigate(
      n.item.kind === 'document' ? pageRoutes.document(n.workspace.slug, n.item.id, { thread: n.threadId }) : pageRoutes.item(n.workspace.slug, n.item),
    );
  };

  return (
    <>
      <Group justify="space-between" px="sm" py="xs" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Text id="notifications-title" fw={600}>
          Notifications
        </Text>
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconChecks aria-hidden size={16} />}
          disabled={unread === 0}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all as read
        </Button>
      </Group>
      <ScrollArea.Autosize mah="min(480px, 70dvh)" type="auto">
        {list.isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" aria-label="Loading notifications" />
          </Group>
        ) : list.isError ? (
          <Text size="sm" c="dimmed" p="md" ta="center">
            Notifications could not be loaded. Try again later.
          </Text>
        ) : items.length === 0 ? (
          <Stack align="center" gap={4} p="lg" c="dimmed">
            <IconBell aria-hidden size={28} />
            <Text size="sm" ta="center">
              No notifications yet. You will be told here when something is shared with you, when someone mentions you, replies in your comment threads or
              comments on what you own, when files arrive through your file requests, and when you are invited to a workspace.
            </Text>
          </Stack>
        ) : (
          <Stack component="ul" gap={0} m={0} p={0} aria-label="Notifications, newest first" style={{ listStyle: 'none' }}>
            {items.map((n) => (
              <li key={n.id}>
                <UnstyledButton
                  onClick={() => void open(n)}
                  w="100%"
                  px="sm"
                  py="xs"
                  className="notification-entry"
                  style={{ display: 'flex', gap: 10, alignItems: 'flex-start', background: n.readAt ? undefined : 'var(--mantine-primary-color-light)' }}
                >
                  <KindIcon n={n} />
                  <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" fw={n.readAt ? 400 : 600} style={{ overflowWrap: 'anywhere' }}>
                      {!n.readAt && <VisuallyHidden>Unread: </VisuallyHidden>}
                      {describeNotification(n)}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {n.workspace.name} · {formatRelative(n.createdAt)}
                    </Text>
                  </Stack>
                  {!n.readAt && (
                    <span
                      aria-hidden
                      style={{ width: 8, height: 8, borderRadius: 4, background: 'var(--mantine-primary-color-filled)', marginTop: 6, flexShrink: 0 }}
                    />
                  )}
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        )}
        {list.hasNextPage && (
          <Group justify="center" p="xs">
            <Button size="compact-sm" variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              Show more
            </Button>
          </Group>
        )}
      </ScrollArea.Autosize>
    </>
  );
}
