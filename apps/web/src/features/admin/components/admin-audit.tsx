import { Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { TAdminAuditEntry } from '@cabinet/contracts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { IconHistory } from '@tabler/icons-react';
import { useAdminAudit } from '../api/use-admin.ts';
import { AdminFailure } from './admin-failure.tsx';

const quota = (v: unknown) => (typeof v === 'number' ? formatBytes(v) : 'none');
const passkeys = (n: unknown) => (typeof n === 'number' && n ? ` (and removed ${n} passkey${n === 1 ? '' : 's'})` : '');

/** One administrator's action in words. */
export function describeAction(e: TAdminAuditEntry): string {
  const d = e.data;
  switch (e.action) {
    case 'user.deactivated':
      return `disabled the account of ${e.targetLabel}`;
    case 'user.activated':
      return `enabled the account of ${e.targetLabel}`;
    case 'user.signed_out':
      return `signed ${e.targetLabel} out everywhere`;
    case 'user.two_step_reset':
      return `reset the two-step sign-in of ${e.targetLabel}${passkeys(d.passkeys)}`;
    case 'user.admin_granted':
      return `made ${e.targetLabel} an instance administrator`;
    case 'user.admin_revoked':
      return `removed ${e.targetLabel} as instance administrator`;
    case 'workspace.quota_changed':
      return `changed the quota of ${e.targetLabel} from ${quota(d.from)} to ${quota(d.to)}`;
    case 'job.retried':
      return `retried a failed ${e.targetLabel} job`;
    case 'job.discarded':
      return `discarded a failed ${e.targetLabel} job`;
  }
}

/** What the instance's administrators did, newest first. */
export function AdminAudit() {
  const audit = useAdminAudit();
  if (audit.isPending) return <Loader aria-label="Loading the audit log" />;
  if (!audit.items) return <AdminFailure error={audit.error} what="The audit log" />;
  if (!audit.items.length) {
    return (
      <EmptyState icon={<IconHistory size={32} />} title="Nothing done yet">
        Each change made here (a quota, an account, a job) is listed with who made it and when.
      </EmptyState>
    );
  }
  return (
    <Stack gap="xs">
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Administrators’ actions">
        {audit.items.map((e) => (
          <Paper component="li" key={e.id} withBorder p="sm" radius="md">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={600}>
                {e.actor?.name ?? 'A removed account'}
              </Text>{' '}
              {describeAction(e)}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(e.createdAt)}
              {e.ip ? ` · ${e.ip}` : ''}
            </Text>
          </Paper>
        ))}
      </Stack>
      {audit.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
            Show more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
