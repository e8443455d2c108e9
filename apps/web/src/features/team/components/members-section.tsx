import { ActionIcon, Alert, Avatar, Badge, Button, Group, Loader, Menu, Paper, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCrown, IconDots, IconUserMinus } from '@tabler/icons-react';
import type { TMember, TWorkspace, TWorkspaceRole } from '@cabinet/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { pageRoutes } from '../../../lib/page-routes.ts';
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
  // A role the caller gives themselves, waiting for their confirmation: they cannot take it back.
  const [ownRole, setOwnRole] = useState<TWorkspaceRole | null>(null);
  const myId = me.data?.user.id;
  const failed = (error: Error) => notifications.show({ color: 'red', title: 'Not changed', message: error.message });
  const changeRole = (m: TMember, role: TWorkspaceRole, then?: () => void) =>
    change.mutate(
      { userId: m.userId, role },
      {
        onSuccess: () => {
          then?.();
          notifications.show({ color: 'green', message: `${m.userId === myId ? 'You are' : `${m.name} is`} now ${ROLE_LABELS[role].toLowerCase()}` });
        },
        onError: failed,
      },
    );

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
                        Disabled
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
                      onChange={(role) => {
                        if (!role || role === m.role) return;
                        if (you) setOwnRole(role as TWorkspaceRole);
                        else changeRole(m, role as TWorkspaceRole);
                      }}
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
                          {you ? 'Leave workspace' : 'Remove from workspace'}
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
          you={removing.userId === myId}
          // Their files go to the remover, or, when people leave, to the owner: never to the person leaving.
          defaultRecipient={personOption(
            removing.userId === myId ? members.items.find((m) => m.role === 'owner') : { userId: me.data.user.id, ...me.data.user },
          )}
          onClose={() => setRemoving(null)}
        />
      )}
      {ownRole && (
        <ConfirmDialog
          title={`Make yourself ${ownRole === 'admin' ? 'an admin' : `a ${ROLE_LABELS[ownRole].toLowerCase()}`}?`}
          confirmLabel="Change my role"
          pending={change.isPending}
          onClose={() => setOwnRole(null)}
          onConfirm={() => {
            const self = members.items?.find((m) => m.userId === myId);
            if (self) changeRole(self, ownRole, () => setOwnRole(null));
          }}
        >
          <Text size="sm">
            {ownRole === 'guest'
              ? `You will see only what is shared with you in “${workspace.name}”, and nothing of it once nothing is.`
              : `You will no longer manage the members, groups, links and settings of “${workspace.name}”.`}{' '}
            Only the owner or an admin can give that back.
          </Text>
        </ConfirmDialog>
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
            {handingTo.name} will own “{workspace.name}” and be the only one who can hand it over again. You will become an admin. Only they can undo this.
          </Text>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A person as the picker shows them; none when there is no one to suggest. */
const personOption = (p: { userId: string; name: string; email: string } | undefined): PersonOption | null =>
  p ? { value: p.userId, label: `${p.name} (${p.email})` } : null;

function RemoveMemberDialog({
  workspace,
  member,
  you,
  defaultRecipient,
  onClose,
}: {
  workspace: TWorkspace;
  member: TMember;
  /** The caller leaves the workspace themselves. */
  you: boolean;
  defaultRecipient: PersonOption | null;
  onClose: () => void;
}) {
  const remove = useRemoveMember(workspace.id);
  const navigate = useNavigate();
  // Any active member but the one removed, searched on the server.
  const [recipient, setRecipient] = useState<PersonOption | null>(defaultRecipient);
  return (
    <ConfirmDialog
      title={you ? `Leave “${workspace.name}”?` : `Remove ${member.name}?`}
      confirmLabel={you ? 'Leave' : 'Remove'}
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        recipient &&
        remove.mutate(
          { userId: member.userId, filesTo: recipient.value },
          {
            onSuccess: () => {
              onClose();
              notifications.show({ color: 'green', message: you ? `You left ${workspace.name}` : `${member.name} was removed from ${workspace.name}` });
              if (you) void navigate(pageRoutes.root());
            },
            onError: (error) => notifications.show({ color: 'red', title: you ? 'You are still in the workspace' : 'Not removed', message: error.message }),
          },
        )
      }
    >
      <Text size="sm">
        {you ? 'You' : member.name} will lose access to “{workspace.name}” at once{you ? '' : ', including documents they have open'}.
      </Text>
      <Text size="sm">
        {you ? 'Your' : 'Their'} files are not deleted: {you ? 'your' : 'their'} “My files” moves, as a folder “{member.name}'s files”, into the “My files” of
        the person you choose.
      </Text>
      <PersonPicker
        ws={workspace.id}
        label={you ? 'Give your files to' : 'Give their files to'}
        required
        withoutGuests
        exclude={[member.userId]}
        value={recipient}
        onChange={setRecipient}
      />
    </ConfirmDialog>
  );
}
