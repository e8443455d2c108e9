import type { TSession } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const key = ['sessions'] as const;

export function useSessions() {
  return useQuery({ queryKey: key, queryFn: async () => (await api<{ items: TSession[] }>('GET', '/sessions')).items });
}

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', `/sessions/${id}`),
    onSuccess: (_void, id) => client.setQueryData<TSession[]>(key, (list) => list?.filter((s) => s.id !== id)),
  });
}

export function useRevokeOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ revoked: number }>('POST', '/sessions/revoke-others'),
    onSuccess: () => client.setQueryData<TSession[]>(key, (list) => list?.filter((s) => s.current)),
  });
}
