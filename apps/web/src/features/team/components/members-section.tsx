import { ActionIcon, Alert, Avatar, Badge, Button, Group, Loader, Menu, Paper, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCrown, IconDots, IconUserMinus } from '@tabler/icons-react';
import type { TMember, TWorkspace, TWorkspaceRole } from '@cabinet/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useMe } from '../../auth/api/use-me.ts';
import { initials } from '../../auth/components/user-menu.tsx';
import { useChangeRole, useMembers, useRemoveMember } from '../api/use-team.ts';
import { PersonPicker, type PersonOption } from './person-picker.tsx';

export const ROLE_LABELS: Record<TWorkspaceRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member', guest: 'Guest' };
const ROLE_OPTIONS = (['admin', 'member', 'guest'] as const).map((value) => ({ value, label: ROLE_LABELS[value] }));

/** Everyone in the workspace, with what the caller may do about them: change a role, remove, hand the workspace over. */
export function MembersSection({ workspace }: { workspace: TWorkspace }) {
  const ws = workspace.id;
  const members = useMembers(ws);
  const me = useMe();
  const change = useChangeRole(ws);
  const [removing, setRemoving] = useState<TMember | null>(null);
  const [handingTo, setHandingTo] = useState<TMember | null>(null);
  const myId = me.data?.user.id;
  const failed = (error: Error) => notifications.show({ color: 'red', title: 'Not changed', message: error.message });

  if (members.isPending) return <Loader aria-label="Loading members" />;
  if (members.error || !members.items) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The members could not be shown">
        {members.error?.message}
      </Alert>
    );
  }
  return (
    <>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Members">
        {members.items.map((m) => {
          const you = m.userId === myId;
          const deactivated = m.status === 'deactivated';
          // Admins leave the owner alone; the owner's own role changes only by handing over.
          const locked = m.role === 'owner';
          return (
            <Paper component="li" key={m.userId} withBorder p="sm" radius="md" aria-label={m.name}>
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 200px' }}>
                  <Avatar radius="xl" color="blue" alt="">
                    {initials(m.name)}
                  </Avatar>
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} size="sm" truncate>
                      {m.name}
                      {you ? ' (you)' : ''}
                    </Text>
                    {deactivated && (
                      <Badge size="xs" color="gray" variant="outline">
                        Deactivated
                      </Badge>
                    )}
                    <Text size="xs" c="dimmed" truncate>
                      {m.email}
                    </Text>
                  </div>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  {locked ? (
                    <Badge variant="light" leftSection={<IconCrown aria-hidden size={12} />}>
                      {ROLE_LABELS[m.role]}
                    </Badge>
                  ) : (
                    <Select
                      aria-label={`Role of ${m.name}`}
                      data={ROLE_OPTIONS}
                      value={m.role}
                      allowDeselect={false}
                      w={120}
                      size="xs"
                      disabled={change.isPending && change.variables?.userId === m.userId}
                      onChange={(role) =>
                        role &&
                        change.mutate(
                          { userId: m.userId, role: role as TWorkspaceRole },
                          {
                            onSuccess: () =>
                              notifications.show({ color: 'green', message: `${m.name} is now ${ROLE_LABELS[role as TWorkspaceRole].toLowerCase()}` }),
                            onError: failed,
                          },
                        )
                      }
                    />
                  )}
                  {!locked && (
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" aria-label={`More for ${m.name}`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {workspace.abilities.handOver && m.role !== 'guest' && !deactivated && (
                          <Menu.Item leftSection={<IconCrown aria-hidden size={16} />} onClick={() => setHandingTo(m)}>
                            Transfer ownership
                          </Menu.Item>
                        )}
                        <Menu.Item color="red" leftSection={<IconUserMinus aria-hidden size={16} />} onClick={() => setRemoving(m)}>
                          Remove from workspace
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  )}
                </Group>
              </Group>
            </Paper>
          );
        })}
      </Stack>
      {members.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={members.isFetchingNextPage} onClick={() => void members.fetchNextPage()}>
            Show more members
          </Button>
        </Group>
      )}
      {removing && me.data && (
        <RemoveMemberDialog
          workspace={workspace}
          member={removing}
          defaultRecipient={{ value: me.data.user.id, label: `${me.data.user.name} (${me.data.user.email})` }}
          onClose={() => setRemoving(null)}
        />
      )}
      {handingTo && (
        <ConfirmDialog
          title={`Make ${handingTo.name} the owner?`}
          confirmLabel="Transfer ownership"
          pending={change.isPending}
          onClose={() => setHandingTo(null)}
          onConfirm={() =>
            change.mutate(
              { userId: handingTo.userId, role: 'owner' },
              {
                onSuccess: () => {
                  setHandingTo(null);
                  notifications.show({ color: 'green', message: `${handingTo.name} owns ${workspace.name} now; you are an admin.` });
                },
                onError: failed,
              },
            )
          }
        >
          <Text size="sm">
            {handingTo.name} will own “{workspace.name}” and be the only one who can hand it over again or delete it. You will become an admin. Only they can
            undo this.
          </Text>
        </ConfirmDialog>
      )}
    </>
  );
}

function RemoveMemberDialog({
  workspace,
  member,
  defaultRecipient,
  onClose,
}: {
  workspace: TWorkspace;
  member: TMember;
  defaultRecipient: PersonOption;
  onClose: () => void;
}) {
  const remove = useRemoveMember(workspace.id);
  // Any active member but the one removed, searched on the server; the remover by default.
  const [recipient, setRecipient] = useState<PersonOption | null>(defaultRecipient);
  return (
    <ConfirmDialog
      title={`Remove ${member.name}?`}
      confirmLabel="Remove"
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        recipient &&
        remove.mutate(
          { userId: member.userId, filesTo: recipient.value },
          {
            onSuccess: () => {
              onClose();
              notifications.show({ color: 'green', message: `${member.name} was removed from ${workspace.name}` });
            },
            onError: (error) => notifications.show({ color: 'red', title: 'Not removed', message: error.message }),
          },
        )
      }
    >
      <Text size="sm">
        {member.name} will lose access to “{workspace.name}” at once, including documents they have open. Their files are not deleted: their “My files” moves,
        as a folder “{member.name}'s files”, into the “My files” of the person you choose.
      </Text>
      <PersonPicker ws={workspace.id} label="Give their files to" required withoutGuests exclude={[member.userId]} value={recipient} onChange={setRecipient} />
    </ConfirmDialog>
  );
}
