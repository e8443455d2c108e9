import { ActionIcon, Alert, Badge, Button, Group, Loader, Menu, Modal, MultiSelect, Paper, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconDots, IconPencil, IconTrash, IconUserMinus, IconUsersGroup } from '@tabler/icons-react';
import type { TGroup, TWorkspace } from '@cabinet/contracts';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { refusalMessage } from '../../../lib/field-message.ts';
import { useMemberSearch } from '../../team/api/use-team.ts';
import { useAddGroupMembers, useCreateGroup, useDeleteGroup, useGroupMembers, useGroups, useRemoveGroupMember, useRenameGroup } from '../api/use-groups.ts';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';

const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);

/** The workspace's groups: make one, rename or delete it, and open it to choose who is in it. */
export function GroupsSection({ workspace }: { workspace: TWorkspace }) {
  const ws = workspace.id;
  const groups = useGroups(ws);
  const create = useCreateGroup(ws);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<TGroup | null>(null);
  const [deleting, setDeleting] = useState<TGroup | null>(null);
  const remove = useDeleteGroup(ws);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Give the group a name');
    create.mutate(name.trim(), {
      onSuccess: (group) => {
        setName('');
        notifications.show({ color: 'green', message: `Group “${group.name}” made. Open it to add people.` });
      },
      onError: (e) => setError(refusalMessage(e)),
    });
  };

  const current = groups.data?.find((g) => g.id === open);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Share with a group and everyone in it gets that access; whoever leaves the group loses it at once. Members see the groups when sharing; guests do not.
      </Text>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="New group name"
            placeholder="Design team"
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            maxLength={100}
            style={{ flex: '1 1 200px' }}
          />
          <Button type="submit" loading={create.isPending} mt={{ base: 0, xs: 25 }} leftSection={<IconUsersGroup aria-hidden size={18} />}>
            Create group
          </Button>
        </Group>
      </form>
      {groups.isPending ? (
        <Loader aria-label="Loading groups" />
      ) : groups.error ? (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The groups could not be shown">
          {groups.error.message}
        </Alert>
      ) : groups.data.length === 0 ? (
        <EmptyState icon={<IconUsersGroup size={32} />} title="No groups yet">
          Make a group for a team, then share folders and documents with all of its people at once.
        </EmptyState>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Groups">
          {groups.data.map((g) => (
            <Paper component="li" key={g.id} withBorder p="sm" radius="md" aria-label={g.name}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <UnstyledButton onClick={() => setOpen(g.id)} aria-label={`Open group ${g.name}`} style={{ flex: '1 1 auto', minWidth: 0 }}>
                  <Text fw={600} size="sm" truncate="end">
                    {g.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {people(g.memberCount)}
                  </Text>
                </UnstyledButton>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={`More for group ${g.name}`}>
                      <IconDots size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconUsersGroup aria-hidden size={16} />} onClick={() => setOpen(g.id)}>
                      People in the group
                    </Menu.Item>
                    <Menu.Item leftSection={<IconPencil aria-hidden size={16} />} onClick={() => setRenaming(g)}>
                      Rename
                    </Menu.Item>
                    <Menu.Item color="red" leftSection={<IconTrash aria-hidden size={16} />} onClick={() => setDeleting(g)}>
                      Delete group
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {current && <GroupDialog workspace={workspace} group={current} onClose={() => setOpen(null)} />}
      {renaming && <RenameDialog workspace={workspace} group={renaming} onClose={() => setRenaming(null)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete the group “${deleting.name}”?`}
          confirmLabel="Delete group"
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                setDeleting(null);
                notifications.show({ color: 'green', message: `Group “${deleting.name}” deleted` });
              },
              onError: (e) => notifications.show({ color: 'red', title: 'Not deleted', message: refusalMessage(e) }),
            })
          }
        >
          <Text size="sm">
            Everything shared with “{deleting.name}” stops being shared with its {people(deleting.memberCount)}, at once, unless it is also shared with them
            another way. The people stay in the workspace. This cannot be undone.
          </Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}

function RenameDialog({ workspace, group, onClose }: { workspace: TWorkspace; group: TGroup; onClose: () => void }) {
  useReturnFocus();
  const rename = useRenameGroup(workspace.id);
  const [name, setName] = useState(group.name);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Give the group a name');
    rename.mutate({ groupId: group.id, name: name.trim() }, { onSuccess: onClose, onError: (e) => setError(refusalMessage(e)) });
  };
  return (
    <Modal opened onClose={onClose} title={`Rename “${group.name}”`} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Group name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} maxLength={100} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** One group's people: add workspace members (not guests), take people out. */
function GroupDialog({ workspace, group, onClose }: { workspace: TWorkspace; group: TGroup; onClose: () => void }) {
  useReturnFocus();
  const phone = useMediaQuery('(max-width: 36em)');
  const ws = workspace.id;
  const members = useGroupMembers(ws, group.id);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 200);
  // Searched on the server as the person types: a workspace may have thousands of people.
  const found = useMemberSearch(ws, q, { withoutGuests: true });
  const add = useAddGroupMembers(ws);
  const take = useRemoveGroupMember(ws);
  const [chosen, setChosen] = useState<string[]>([]);
  // The names of those chosen, which stay shown whatever is searched next.
  const [chosenLabels, setChosenLabels] = useState<Record<string, string>>({});
  // The list closes after each pick, so it never covers the Add button on a phone.
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inGroup = new Set(members.data?.map((m) => m.userId));
  const candidates = (found.data ?? []).filter((m) => !inGroup.has(m.userId)).map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }));
  const options = [
    ...chosen.filter((id) => !candidates.some((c) => c.value === id)).map((id) => ({ value: id, label: chosenLabels[id] ?? id })),
    ...candidates,
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (chosen.length === 0) return setError('Choose someone to add');
    add.mutate(
      { groupId: group.id, userIds: chosen },
      {
        onSuccess: () => {
          setChosen([]);
          setSearch('');
        },
        onError: (e) => setError(refusalMessage(e)),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={`Group “${group.name}”`} size="lg" fullScreen={!!phone}>
      <Stack gap="md">
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <MultiSelect
              label="Add people"
              placeholder={chosen.length ? undefined : 'Type a name or email'}
              data={options}
              value={chosen}
              onChange={(ids) => {
                setChosenLabels((labels) => ({
                  ...labels,
                  ...Object.fromEntries(options.filter((o) => ids.includes(o.value)).map((o) => [o.value, o.label])),
                }));
                setChosen(ids);
              }}
              searchValue={search}
              onSearchChange={setSearch}
              // The server already matched what was typed.
              filter={({ options: shown }) => shown}
              nothingFoundMessage={found.isFetching ? 'Searching…' : q ? 'No one else in the workspace by that name or email' : 'Everyone is in this group'}
              dropdownOpened={picking}
              onDropdownOpen={() => setPicking(true)}
              onDropdownClose={() => setPicking(false)}
              onOptionSubmit={() => setPicking(false)}
              searchable
              error={error}
              comboboxProps={{ withinPortal: true }}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" loading={add.isPending}>
              Add
            </Button>
          </Group>
        </form>
        <Text size="xs" c="dimmed">
          Only members of the workspace can be in its groups, not guests.
        </Text>
        {members.isPending ? (
          <Loader aria-label="Loading the group's people" />
        ) : members.error ? (
          <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The group's people could not be shown">
            {members.error.message}
          </Alert>
        ) : members.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            No one is in this group yet. Add people above; what is shared with the group reaches them at once.
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`People in ${group.name}`}>
            {members.data.map((m) => (
              <Group component="li" key={m.userId} justify="space-between" wrap="nowrap" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} truncate="end">
                    {m.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    {m.email}
                  </Text>
                </div>
                <Group gap="xs" wrap="nowrap">
                  {m.source === 'idp' && (
                    <Badge variant="light" color="gray" title="Kept in step with the sign-in provider's groups">
                      From sign-in
                    </Badge>
                  )}
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${m.name} from ${group.name}`}
                    loading={take.isPending && take.variables?.userId === m.userId}
                    onClick={() =>
                      take.mutate(
                        { groupId: group.id, userId: m.userId },
                        { onError: (e) => notifications.show({ color: 'red', title: 'Not removed', message: refusalMessage(e) }) },
                      )
                    }
                  >
                    <IconUserMinus aria-hidden size={16} />
                  </ActionIcon>
                </Group>
              </Group>
            ))}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
