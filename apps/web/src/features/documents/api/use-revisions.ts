import { documentsApi } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useRevisions(documentId: string) {
  return useQuery({
    queryKey: queryKeys.revisions(documentId),
    queryFn: async () => (await call(documentsApi.revisions, { params: { id: documentId }, query: { limit: 200 } })).items,
  });
}

export function useRevision(documentId: string, revisionId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.revision(documentId, revisionId ?? ''),
    queryFn: () => call(documentsApi.revision, { params: { id: documentId, revisionId: revisionId! } }),
    enabled: !!revisionId,
  });
}

export function useRestoreRevision(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (revisionId: string) => call(documentsApi.restoreRevision, { params: { id: documentId, revisionId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.revisions(documentId), exact: true }),
  });
}
