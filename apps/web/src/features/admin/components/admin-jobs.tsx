import { Button, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChecks } from '@tabler/icons-react';
import type { TAdminJobs } from '@cabinet/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Section } from '../../../components/ui/section.tsx';
import { formatRelative } from '../../../lib/format.ts';
import { useAdminJobs, useDiscardJob, useRetryJob } from '../api/use-admin.ts';
import { AdminFailure } from './admin-failure.tsx';
import { StateBadge } from '../../../components/ui/state-badge.tsx';

type Failed = TAdminJobs['failed'][number];
// What needs a look first, so it is on screen on a phone too.
const STATES = ['failed', 'running', 'due', 'scheduled'] as const;
const STATE_LABELS = { due: 'Due now', scheduled: 'Scheduled', running: 'Running', failed: 'Failed' } as const;

/** The queue by kind, one row a kind and a column a state. */
function Queue({ counts }: { counts: TAdminJobs['counts'] }) {
  const kinds = [...new Set(counts.map((c) => c.kind))].sort();
  const count = (kind: string, state: string) => counts.find((c) => c.kind === kind && c.state === state)?.count ?? 0;
  if (!kinds.length) return <Text size="sm">The queue is empty.</Text>;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table aria-label="Jobs by kind" verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Kind</Table.Th>
            {STATES.map((s) => (
              <Table.Th key={s} ta="right">
                {STATE_LABELS[s]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {kinds.map((kind) => (
            <Table.Tr key={kind}>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {kind}
                </Text>
              </Table.Td>
              {STATES.map((s) => (
                <Table.Td key={s} ta="right" c={s === 'failed' && count(kind, s) > 0 ? 'danger.6' : undefined}>
                  {count(kind, s)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Background work: the queue, and the jobs that ran out of attempts with their error, to retry or discard. */
export function AdminJobs() {
  const jobs = useAdminJobs();
  const retry = useRetryJob();
  const discard = useDiscardJob();
  const [discarding, setDiscarding] = useState<Failed | null>(null);
  if (jobs.isPending) return <Loader aria-label="Loading jobs" />;
  if (!jobs.data) return <AdminFailure error={jobs.error} what="The jobs" />;
  const failed = jobs.data.failed;
  return (
    <Stack gap="lg">
      <Section id="failed-jobs" title="Failed jobs">
        {!failed.length ? (
          <EmptyState icon={<IconChecks size={32} />} title="No failed jobs">
            A job that fails is tried again, waiting longer each time; one that runs out of tries is listed here with its error.
          </EmptyState>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Failed jobs">
            {failed.map((j) => (
              <Paper component="li" key={j.id} withBorder p="sm" radius="md" aria-label={j.kind}>
                <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
                  <div style={{ minWidth: 0, flex: '1 1 240px' }}>
                    <Group gap={6}>
                      <Text fw={600} size="sm" ff="monospace">
                        {j.kind}
                      </Text>
                      <StateBadge tone="bad">Failed</StateBadge>
                    </Group>
                    <Text size="sm" c="danger.6" style={{ overflowWrap: 'anywhere' }}>
                      {j.lastError ?? 'No error was recorded.'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {j.attempts} {j.attempts === 1 ? 'try' : 'tries'}, the last {formatRelative(j.failedAt)}
                    </Text>
                  </div>
                  <Group gap="xs">
                    <Button
                      size="xs"
                      variant="light"
                      loading={retry.isPending && retry.variables === j.id}
                      onClick={() =>
                        retry.mutate(j.id, {
                          onSuccess: () => notifications.show({ color: 'green', message: `The ${j.kind} job runs again now` }),
                          onError: (error) => notifications.show({ color: 'red', title: 'Not retried', message: error.message }),
                        })
                      }
                      aria-label={`Retry the ${j.kind} job`}
                    >
                      Retry
                    </Button>
                    <Button size="xs" variant="subtle" color="danger" onClick={() => setDiscarding(j)} aria-label={`Discard the ${j.kind} job`}>
                      Discard
                    </Button>
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </Section>
      <Section id="queue" title="Queue">
        <Queue counts={jobs.data.counts} />
      </Section>
      {discarding && (
        <ConfirmDialog
          title={`Discard the ${discarding.kind} job?`}
          confirmLabel="Discard"
          pending={discard.isPending}
          onClose={() => setDiscarding(null)}
          onConfirm={() =>
            discard.mutate(discarding.id, {
              onSuccess: () => setDiscarding(null),
              onError: (error) => notifications.show({ color: 'red', title: 'Not discarded', message: error.message }),
            })
          }
        >
          <Text size="sm">It will not run again. What it was to do (for a {discarding.kind} job) stays undone.</Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
