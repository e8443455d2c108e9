import { ActionIcon, Avatar, Badge, Button, Group, Loader, Menu, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDots, IconKeyOff, IconLogout, IconSearch, IconShield, IconShieldOff, IconUserCheck, IconUserOff, IconUsers } from '@tabler/icons-react';
import type { TAdminUser } from '@cabinet/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatBytes, formatRelative } from '../../../lib/format.ts';
import { useMe, usePublicConfig } from '../../auth/api/use-me.ts';
import { initials } from '../../auth/components/user-menu.tsx';
import { ROLE_LABELS } from '../../team/components/members-section.tsx';
import { useAdminUsers, useResetTwoStep, useSignOutUser, useUpdateUser } from '../api/use-admin.ts';
import { AdminFailure } from './admin-failure.tsx';

type Asking = { kind: keyof typeof ASKS; user: TAdminUser };

/** What each action on a person asks before it runs (its change: none for signing out), and what it says once done. */
const ASKS = {
  deactivate: {
    title: (u: TAdminUser) => `Disable ${u.name}’s account?`,
    confirm: 'Disable account',
    text: (u: TAdminUser) =>
      `${u.email} is signed out everywhere at once: their sessions end, their API tokens are revoked, and their open pages and documents close. ` +
      'They cannot sign in until their account is enabled again. Their files stay where they are.',
    change: { status: 'deactivated' as const },
    done: (u: TAdminUser) => `${u.name}’s account is disabled`,
    refused: 'Not disabled',
  },
  'sign-out': {
    title: (u: TAdminUser) => `Sign ${u.name} out everywhere?`,
    confirm: 'Sign out everywhere',
    text: (u: TAdminUser) => `Every browser where ${u.email} is signed in asks them to sign in again, with their password. Their API tokens keep working.`,
    change: undefined,
    done: (u: TAdminUser, revoked: number) => `Ended ${revoked} session${revoked === 1 ? '' : 's'} of ${u.name}`,
    refused: 'Not signed out',
  },
  'reset-two-step': {
    title: (u: TAdminUser) => `Reset ${u.name}’s two-step sign-in?`,
    confirm: 'Reset two-step sign-in',
    text: (u: TAdminUser) =>
      `For someone who lost their phone, their recovery codes or a device with a passkey: the authenticator app, recovery codes and passkeys of ${u.email} ` +
      'stop working, and they sign in with their password until they set up two-step sign-in again. Make sure it is them who asks.',
    change: undefined,
    // -1: they had none, and nothing changed.
    done: (u: TAdminUser, passkeys: number) =>
      passkeys < 0
        ? `${u.name} had no two-step sign-in: nothing changed`
        : `${u.name}’s two-step sign-in is reset${passkeys ? ` and ${passkeys} passkey${passkeys === 1 ? '' : 's'} removed` : ''}`,
    refused: 'Not reset',
  },
  'make-admin': {
    title: (u: TAdminUser) => `Make ${u.name} an administrator?`,
    confirm: 'Make administrator',
    text: (u: TAdminUser) =>
      `${u.email} will see this page and can do all you can here: set quotas, disable people’s accounts (yours too), retry jobs and read the settings.`,
    change: { isInstanceAdmin: true },
    done: (u: TAdminUser) => `${u.name} is now an instance administrator`,
    refused: 'Not changed',
  },
  'unmake-admin': {
    title: (u: TAdminUser) => `Remove ${u.name} as administrator?`,
    confirm: 'Remove as administrator',
    text: () => 'They keep their workspaces and files, but no longer see this page.',
    change: { isInstanceAdmin: false },
    done: (u: TAdminUser) => `${u.name} is no longer an administrator`,
    refused: 'Not changed',
  },
};

const failed = (title: string) => (error: Error) => notifications.show({ color: 'red', title, message: error.message });

