import { commentsApi, type TCommentThread, type TCreateCommentRequest } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** A document's threads; kept fresh by the workspace's live changes (comment.*). */
export function useCommentThreads(documentId: string) {
  return useQuery({ queryKey: queryKeys.comments(documentId), queryFn: async () => (await call(commentsApi.threads, { params: { id: documentId } })).items });
}

export function useCommentMutations(documentId: string) {
  const client = useQueryClient();
  const key = queryKeys.comments(documentId);
  // Each write answers its whole thread, which takes its place in the list (a new one goes last).
  const onSuccess = (thread: TCommentThread) =>
    client.setQueryData<TCommentThread[]>(key, (list) =>
      list?.some((t) => t.id === thread.id) ? list.map((t) => (t.id === thread.id ? thread : t)) : [...(list ?? []), thread],
    );
  return {
    add: useMutation({ mutationFn: (c: TCreateCommentRequest) => call(commentsApi.add, { params: { id: documentId }, body: c }), onSuccess }),
    resolve: useMutation({
      mutationFn: (v: { threadId: string; resolved: boolean }) =>
        call(commentsApi.update, { params: { id: documentId, commentId: v.threadId }, body: { resolved: v.resolved } }),
      onSuccess,
    }),
    edit: useMutation({
      // Whom the new words mention: those the comment did not mention before are notified.
      mutationFn: (v: { commentId: string; body: string; mentions?: string[] }) =>
        call(commentsApi.update, { params: { id: documentId, commentId: v.commentId }, body: { body: v.body, mentions: v.mentions } }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (commentId: string) => call(commentsApi.remove, { params: { id: documentId, commentId } }),
      // A first comment takes its thread with it.
      onSuccess: (_void, commentId) =>
        client.setQueryData<TCommentThread[]>(key, (list) =>
          list?.filter((t) => t.id !== commentId).map((t) => ({ ...t, comments: t.comments.filter((c) => c.id !== commentId) })),
        ),
    }),
  };
}
