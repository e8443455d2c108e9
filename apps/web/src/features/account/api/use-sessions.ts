import { sessionsApi, type TSession } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

const key = ['sessions'] as const;

export function useSessions() {
  return useQuery({ queryKey: key, queryFn: async () => (await call(sessionsApi.list)).items });
}

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(sessionsApi.end, { params: { id } }),
    onSuccess: (_void, id) => client.setQueryData<TSession[]>(key, (list) => list?.filter((s) => s.id !== id)),
  });
}

export function useRevokeOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(sessionsApi.endOthers),
    onSuccess: () => client.setQueryData<TSession[]>(key, (list) => list?.filter((s) => s.current)),
  });
}
