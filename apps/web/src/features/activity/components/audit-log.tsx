import { Alert, Anchor, Button, Group, Loader, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconDownload, IconFilterOff, IconHistory } from '@tabler/icons-react';
import type { TActivityAction, TActivityEntry, TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { describeUserAgent, formatDateTime } from '../../../lib/format.ts';
import { PersonPicker, type PersonOption } from '../../team/components/person-picker.tsx';
import { activityCsvUrl, useWorkspaceActivity, type ActivityFilters } from '../api/use-activity.ts';
import { ACTION_LABELS, actorName, describeShown, foldSaves, type ShownEntry } from './describe.ts';

const ACTION_OPTIONS = (Object.keys(ACTION_LABELS) as TActivityAction[]).map((value) => ({ value, label: ACTION_LABELS[value] }));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** An item id, or the id in a link to the item pasted as it is; undefined when there is none. */
export function itemIdFrom(text: string): string | undefined {
  return UUID.exec(text.trim())?.[0]?.toLowerCase();
}

function Who({ e }: { e: TActivityEntry }) {
  return (
    <>
      <Text size="sm" fw={600}>
        {actorName(e)}
        {e.actor.kind === 'token' ? ' (API token)' : ''}
      </Text>
      {e.actor.email && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
          {e.actor.email}
        </Text>
      )}
    </>
  );
}

function Where({ e }: { e: TActivityEntry }) {
  if (!e.ip && !e.userAgent)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <>
      <Text size="sm">{e.ip ?? '—'}</Text>
      {e.userAgent && (
        <Text size="xs" c="dimmed" title={e.userAgent}>
          {describeUserAgent(e.userAgent)}
        </Text>
      )}
    </>
  );
}

const What = ({ e }: { e: ShownEntry }) => (
  <Text size="sm" style={{ wordBreak: 'break-word' }}>
    <Text span size="xs" c="dimmed" display="block">
      {ACTION_LABELS[e.action]}
    </Text>
    {describeShown(e, { onItem: false })}
  </Text>
);

/**
 * The workspace's audit log for its owner and admins: every recorded change, sign-in and token use,
 * filtered by person, action, item and dates, page by page, exportable as CSV. A table where there
 * is room, a card per entry on a phone.
 */
/** How Export CSV looks, whether it can be followed or not. */
const exportLook = { variant: 'filled', leftSection: <IconDownload aria-hidden size={16} /> } as const;

export function AuditLog({ workspace }: { workspace: TWorkspace }) {
  const wide = useMediaQuery('(min-width: 48em)', true);
  const [actor, setActor] = useState<PersonOption | null>(null);
  const actorId = actor?.value;
  const [action, setAction] = useState<TActivityAction | null>(null);
  const [itemText, setItemText] = useState('');
  const [after, setAfter] = useState('');
  const [before, setBefore] = useState('');
  const itemId = itemIdFrom(itemText);
  const itemInvalid = itemText.trim() !== '' && !itemId;
  const filters: ActivityFilters = {
    ...(actorId ? { actorId } : {}),
    ...(action ? { action } : {}),
    ...(itemId ? { itemId } : {}),
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
  };
  const datesInvalid = !!after && !!before && after > before;
  const log = useWorkspaceActivity(workspace.id, datesInvalid ? {} : filters);
  const filtered = Object.keys(filters).length > 0;
  const items = foldSaves(log.items ?? []);
  const clear = () => {
    setActor(null);
    setAction(null);
    setItemText('');
    setAfter('');
    setBefore('');
  };

  return (
    <Stack gap="md">
      <Paper component="form" role="search" aria-label="Filter the audit log" withBorder radius="md" p="sm" onSubmit={(e) => e.preventDefault()}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <PersonPicker ws={workspace.id} label="Person" placeholder="Anyone" clearable withDeactivated value={actor} onChange={setActor} />
          <Select
            label="Action"
            placeholder="Any action"
            clearable
            searchable
            data={ACTION_OPTIONS}
            value={action}
            onChange={(v) => setAction(v as TActivityAction | null)}
          />
          <TextInput
            label="Item"
            placeholder="Paste its link or id"
            value={itemText}
            onChange={(e) => setItemText(e.currentTarget.value)}
            error={itemInvalid ? 'This is not a link to an item nor an item id' : undefined}
          />
          <TextInput label="From" type="date" value={after} onChange={(e) => setAfter(e.currentTarget.value)} max={before || undefined} />
          <TextInput
            label="To"
            type="date"
            value={before}
            onChange={(e) => setBefore(e.currentTarget.value)}
            min={after || undefined}
            error={datesInvalid ? 'The end is before the start' : undefined}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="sm" gap="xs">
          <Button variant="subtle" leftSection={<IconFilterOff aria-hidden size={16} />} onClick={clear} disabled={!filtered && !itemText}>
            Clear filters
          </Button>
          {/* Filled, so it stands out (3:1) from the form in both themes: the pale "light" variant beside the
              disabled "Clear filters" read as disabled too. */}
          {/* A link while the filters make sense; a disabled button (no address to follow, by click or key) while they do not. */}
          {datesInvalid || itemInvalid ? (
            <Button {...exportLook} disabled>
              Export CSV
            </Button>
          ) : (
            <Button {...exportLook} component="a" href={activityCsvUrl(workspace.id, filters)} download>
              Export CSV
            </Button>
          )}
        </Group>
      </Paper>

      {log.isPending ? (
        <Loader aria-label="Loading the audit log" />
      ) : log.isError ? (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The audit log could not be shown">
          {log.error.message}
        </Alert>
      ) : items.length === 0 ? (
        filtered ? (
          <EmptyState icon={<IconFilterOff size={32} />} title="Nothing matches these filters">
            Try another person, action or dates.{' '}
            <Anchor component="button" type="button" onClick={clear}>
              Clear filters
            </Anchor>
          </EmptyState>
        ) : (
          <EmptyState icon={<IconHistory size={32} />} title="Nothing recorded yet">
            Sign-ins, changes to files and folders, shares and who joins will be listed here as they happen.
          </EmptyState>
        )
      ) : wide ? (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label="Audit log" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={170}>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th w={180}>From</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <Text size="sm">
                      <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Who e={e} />
                  </Table.Td>
                  <Table.Td>
                    <What e={e} />
                  </Table.Td>
                  <Table.Td>
                    <Where e={e} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Audit log">
          {items.map((e) => (
            <Paper component="li" key={e.id} withBorder radius="md" p="sm">
              <Text size="xs" c="dimmed">
                <time dateTime={e.at}>{formatDateTime(e.at)}</time>
              </Text>
              <Who e={e} />
              <What e={e} />
              <Where e={e} />
            </Paper>
          ))}
        </Stack>
      )}
      {log.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            Show more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
