import { Alert, Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconClockExclamation, IconLogin2 } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { Logo } from '../../../components/ui/logo.tsx';
import { usePublicConfig } from '../api/use-me.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';

const ERRORS: Record<string, string> = {
  state_mismatch: 'That sign-in link was already used or did not start in this browser. Please sign in again.',
  sign_in_failed: 'The identity provider’s answer could not be verified, so you were not signed in. Please try again.',
  access_denied: 'Sign-in was cancelled at the identity provider.',
  provider_error: 'The identity provider refused the sign-in. Please try again.',
  provider_unreachable: 'The identity provider cannot be reached right now. Try again in a moment, or ask your administrator.',
  deactivated: 'Your account has been disabled. Ask the administrator of this Cabinet to enable it again.',
  no_email: 'Your identity provider did not share an email address, which Cabinet needs. Ask your administrator to allow the email scope.',
  two_step_required:
    'This Cabinet requires two-step sign-in, and your identity provider did not report a second step (a code from an app, ' +
    'a security key or a passkey) for this sign-in. Turn on two-step sign-in (multi-factor authentication) for your account ' +
    'at the provider, or ask your administrator how, then sign in again.',
};

/** With the embedded provider, signing in again is the way: it asks to set up an authenticator app on the way. */
const EMBEDDED_TWO_STEP_REQUIRED = 'This Cabinet requires two-step sign-in. Sign in again: you will be asked to set up an authenticator app on the way.';

export function SignInPage() {
  const [params] = useSearchParams();
  const config = usePublicConfig();
  const error = params.get('error');
  const returnTo = params.get('returnTo') ?? pageRoutes.root();
  const provider = config.data?.providerName ?? 'your identity provider';
  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder radius="lg" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={420} shadow="sm">
        <Stack gap="lg">
          <Logo size="xl" />
          <div>
            <Title order={1} fz="h2">
              Sign in
            </Title>
            <Text c="dimmed" mt={4}>
              Your team’s documents and files, together.
            </Text>
          </div>
          {error && (
            <Alert color="red" icon={<IconAlertCircle aria-hidden />} title="You are not signed in" role="alert">
              {error === 'two_step_required' && config.data?.embeddedProvider
                ? EMBEDDED_TWO_STEP_REQUIRED
                : (ERRORS[error] ?? 'Sign-in did not complete. Please try again.')}
            </Alert>
          )}
          {params.get('reason') === 'expired' && !error && (
            <Alert color="yellow" icon={<IconClockExclamation aria-hidden />} role="status">
              Your session has expired. Sign in again to continue where you were.
            </Alert>
          )}
          <Button
            component="a"
            // After a sign-in without the second step the installation requires, the provider is asked for a new sign-in, not its current session.
            href={pageRoutes.providerSignIn(returnTo) + (error === 'two_step_required' ? '&fresh=1' : '')}
            size="md"
            leftSection={<IconLogin2 aria-hidden size={20} />}
            loading={config.isPending}
            fullWidth
          >
            Continue with {provider}
          </Button>
          {config.data?.embeddedProvider && (
            <Text size="sm" c="dimmed" ta="center">
              New here? <Anchor href={pageRoutes.providerSignUp(returnTo)}>Create an account</Anchor>.
            </Text>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
