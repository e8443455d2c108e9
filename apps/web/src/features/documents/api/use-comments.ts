import { commentsApi, type TCreateCommentRequest } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

export const commentKeys = { threads: (documentId: string) => ['comments', documentId] as const };

/** A document's threads; kept fresh by the workspace's live changes (comments.changed). */
export function useCommentThreads(documentId: string) {
  return useQuery({ queryKey: commentKeys.threads(documentId), queryFn: async () => (await call(commentsApi.threads, { params: { id: documentId } })).items });
}

export function useCommentMutations(documentId: string) {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: commentKeys.threads(documentId) });
  return {
    add: useMutation({ mutationFn: (c: TCreateCommentRequest) => call(commentsApi.add, { params: { id: documentId }, body: c }), onSuccess }),
    resolve: useMutation({ mutationFn: (v: { threadId: string; resolved: boolean }) => call(commentsApi.update, { params: { id: documentId, commentId: v.threadId }, body: { resolved: v.resolved } }), onSuccess }),
    edit: useMutation({ mutationFn: (v: { commentId: string; body: string }) => call(commentsApi.update, { params: { id: documentId, commentId: v.commentId }, body: { body: v.body } }), onSuccess }),
    remove: useMutation({ mutationFn: (commentId: string) => call(commentsApi.remove, { params: { id: documentId, commentId } }), onSuccess }),
  };
}
