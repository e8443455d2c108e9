import { tokensApi, type TApiToken, type TCreateApiTokenRequest } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

const key = ['api-tokens'] as const;

export function useApiTokens() {
  return useQuery({ queryKey: key, queryFn: async () => (await call(tokensApi.list)).items });
}

export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateApiTokenRequest) => call(tokensApi.create, { body: input }),
    onSuccess: ({ token: _secret, ...created }) => client.setQueryData<TApiToken[]>(key, (list) => [created, ...(list ?? [])]),
  });
}

export function useRevokeApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(tokensApi.revoke, { params: { id } }),
    onSuccess: (_void, id) => client.setQueryData<TApiToken[]>(key, (list) => list?.filter((t) => t.id !== id)),
  });
}
