import type { TMe, TPublicConfig } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useMe() {
  return useQuery({ queryKey: queryKeys.me, queryFn: () => api<TMe>('GET', '/me') });
}

export function usePublicConfig() {
  return useQuery({ queryKey: queryKeys.config, queryFn: () => api<TPublicConfig>('GET', '/config'), staleTime: Infinity });
}
