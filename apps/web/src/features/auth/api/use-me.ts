import { configApi, meApi } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useMe() {
  return useQuery({ queryKey: queryKeys.me, queryFn: () => call(meApi.get) });
}

export function usePublicConfig() {
  return useQuery({ queryKey: queryKeys.config, queryFn: () => call(configApi.get), staleTime: Infinity });
}
