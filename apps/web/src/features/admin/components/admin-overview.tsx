import { Group, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { TAdminBackup, TAdminCheck, TAdminOverview } from '@cabinet/contracts';
import { Section } from '../../../components/ui/section.tsx';
import { formatBytes, formatDateTime, formatRelative } from '../../../lib/format.ts';
import { useAdminOverview } from '../api/use-admin.ts';
import { AdminFailure } from './admin-failure.tsx';
import { StateBadge } from '../../../components/ui/state-badge.tsx';

const STATE = {
  ok: { label: 'Working', tone: 'good' },
  unavailable: { label: 'Not answering', tone: 'bad' },
  not_configured: { label: 'Not used', tone: 'none' },
} as const satisfies Record<TAdminCheck['state'], { label: string; tone: string }>;

const SERVICES: { key: keyof TAdminOverview['health']; label: string }[] = [
  { key: 'database', label: 'Database' },
  { key: 'storage', label: 'Storage' },
  { key: 'redis', label: 'Redis' },
  { key: 'mail', label: 'Mail' },
];

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

const BACKUP_STATE = {
  running: { label: 'Running', tone: 'busy' },
  done: { label: 'Done', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
} as const satisfies Record<TAdminBackup['state'], { label: string; tone: string }>;

function Backups({ backups }: { backups: TAdminOverview['backups'] }) {
  const last = backups.recent.find((b) => b.state !== 'running');
  return (
    <Stack gap="sm">
      <Group gap="xl" wrap="wrap">
        <Figure label="Last backup" value={last ? `${BACKUP_STATE[last.state].label}, ${formatRelative(last.finishedAt ?? last.startedAt)}` : 'None yet'} />
        <Figure label="Next scheduled backup" value={backups.next ? formatDateTime(backups.next) : 'Not scheduled'} />
        {backups.schedule && <Figure label="Schedule (UTC)" value={backups.schedule} />}
      </Group>
      {!backups.schedule && (
        <Text size="sm" c="dimmed">
          Set BACKUP_DIR to back up on a schedule (BACKUP_SCHEDULE, BACKUP_KEEP), or run <code>cabinet backup --out DIR</code>.
        </Text>
      )}
      {backups.recent.length > 0 && (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label="Recent backups" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Started</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Started by</Table.Th>
                <Table.Th>Files</Table.Th>
                <Table.Th>Copied</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {backups.recent.map((b) => (
                <Table.Tr key={b.id}>
                  <Table.Td>{formatDateTime(b.startedAt)}</Table.Td>
                  <Table.Td>
                    <StateBadge tone={BACKUP_STATE[b.state].tone}>{BACKUP_STATE[b.state].label}</StateBadge>
                    {b.error && (
                      <Text size="xs" c="danger.6" style={{ overflowWrap: 'anywhere' }}>
                        {b.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{b.trigger === 'schedule' ? 'Schedule' : 'Command'}</Table.Td>
                  <Table.Td>{b.blobCount === null ? '—' : `${b.blobCount.toLocaleString()} (${formatBytes(b.blobBytes ?? 0)})`}</Table.Td>
                  <Table.Td>{b.copiedBytes === null ? '—' : formatBytes(b.copiedBytes)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** The instance at a glance: whether what it depends on answers, what it holds, its backups. */
export function AdminOverview() {
  const overview = useAdminOverview();
  if (overview.isPending) return <Loader aria-label="Loading the overview" />;
  if (!overview.data) return <AdminFailure error={overview.error} what="The overview" />;
  const o = overview.data;
  return (
    <Stack gap="lg">
      <Section id="health" title="Health">
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Services">
          {SERVICES.map(({ key, label }) => {
            const check = o.health[key];
            return (
              <li key={key} aria-label={label}>
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  {/* Mail not set up is a warning: nobody receives invitations or confirmations. */}
                  <StateBadge tone={key === 'mail' && check.state === 'not_configured' ? 'bad' : STATE[check.state].tone} w={130}>
                    {key === 'mail' && check.state === 'not_configured' ? 'Not set up' : STATE[check.state].label}
                  </StateBadge>
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} size="sm">
                      {label}
                    </Text>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {check.detail}
                    </Text>
                  </div>
                </Group>
              </li>
            );
          })}
        </Stack>
      </Section>
      <Section id="instance" title="Instance">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
          <Figure label="Version" value={o.version} />
          <Figure label="Running since" value={formatDateTime(o.startedAt)} />
          <Figure label="Database" value={o.database === 'embedded' ? 'Embedded (PGlite)' : 'PostgreSQL'} />
          <Figure label="File storage" value={o.storage === 's3' ? 'S3' : 'Local disk'} />
          <Figure label="Storage used" value={formatBytes(o.usage.usedBytes)} />
          <Figure label="Workspaces" value={o.usage.workspaces.toLocaleString()} />
          <Figure label="People" value={`${o.usage.people.toLocaleString()}${o.usage.deactivatedPeople ? ` (${o.usage.deactivatedPeople} disabled)` : ''}`} />
        </SimpleGrid>
      </Section>
      <Section id="backups" title="Backups">
        <Backups backups={o.backups} />
      </Section>
    </Stack>
  );
}
