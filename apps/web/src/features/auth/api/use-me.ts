import type { TMe, TPublicConfig } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const meKey = ['me'] as const;

export function useMe() {
  return useQuery({ queryKey: meKey, queryFn: () => api<TMe>('GET', '/me') });
}

export function usePublicConfig() {
  return useQuery({ queryKey: ['config'], queryFn: () => api<TPublicConfig>('GET', '/config'), staleTime: Infinity });
}
