import { ActionIcon, Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { StateBadge } from '../../../components/ui/state-badge.tsx';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconLink, IconMail, IconMailForward, IconTrash, IconUserPlus } from '@tabler/icons-react';
import type { TInvitation, TWorkspace } from '@cabinet/contracts';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { formatDate } from '../../../lib/format.ts';
import { useInvitations, useResendInvitation, useRevokeInvitation } from '../api/use-team.ts';
import { ROLE_LABELS } from './members-section.tsx';

const InviteDialog = lazy(() => import('./invite-dialog.tsx').then((m) => ({ default: m.InviteDialog })));

const describe = (i: TInvitation) =>
  i.email ?? (i.maxUses ? `Invite link · ${i.uses} of ${i.maxUses} used` : `Invite link · used ${i.uses} time${i.uses === 1 ? '' : 's'}`);

/** Invitations still waiting to be accepted (and expired ones by email, to send again), and the button that makes new ones. */
export function InvitationsSection({ workspace }: { workspace: TWorkspace }) {
  const invitations = useInvitations(workspace.id);
  const revoke = useRevokeInvitation(workspace.id);
  const resend = useResendInvitation(workspace.id);
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<TInvitation | null>(null);
  const pending = invitations.data?.filter((i) => i.state === 'pending' || (i.state === 'expired' && i.email)) ?? [];
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          Invite people by email, or create a link to share with them.
        </Text>
        <Button leftSection={<IconUserPlus aria-hidden size={18} />} onClick={() => setInviting(true)}>
          Invite people
        </Button>
      </Group>
      {invitations.isPending && <Loader aria-label="Loading invitations" />}
      {invitations.error && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="The invitations could not be shown">
          {invitations.error.message}
        </Alert>
      )}
      {invitations.data && pending.length === 0 && (
        <EmptyState icon={<IconMail size={32} />} title="No pending invitations">
          Invitations you send and invite links you create appear here until they are used, expire or are revoked.
        </EmptyState>
      )}
      {pending.length > 0 && (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Invitations not yet accepted">
          {pending.map((i) => (
            <Paper component="li" key={i.id} withBorder p="sm" radius="md" aria-label={describe(i)}>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="sm" wrap="nowrap" miw={0}>
                  {i.email ? <IconMail aria-hidden size={20} style={{ flexShrink: 0 }} /> : <IconLink aria-hidden size={20} style={{ flexShrink: 0 }} />}
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600} size="sm" truncate>
                      {describe(i)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      <Badge size="xs" variant="light" component="span" mr={6}>
                        {ROLE_LABELS[i.role]}
                      </Badge>
                      {i.state === 'expired' ? (
                        <StateBadge size="xs" tone="bad" mr={6}>
                          Expired
                        </StateBadge>
                      ) : null}
                      {i.state === 'expired' ? 'expired' : 'expires'} {formatDate(i.expiresAt)}
                      {i.createdBy ? ` · by ${i.createdBy.name}` : ''}
                    </Text>
                  </div>
                </Group>
                <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                  {i.email && (
                    <Tooltip label="Send again">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Send the invitation to ${i.email} again`}
                        loading={resend.isPending && resend.variables === i.id}
                        onClick={() =>
                          resend.mutate(i.id, {
                            onSuccess: () => notifications.show({ color: 'green', message: `Invitation sent again to ${i.email}` }),
                            onError: (error) => notifications.show({ color: 'red', message: error.message }),
                          })
                        }
                      >
                        <IconMailForward size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  <Tooltip label="Revoke">
                    <ActionIcon variant="subtle" color="red" aria-label={`Revoke invitation: ${describe(i)}`} onClick={() => setRevoking(i)}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {inviting && (
        <Suspense fallback={null}>
          <InviteDialog workspace={workspace} onClose={() => setInviting(false)} />
        </Suspense>
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke this invitation?"
          confirmLabel="Revoke"
          pending={revoke.isPending}
          onClose={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                setRevoking(null);
                notifications.show({ color: 'green', message: 'Invitation revoked' });
              },
              onError: (error) => notifications.show({ color: 'red', message: error.message }),
            })
          }
        >
          <Text size="sm">
            {revoking.email
              ? `The link mailed to ${revoking.email} will stop working.`
              : 'Anyone holding this invite link will no longer be able to join with it.'}{' '}
            People who already joined stay.
          </Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
