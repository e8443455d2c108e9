import { Alert, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconClockX, IconMailX } from '@tabler/icons-react';
import type { TInvitationPreview } from '@cabinet/contracts';
import { useNavigate, useParams } from 'react-router';
import { Logo } from '../../components/ui/logo.tsx';
import { useMe, usePublicConfig } from '../../features/auth/api/use-me.ts';
import { useAcceptInvitation, useInvitationPreview } from '../../features/team/api/use-team.ts';
import { ApiError } from '../../lib/api-client.ts';
import { pageRoutes } from '../../lib/page-routes.ts';
import { PersonalShell } from '../shell.tsx';
import { PageLoader } from '../../components/ui/page-loader.tsx';

const ROLE_TEXT = { admin: 'an admin', member: 'a member', guest: 'a guest' } as const;

const GONE: Record<Exclude<TInvitationPreview['state'], 'pending'>, { title: string; text: string }> = {
  expired: { title: 'This invitation has expired', text: 'Ask whoever invited you to send a new one.' },
  revoked: { title: 'This invitation was revoked', text: 'It no longer works. Ask whoever invited you if you should still join.' },
  accepted: { title: 'This invitation has already been used', text: 'If you used it, the workspace is in your list. Otherwise ask for a new one.' },
  used_up: { title: 'This invite link is used up', text: 'It has been used as many times as it allows. Ask whoever shared it for a new one.' },
};

/** The invitation's card: alone on the page before signing in; in the signed-in frame (its bell, its navigation) after. */
function Frame({ signedIn, children }: { signedIn: boolean; children: React.ReactNode }) {
  const card = (
    // A long address or workspace name breaks rather than running out of the card at 360 px.
    <Paper withBorder radius="lg" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={460} shadow="sm" style={{ overflowWrap: 'anywhere' }}>
      <Stack gap="lg">
        {!signedIn && <Logo size="xl" />}
        {children}
      </Stack>
    </Paper>
  );
  if (signedIn) {
    return (
      <PersonalShell>
        <Center py="xl">{card}</Center>
      </PersonalShell>
    );
  }
  return (
    <Center mih="100dvh" p="md" component="main">
      {card}
    </Center>
  );
}

/**
 * `/invite/:token`: what the invitation is to, readable before signing in; signed in, join.
 * `/invitations/:id` (signed in): the same for an invitation sent to the person's address, opened
 * from their notification.
 */
