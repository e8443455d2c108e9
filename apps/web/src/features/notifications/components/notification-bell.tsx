import { ActionIcon, Group, Indicator, Loader, Popover } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useNotificationEvents, useNotifications } from '../api/use-notifications.ts';

// The list is loaded when the bell is first opened: the shell carries the count alone.
const NotificationList = lazy(() => import('./notification-list.tsx'));

/**
 * The bell in the header: how many notifications are unread, and the list under it. Escape
 * closes the list and gives the focus back to the bell. Its count is live on every page: told by
 * the workspace's stream where the page watches one (`watched`), by its own stream elsewhere.
 */
export function NotificationBell({ watched }: { watched: boolean }) {
  const [opened, setOpened] = useState(false);
  const unread = useNotifications().unreadCount;
  useNotificationEvents(!watched);

  return (
    // The badge sits outside the popover's target: the target gets the popover's ARIA attributes, which only the button may carry.
    <Indicator label={unread > 99 ? '99+' : unread} size={18} disabled={unread === 0} offset={4} color="red">
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        shadow="md"
        width="min(380px, calc(100vw - 16px))"
        trapFocus
        returnFocus
        closeOnEscape
        withinPortal
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell aria-hidden size={20} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} role="dialog" aria-labelledby="notifications-title">
          <Suspense
            fallback={
              <Group justify="center" p="md">
                <Loader size="sm" aria-label="Loading notifications" />
              </Group>
            }
          >
            <NotificationList onClose={() => setOpened(false)} />
          </Suspense>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
