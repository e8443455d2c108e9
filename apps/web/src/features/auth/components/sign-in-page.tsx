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
};

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
              {ERRORS[error] ?? 'Sign-in did not complete. Please try again.'}
            </Alert>
          )}
          {params.get('reason') === 'expired' && !error && (
            <Alert color="yellow" icon={<IconClockExclamation aria-hidden />} role="status">
              Your session has expired. Sign in again to continue where you were.
            </Alert>
          )}
          <Button
            component="a"
            href={pageRoutes.providerSignIn(returnTo)}
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
