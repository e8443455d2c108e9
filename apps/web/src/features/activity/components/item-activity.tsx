import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMe } from '../../auth/api/use-me.ts';
import { formatDateTime, formatRelative } from '../../../lib/format.ts';
import { useItemActivity } from '../api/use-activity.ts';
import { actorName, describeShown, foldSaves } from './describe.ts';

/** An item's history in its details drawer: "Ada renamed it from X · 2 hours ago", newest first. */
export function ItemActivity({ itemId }: { itemId: string }) {
  const me = useMe();
  const activity = useItemActivity(itemId);
  const items = foldSaves(activity.items ?? []);
  return (
    <section aria-labelledby="item-activity-heading">
      <Title order={3} fz="h5" id="item-activity-heading" mb="xs">
        Activity
      </Title>
      {activity.isPending ? (
        // A status, so that its name is one a screen reader may read (a bare element may not carry a label).
        <Loader size="sm" role="status" aria-label="Loading activity" />
      ) : activity.isError ? (
        <Text size="sm" c="red" role="alert">
          {activity.error.message}
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing recorded yet: changes, comments and shares will be listed here.
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Activity">
          {items.map((e) => (
            <li key={e.id}>
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                <Text span fw={600}>
                  {actorName(e, me.data?.user.id)}
                </Text>{' '}
                {describeShown(e, { onItem: true })}
                <Text span c="dimmed">
                  {' · '}
                  <time dateTime={e.at} title={formatDateTime(e.at)}>
                    {formatRelative(e.at)}
                  </time>
                </Text>
              </Text>
            </li>
          ))}
        </Stack>
      )}
      {activity.hasNextPage && (
        <Group mt="xs">
          <Button variant="subtle" size="xs" loading={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
            Show earlier activity
          </Button>
        </Group>
      )}
    </section>
  );
}
