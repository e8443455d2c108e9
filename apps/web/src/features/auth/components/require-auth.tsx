import { Button, Center, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { ApiError, signInUrl } from '../../../lib/api-client.ts';
import { useMe } from '../api/use-me.ts';
import { PageLoader } from '../../../components/ui/page-loader.tsx';

/** Shows its children to a signed-in person; anyone else goes to sign in and comes back here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const me = useMe();
  const navigate = useNavigate();
  useEffect(() => {
    const onSignedOut = (event: Event) => {
      const reason = (event as CustomEvent<string>).detail === 'session_expired' ? 'expired' : undefined;
      void navigate(signInUrl(reason), { replace: true });
    };
    window.addEventListener('cabinet:signed-out', onSignedOut);
    return () => window.removeEventListener('cabinet:signed-out', onSignedOut);
  }, [navigate]);

  if (me.isPending) {
    return <PageLoader label="Loading" />;
  }
  if (me.error instanceof ApiError && me.error.status === 401) {
    return <Navigate to={signInUrl(me.error.code === 'session_expired' ? 'expired' : undefined)} replace />;
  }
  if (me.error) {
    // Cabinet could not be reached (offline, restarting): that is not a reason to sign in again.
    return (
      <Center mih="100dvh" p="md">
        <Stack align="center" maw={420} ta="center">
          <Text fw={600}>Cabinet cannot be reached right now.</Text>
          <Text c="dimmed" size="sm">
            {me.error.message}
          </Text>
          <Button onClick={() => void me.refetch()} loading={me.isFetching}>
            Try again
          </Button>
        </Stack>
      </Center>
    );
  }
  return children;
}
