import { securityApi, type TChangePasswordRequest } from '@cabinet/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

/** A new password for the embedded provider's account; the other sessions end, so the list of sessions is read again. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TChangePasswordRequest) => call(securityApi.changePassword, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['sessions'] }),
  });
}
