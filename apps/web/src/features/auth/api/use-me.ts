import { configApi, meApi } from '@cabinet/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The person signed in, and their workspaces' summaries. */
export const meQuery = queryOptions({ queryKey: queryKeys.me, queryFn: () => call(meApi.get) });

export function useMe() {
  return useQuery(meQuery);
}

export function usePublicConfig() {
  return useQuery({ queryKey: queryKeys.config, queryFn: () => call(configApi.get), staleTime: Infinity });
}
