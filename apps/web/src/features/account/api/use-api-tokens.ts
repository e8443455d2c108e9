import { isAppPassword, tokensApi, type TApiToken, type TCreateApiTokenRequest } from '@cabinet/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

const key = ['api-tokens'] as const;

/** Every live token of the caller's, API tokens and app passwords in one list, as the server keeps them. */
export const tokensQuery = queryOptions({ queryKey: key, queryFn: async () => (await call(tokensApi.list)).items });

/** The caller's API tokens (their app passwords are listed apart). */
export function useApiTokens() {
  return useQuery({ ...tokensQuery, select: (tokens) => tokens.filter((t) => !isAppPassword(t.scopes)) });
}

/** Makes an API token or an app password. */
export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TCreateApiTokenRequest) => call(tokensApi.create, { body: input }),
    onSuccess: ({ token: _secret, ...created }) => client.setQueryData<TApiToken[]>(key, (list) => [created, ...(list ?? [])]),
  });
}

/** Revokes an API token or an app password. */
export function useRevokeApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(tokensApi.revoke, { params: { id } }),
    onSuccess: (_void, id) => client.setQueryData<TApiToken[]>(key, (list) => list?.filter((t) => t.id !== id)),
  });
}
