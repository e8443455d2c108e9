import type { TCommentThread, TCreateCommentRequest } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A document's threads; kept fresh by the workspace's live changes (comment.*). */
export function useCommentThreads(documentId: string) {
  return useQuery({ queryKey: queryKeys.comments(documentId), queryFn: async () => (await api<{ items: TCommentThread[] }>('GET', `/items/${documentId}/comments`)).items });
}

export function useCommentMutations(documentId: string) {
  const client = useQueryClient();
  const key = queryKeys.comments(documentId);
  // Each write answers its whole thread, which takes its place in the list (a new one goes last).
  const onSuccess = (thread: TCommentThread) =>
    client.setQueryData<TCommentThread[]>(key, (list) => (list?.some((t) => t.id === thread.id) ? list.map((t) => (t.id === thread.id ? thread : t)) : [...(list ?? []), thread]));
  return {
    add: useMutation({ mutationFn: (c: TCreateCommentRequest) => api<TCommentThread>('POST', `/items/${documentId}/comments`, c), onSuccess }),
    resolve: useMutation({ mutationFn: (v: { threadId: string; resolved: boolean }) => api<TCommentThread>('PATCH', `/items/${documentId}/comments/${v.threadId}`, { resolved: v.resolved }), onSuccess }),
    edit: useMutation({ mutationFn: (v: { commentId: string; body: string }) => api<TCommentThread>('PATCH', `/items/${documentId}/comments/${v.commentId}`, { body: v.body }), onSuccess }),
    remove: useMutation({
      mutationFn: (commentId: string) => api<void>('DELETE', `/items/${documentId}/comments/${commentId}`),
      // A first comment takes its thread with it.
      onSuccess: (_void, commentId) =>
        client.setQueryData<TCommentThread[]>(key, (list) => list?.filter((t) => t.id !== commentId).map((t) => ({ ...t, comments: t.comments.filter((c) => c.id !== commentId) }))),
    }),
  };
}
