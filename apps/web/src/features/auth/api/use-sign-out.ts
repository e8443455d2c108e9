import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Ends the session, then sends the browser to the provider to end its session too. */
export function useSignOut() {
  return useMutation({
    mutationFn: () => api<{ redirectUrl: string }>('POST', '/auth/signout'),
    onSuccess: ({ redirectUrl }) => window.location.assign(redirectUrl),
  });
}
