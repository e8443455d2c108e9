import { configApi, meApi } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

export const meKey = ['me'] as const;

export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: () => call(meApi.get) });
}

export function usePublicConfig() {
  return useQuery({ queryKey: ['config'], queryFn: () => call(configApi.get), staleTime: Infinity });
}
