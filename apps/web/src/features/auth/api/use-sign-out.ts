import { authApi } from '@cabinet/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { forgetPerson } from '../../../lib/last-person.ts';

/** Ends the session, forgets who was signed in on this browser, then sends the browser to the provider to end its session too. */
export function useSignOut() {
  return useMutation({
    mutationFn: () => call(authApi.signOut),
    onSuccess: ({ redirectUrl }) => {
      forgetPerson();
      window.location.assign(redirectUrl);
    },
  });
}
