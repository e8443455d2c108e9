import type { TRevision, TRevisionDetail } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useRevisions(documentId: string) {
  return useQuery({ queryKey: queryKeys.revisions(documentId), queryFn: async () => (await api<{ items: TRevision[] }>('GET', `/items/${documentId}/revisions?limit=200`)).items });
}

export function useRevision(documentId: string, revisionId: string | undefined) {
  return useQuery({ queryKey: queryKeys.revision(documentId, revisionId ?? ''), queryFn: () => api<TRevisionDetail>('GET', `/items/${documentId}/revisions/${revisionId}`), enabled: !!revisionId });
}

export function useRestoreRevision(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (revisionId: string) => api<TRevision>('POST', `/items/${documentId}/revisions/${revisionId}/restore`),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.revisions(documentId), exact: true }),
  });
}
