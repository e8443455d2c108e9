import { authApi } from '@cabinet/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

/** Ends the session, then sends the browser to the provider to end its session too. */
export function useSignOut() {
  return useMutation({
    mutationFn: () => call(authApi.signOut),
    onSuccess: ({ redirectUrl }) => window.location.assign(redirectUrl),
  });
}
