import { documentsApi } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

const keys = {
  list: (documentId: string) => ['revisions', documentId] as const,
  one: (documentId: string, revisionId: string) => ['revisions', documentId, revisionId] as const,
};

export function useRevisions(documentId: string) {
  return useQuery({ queryKey: keys.list(documentId), queryFn: async () => (await call(documentsApi.revisions, { params: { id: documentId }, query: { limit: 200 } })).items });
}

export function useRevision(documentId: string, revisionId: string | undefined) {
  return useQuery({ queryKey: keys.one(documentId, revisionId ?? ''), queryFn: () => call(documentsApi.revision, { params: { id: documentId, revisionId: revisionId! } }), enabled: !!revisionId });
}

export function useRestoreRevision(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (revisionId: string) => call(documentsApi.restoreRevision, { params: { id: documentId, revisionId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.list(documentId) }),
  });
}