export function InvitePage() {
  const { token, id = '' } = useParams();
  const ref = token !== undefined ? { token } : { id };
  const preview = useInvitationPreview(ref);
  const me = useMe();
  const config = usePublicConfig();
  const accept = useAcceptInvitation(ref);
  const navigate = useNavigate();
  const here = token !== undefined ? pageRoutes.invite(token) : pageRoutes.invitation(id);
  const signedIn = !!me.data;

  if (preview.isPending || me.isPending || config.isPending) {
    return <PageLoader label="Loading invitation" />;
  }
  if (preview.error) {
    const missing = preview.error instanceof ApiError && (preview.error.code === 'not_found' || preview.error.code === 'invalid_input');
    return (
      <Frame signedIn={signedIn}>
        <Title order={1} fz="h2">
          {missing ? 'This invitation does not exist' : 'The invitation could not be shown'}
        </Title>
        <Text c="dimmed">{missing ? 'Check that the whole link was copied, or ask for a new one.' : preview.error.message}</Text>
        {!missing && <Button onClick={() => void preview.refetch()}>Try again</Button>}
      </Frame>
    );
  }
  const invitation = preview.data;
  const { workspace } = invitation;
  if (invitation.state !== 'pending') {
    const gone = GONE[invitation.state];
    return (
      <Frame signedIn={signedIn}>
        <IconClockX aria-hidden size={40} />
        <Title order={1} fz="h2">
          {gone.title}
        </Title>
        <Text>
          It was an invitation to “{workspace.name}”. {gone.text}
        </Text>
        {signedIn && <Button onClick={() => void navigate(pageRoutes.root())}>Go to your workspaces</Button>}
      </Frame>
    );
  }
  const wrongEmail = accept.error instanceof ApiError && accept.error.details?.reason === 'wrong_email';
  const unverifiedError = accept.error instanceof ApiError && accept.error.details?.reason === 'unverified_email';
  const mismatch = signedIn && invitation.email && invitation.email.toLowerCase() !== me.data.user.email.toLowerCase();
  // The right address, not yet confirmed: the person confirms it, not another account.
  const unverified = !mismatch && (unverifiedError || (signedIn && !!invitation.email && !me.data.user.emailVerified));
  // The embedded provider's accounts are Cabinet's to read: joining looks at the address again, so a confirmation
  // made since signing in (in another tab) counts at once. A hosted provider tells Cabinet at the next sign-in.
  const embedded = !!config.data?.embeddedProvider;
  const address = invitation.email ?? me.data?.user.email;
  const invited = invitation.email ?? undefined;
  return (
    <Frame signedIn={signedIn}>
      <div>
        <Title order={1} fz="h2">
          Join {workspace.name}
        </Title>
        <Text c="dimmed" mt={4}>
          {invitation.invitedBy ? `${invitation.invitedBy} invited you` : 'You are invited'} to join “{workspace.name}” on Cabinet as{' '}
          {ROLE_TEXT[invitation.role]}
          {invitation.role === 'guest' ? ', who sees only what is shared with them' : ''}.
          {invitation.email ? ` The invitation is for ${invitation.email}.` : ''}
        </Text>
      </div>
      {(mismatch || wrongEmail) && (
        <Alert color="yellow" icon={<IconMailX aria-hidden />} role="alert" title="This invitation is for another address">
          You are signed in as {me.data?.user.email}. Sign out, then sign in or create an account with {invitation.email ?? 'the address it was sent to'} and
          open this link again.
        </Alert>
      )}
      {unverified && (
        <Alert color="yellow" icon={<IconMailX aria-hidden />} role="alert" title="Confirm your email address first">
          {unverifiedError ? `${address} is still not confirmed. ` : `This invitation is for ${address}, which is your address, but it is not confirmed yet. `}
          {embedded
            ? 'Open the link in the message Cabinet sent you, in this browser or another, then choose “I have confirmed my address”.'
            : `Confirm it with ${config.data?.providerName ?? 'your identity provider'}, then sign out and sign in again.`}
        </Alert>
      )}
      {accept.error && !wrongEmail && !unverifiedError && (
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title="You did not join">
          {accept.error.message}
        </Alert>
      )}
      {signedIn ? (
        <Stack gap="xs">
          <Text size="sm">
            Signed in as {me.data.user.name} ({me.data.user.email}).
          </Text>
          <Button
            size="md"
            loading={accept.isPending}
            disabled={!!mismatch || (unverified && !embedded)}
            onClick={() =>
              accept.mutate(undefined, {
                // Invitations make members and admins, never guests: the workspace is theirs to open.
                onSuccess: (joined) => void navigate(pageRoutes.workspace(joined.workspace.slug)),
              })
            }
          >
            {unverified && embedded ? 'I have confirmed my address' : `Join ${workspace.name}`}
          </Button>
        </Stack>
      ) : (
        <Stack gap="xs">
          <Button component="a" href={pageRoutes.providerSignIn(here, invited)} size="md">
            Sign in to join
          </Button>
          {embedded ? (
            <>
              <Button component="a" href={pageRoutes.providerSignUp(here, invited)} size="md" variant="default">
                Create an account
              </Button>
              <Text size="sm" c="dimmed" ta="center">
                New to Cabinet? Create an account{invited ? ` with ${invited}` : ''}: you come back here to join.
              </Text>
            </>
          ) : (
            <Text size="sm" c="dimmed" ta="center">
              New to Cabinet? Sign in{invited ? ` with ${invited}` : ''}: your account here is made as you first sign in.
            </Text>
          )}
        </Stack>
      )}
    </Frame>
  );
}
