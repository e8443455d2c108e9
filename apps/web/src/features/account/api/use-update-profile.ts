import { meApi, type TMe } from '@cabinet/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => call(meApi.update, { body: input }),
    onSuccess: (user) => client.setQueryData<TMe>(queryKeys.me, (me) => (me ? { ...me, user } : me)),
  });
}
