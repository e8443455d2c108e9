import { Button, Checkbox, Group, Loader, Modal, NumberInput, Paper, Progress, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBuilding, IconSearch } from '@tabler/icons-react';
import type { TAdminWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';
import { formatBytes } from '../../../lib/format.ts';
import { useAdminWorkspaces, useSetQuota } from '../api/use-admin.ts';
import { AdminFailure } from './admin-failure.tsx';

const UNITS = { MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 } as const;
type Unit = keyof typeof UNITS;

/** A quota in the largest unit it is at least one of, to two decimals. */
function inUnits(bytes: number): { amount: number; unit: Unit } {
  const unit: Unit = bytes >= UNITS.TiB ? 'TiB' : bytes >= UNITS.GiB ? 'GiB' : 'MiB';
  return { amount: Math.round((bytes / UNITS[unit]) * 100) / 100, unit };
}

function QuotaDialog({ workspace, onClose }: { workspace: TAdminWorkspace; onClose: () => void }) {
  useReturnFocus();
  const set = useSetQuota();
  const initial = workspace.quotaBytes === null ? { amount: 10, unit: 'GiB' as Unit } : inUnits(workspace.quotaBytes);
  // Opened to set a quota: the size field ready, whether or not there is one now.
  const [unlimited, setUnlimited] = useState(false);
  const [amount, setAmount] = useState<number | string>(initial.amount);
  const [unit, setUnit] = useState<Unit>(initial.unit);
  // Left as shown, the quota stays exactly what it was (what is shown may be rounded).
  const unchanged = workspace.quotaBytes !== null && amount === initial.amount && unit === initial.unit;
  const bytes = unchanged ? workspace.quotaBytes! : typeof amount === 'number' ? Math.round(amount * UNITS[unit]) : NaN;
  const invalid = !unlimited && !(bytes >= 0);
  return (
    <Modal opened onClose={onClose} title={`Quota of ${workspace.name}`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (invalid || set.isPending) return;
          const quotaBytes = unlimited ? null : bytes;
          set.mutate(
            { id: workspace.id, quotaBytes },
            {
              onSuccess: () => {
                notifications.show({
                  color: 'green',
                  message: quotaBytes === null ? `${workspace.name} has no quota` : `${workspace.name} may use ${formatBytes(quotaBytes)}`,
                });
                onClose();
              },
              onError: (error) => notifications.show({ color: 'red', title: 'The quota was not changed', message: error.message }),
            },
          );
        }}
      >
        <Stack>
          <Text size="sm">
            It uses {formatBytes(workspace.usedBytes)} now, versions included,{' '}
            {workspace.quotaBytes === null ? 'with no quota' : `of ${formatBytes(workspace.quotaBytes)}`}. A quota below what it uses removes nothing; new files
            are refused until there is room.
          </Text>
          <Checkbox label="No quota" checked={unlimited} onChange={(e) => setUnlimited(e.currentTarget.checked)} data-autofocus={unlimited || undefined} />
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <NumberInput
              label="Quota"
              min={0}
              decimalScale={2}
              value={amount}
              onChange={setAmount}
              disabled={unlimited}
              error={invalid ? 'Enter a size' : undefined}
              style={{ flex: 1 }}
              data-autofocus={!unlimited || undefined}
            />
            <Select
              label="Unit"
              data={Object.keys(UNITS)}
              value={unit}
              onChange={(v) => v && setUnit(v as Unit)}
              allowDeselect={false}
              disabled={unlimited}
              w={96}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={set.isPending} disabled={invalid}>
              Save quota
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Every workspace, most storage first: who owns it, how many are in it, what it uses against its quota. */
export function AdminWorkspaces() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const workspaces = useAdminWorkspaces(q);
  const [editing, setEditing] = useState<TAdminWorkspace | null>(null);
  return (
    <Stack gap="sm">
      <TextInput
        label="Search workspaces"
        placeholder="Name or address"
        leftSection={<IconSearch aria-hidden size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      {workspaces.isPending ? (
        <Loader aria-label="Loading workspaces" />
      ) : !workspaces.items ? (
        <AdminFailure error={workspaces.error} what="The workspaces" />
      ) : !workspaces.items.length ? (
        <EmptyState icon={<IconBuilding size={32} />} title="No workspace found">
          {q ? `No workspace’s name or address contains “${q}”.` : 'Workspaces appear here as people make them.'}
        </EmptyState>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Workspaces">
          {workspaces.items.map((w) => (
            <Paper component="li" key={w.id} withBorder p="sm" radius="md" aria-label={w.name}>
              <Group justify="space-between" wrap="wrap" gap="sm">
                <div style={{ minWidth: 0, flex: '1 1 220px' }}>
                  <Text fw={600} size="sm" truncate>
                    {w.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    /{w.slug} · {w.owner ? `owned by ${w.owner.name} (${w.owner.email})` : 'no owner'} · {w.memberCount}{' '}
                    {w.memberCount === 1 ? 'person' : 'people'}
                  </Text>
                  <Text size="xs" mt={4}>
                    {formatBytes(w.usedBytes)} {w.quotaBytes === null ? 'used, no quota' : `of ${formatBytes(w.quotaBytes)}`}
                  </Text>
                  {w.quotaBytes !== null && (
                    <Progress
                      value={w.quotaBytes === 0 ? 100 : Math.min(100, (w.usedBytes / w.quotaBytes) * 100)}
                      color={w.usedBytes >= w.quotaBytes ? 'red' : 'blue'}
                      size="sm"
                      mt={4}
                      maw={320}
                      aria-label={`Storage of ${w.name}`}
                    />
                  )}
                </div>
                <Button variant="default" size="xs" onClick={() => setEditing(w)} aria-label={`Set quota of ${w.name}`}>
                  Set quota
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {workspaces.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={workspaces.isFetchingNextPage} onClick={() => void workspaces.fetchNextPage()}>
            Show more workspaces
          </Button>
        </Group>
      )}
      {editing && <QuotaDialog workspace={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
