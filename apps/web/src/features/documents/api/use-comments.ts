import type { TCommentThread, TCreateCommentRequest } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const commentKeys = { threads: (documentId: string) => ['comments', documentId] as const };

/** A document's threads; kept fresh by the workspace's live changes (comments.changed). */
export function useCommentThreads(documentId: string) {
  return useQuery({ queryKey: commentKeys.threads(documentId), queryFn: async () => (await api<{ items: TCommentThread[] }>('GET', `/items/${documentId}/comments`)).items });
}

export function useCommentMutations(documentId: string) {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: commentKeys.threads(documentId) });
  return {
    add: useMutation({ mutationFn: (c: TCreateCommentRequest) => api<TCommentThread>('POST', `/items/${documentId}/comments`, c), onSuccess }),
    resolve: useMutation({ mutationFn: (v: { threadId: string; resolved: boolean }) => api<TCommentThread>('PATCH', `/items/${documentId}/comments/${v.threadId}`, { resolved: v.resolved }), onSuccess }),
    edit: useMutation({ mutationFn: (v: { commentId: string; body: string }) => api<TCommentThread>('PATCH', `/items/${documentId}/comments/${v.commentId}`, { body: v.body }), onSuccess }),
    remove: useMutation({ mutationFn: (commentId: string) => api<void>('DELETE', `/items/${documentId}/comments/${commentId}`), onSuccess }),
  };
}
