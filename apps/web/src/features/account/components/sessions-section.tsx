import { Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { describeUserAgent, formatRelative } from '../../../lib/format.ts';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/use-sessions.ts';

export function SessionsSection() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <Stack>
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          Browsers where you are signed in.
        </Text>
        <Button
          variant="light"
          color="red"
          disabled={others === 0}
          loading={revokeOthers.isPending}
          onClick={() =>
            revokeOthers.mutate(undefined, {
              onSuccess: ({ revoked }) => notifications.show({ message: `Signed out ${revoked} other session${revoked === 1 ? '' : 's'}`, color: 'green' }),
            })
          }
        >
          Sign out other sessions
        </Button>
      </Group>
      {sessions.isPending && <Skeleton h={64} />}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Active sessions">
        {sessions.data?.map((s) => (
          <Paper component="li" key={s.id} withBorder p="sm" radius="md">
            <Group justify="space-between" wrap="nowrap">
              <Group wrap="nowrap" gap="sm" miw={0}>
                <IconDeviceDesktop aria-hidden size={24} />
                <div style={{ minWidth: 0 }}>
                  <Group gap={6}>
                    <Text fw={600} size="sm" truncate>
                      {describeUserAgent(s.userAgent)}
                    </Text>
                    {s.current && (
                      <Badge size="sm" variant="default">
                        This browser
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {s.ip ?? 'unknown address'} · active {formatRelative(s.lastUsedAt)}
                  </Text>
                </div>
              </Group>
              {!s.current && (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => revoke.mutate(s.id)}
                  aria-label={`Sign out ${describeUserAgent(s.userAgent)} session`}
                >
                  Sign out
                </Button>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