/** Every person of the instance: their workspaces, last sign-in, status; disable, enable, sign out everywhere, make administrator. */
export function AdminPeople() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<'' | TAdminUser['status']>('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const people = useAdminUsers(q, status);
  const me = useMe();
  const update = useUpdateUser();
  const signOut = useSignOutUser();
  const resetTwoStep = useResetTwoStep();
  // Two-step sign-in is the embedded provider's to reset; a hosted provider's factors are set there.
  const embedded = !!usePublicConfig().data?.embeddedProvider;
  const [asking, setAsking] = useState<Asking | null>(null);
  const close = () => setAsking(null);

  const activate = (u: TAdminUser) =>
    update.mutate(
      { id: u.id, status: 'active' },
      {
        onSuccess: () => notifications.show({ color: 'green', message: `${u.name}’s account is enabled: they can sign in again` }),
        onError: failed('Not enabled'),
      },
    );

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search people"
          placeholder="Name or email"
          leftSection={<IconSearch aria-hidden size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: '1 1 220px' }}
          maw={360}
        />
        <SegmentedControl
          aria-label="Show"
          value={status}
          onChange={(v) => setStatus(v as typeof status)}
          data={[
            { value: '', label: 'Everyone' },
            { value: 'active', label: 'Active' },
            { value: 'deactivated', label: 'Disabled' },
          ]}
        />
      </Group>
      {people.isPending ? (
        <Loader aria-label="Loading people" />
      ) : !people.items ? (
        <AdminFailure error={people.error} what="The people" />
      ) : !people.items.length ? (
        <EmptyState icon={<IconUsers size={32} />} title="No one found">
          {q ? `No one’s name or email contains “${q}”.` : status === 'deactivated' ? 'No account is disabled.' : 'People appear here when they first sign in.'}
        </EmptyState>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="People">
          {people.items.map((u) => {
            const you = u.id === me.data?.user.id;
            const deactivated = u.status === 'deactivated';
            return (
              <Paper component="li" key={u.id} withBorder p="sm" radius="md" aria-label={u.name}>
                <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                  <Group gap="sm" wrap="nowrap" miw={0} align="flex-start">
                    <Avatar radius="xl" color={deactivated ? 'gray' : 'blue'} alt="">
                      {initials(u.name)}
                    </Avatar>
                    <div style={{ minWidth: 0 }}>
                      <Group gap={6}>
                        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {u.name}
                          {you ? ' (you)' : ''}
                        </Text>
                        {u.isInstanceAdmin && (
                          <Badge size="xs" variant="light" leftSection={<IconShield aria-hidden size={10} />}>
                            Administrator
                          </Badge>
                        )}
                        {deactivated && (
                          <Badge size="xs" color="gray" variant="outline">
                            Disabled
                          </Badge>
                        )}
                      </Group>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {u.email}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {u.lastSeenAt ? `Last signed in ${formatRelative(u.lastSeenAt)}` : 'Never signed in'} · owns {formatBytes(u.ownedBytes)}
                      </Text>
                      {u.workspaces.length > 0 && (
                        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                          {u.workspaces.map((w) => `${w.name} (${ROLE_LABELS[w.role].toLowerCase()})`).join(', ')}
                        </Text>
                      )}
                    </div>
                  </Group>
                  {!you && (
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" aria-label={`More for ${u.name}`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item leftSection={<IconLogout aria-hidden size={16} />} onClick={() => setAsking({ kind: 'sign-out', user: u })}>
                          Sign out everywhere
                        </Menu.Item>
                        {embedded && (
                          <Menu.Item leftSection={<IconKeyOff aria-hidden size={16} />} onClick={() => setAsking({ kind: 'reset-two-step', user: u })}>
                            Reset two-step sign-in
                          </Menu.Item>
                        )}
                        {u.isInstanceAdmin ? (
                          <Menu.Item leftSection={<IconShieldOff aria-hidden size={16} />} onClick={() => setAsking({ kind: 'unmake-admin', user: u })}>
                            Remove as administrator
                          </Menu.Item>
                        ) : (
                          <Menu.Item
                            leftSection={<IconShield aria-hidden size={16} />}
                            onClick={() => setAsking({ kind: 'make-admin', user: u })}
                            disabled={deactivated}
                          >
                            Make administrator
                          </Menu.Item>
                        )}
                        {deactivated ? (
                          <Menu.Item leftSection={<IconUserCheck aria-hidden size={16} />} onClick={() => activate(u)}>
                            Enable account
                          </Menu.Item>
                        ) : (
                          <Menu.Item
                            color="danger"
                            leftSection={<IconUserOff aria-hidden size={16} />}
                            onClick={() => setAsking({ kind: 'deactivate', user: u })}
                          >
                            Disable account
                          </Menu.Item>
                        )}
                      </Menu.Dropdown>
                    </Menu>
                  )}
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      {people.hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={people.isFetchingNextPage} onClick={() => void people.fetchNextPage()}>
            Show more people
          </Button>
        </Group>
      )}
      {asking && (
        <ConfirmDialog
          title={ASKS[asking.kind].title(asking.user)}
          confirmLabel={ASKS[asking.kind].confirm}
          {...(asking.kind === 'make-admin' ? { color: 'blue' } : {})}
          pending={update.isPending || signOut.isPending || resetTwoStep.isPending}
          onClose={close}
          onConfirm={() => {
            const { user, kind } = asking;
            const { change, done, refused } = ASKS[kind];
            // What the confirmation's notice counts: the sessions ended, the passkeys removed.
            const run = change
              ? update.mutateAsync({ id: user.id, ...change }).then(() => 0)
              : kind === 'reset-two-step'
                ? resetTwoStep.mutateAsync(user.id).then((r) => (r.removed || r.passkeys ? r.passkeys : -1))
                : signOut.mutateAsync(user.id).then((r) => r.revoked);
            run.then((count) => (notifications.show({ color: 'green', message: done(user, count) }), close()), failed(refused));
          }}
        >
          <Text size="sm">{ASKS[asking.kind].text(asking.user)}</Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
