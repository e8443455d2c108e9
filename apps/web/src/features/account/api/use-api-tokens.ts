import type { TApiToken, TCreateApiTokenRequest, TCreatedApiToken } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const key = ['api-tokens'] as const;

export function useApiTokens() {
  return useQuery({ queryKey: key, queryFn: async () => (await api<{ items: TApiToken[] }>('GET', '/tokens')).items });
}

export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateApiTokenRequest) => api<TCreatedApiToken>('POST', '/tokens', input),
    onSuccess: ({ token: _secret, ...created }) => client.setQueryData<TApiToken[]>(key, (list) => [created, ...(list ?? [])]),
  });
}

export function useRevokeApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', `/tokens/${id}`),
    onSuccess: (_void, id) => client.setQueryData<TApiToken[]>(key, (list) => list?.filter((t) => t.id !== id)),
  });
}
