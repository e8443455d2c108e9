import type { TMe, TUser } from '@cabinet/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => api<TUser>('PATCH', '/me', input),
    onSuccess: (user) => client.setQueryData<TMe>(queryKeys.me, (me) => (me ? { ...me, user } : me)),
  });
}
