import type { TRevision, TRevisionDetail } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const keys = {
  list: (documentId: string) => ['revisions', documentId] as const,
  one: (documentId: string, revisionId: string) => ['revisions', documentId, revisionId] as const,
};

export function useRevisions(documentId: string) {
  return useQuery({ queryKey: keys.list(documentId), queryFn: async () => (await api<{ items: TRevision[] }>('GET', `/items/${documentId}/revisions?limit=200`)).items });
}

export function useRevision(documentId: string, revisionId: string | undefined) {
  return useQuery({ queryKey: keys.one(documentId, revisionId ?? ''), queryFn: () => api<TRevisionDetail>('GET', `/items/${documentId}/revisions/${revisionId}`), enabled: !!revisionId });
}

export function useRestoreRevision(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (revisionId: string) => api<TRevision>('POST', `/items/${documentId}/revisions/${revisionId}/restore`),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.list(documentId) }),
  });
}
