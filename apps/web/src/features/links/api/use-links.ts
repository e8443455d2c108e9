import { linksApi, publicLinksApi, urlOf, type TCreateLinkRequest, type TUpdateLinkPolicy, type TUpdateLinkRequest } from '@cabinet/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call } from '../../../lib/api-client.ts';
import { applyChange } from '../../../lib/changes.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** An item's public links (its managers), newest first, a page of 100 at a time. */
export function useLinks(id: string) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.links(id),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(linksApi.list, { params: { id }, query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

/** Making, changing and revoking an item's links; each goes through `applyChange`, as the live event would. */
export function useLinkMutations(ws: string, itemId: string) {
  const client = useQueryClient();
  const changed = (type: 'link.created' | 'link.updated' | 'link.revoked') => () => applyChange(client, ws, { type, itemId, parentIds: [] });
  return {
    create: useMutation({
      mutationFn: (body: TCreateLinkRequest) => call(linksApi.create, { params: { id: itemId }, body }),
      onSuccess: changed('link.created'),
    }),
    update: useMutation({
      mutationFn: (v: { linkId: string; body: TUpdateLinkRequest }) => call(linksApi.update, { params: { id: itemId, linkId: v.linkId }, body: v.body }),
      onSuccess: changed('link.updated'),
    }),
    revoke: useMutation({ mutationFn: (linkId: string) => call(linksApi.revoke, { params: { id: itemId, linkId } }), onSuccess: changed('link.revoked') }),
  };
}

/** Revoking a link from the workspace's list, where only the link and its item are known. */
export function useRevokeWorkspaceLink(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { itemId: string; linkId: string }) => call(linksApi.revokeInWorkspace, { params: { ws, linkId: v.linkId } }),
    onSuccess: (_, v) => applyChange(client, ws, { type: 'link.revoked', itemId: v.itemId, parentIds: [] }),
  });
}

/** Every live link of the workspace (owner and admins), newest first, a page of 100 at a time. */
export function useWorkspaceLinks(ws: string) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.workspaceLinks(ws),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(linksApi.workspace, { params: { ws }, query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

export function useLinkPolicy(ws: string) {
  return useQuery({ queryKey: queryKeys.linkPolicy(ws), queryFn: () => call(linksApi.policy, { params: { ws } }) });
}

export function useUpdateLinkPolicy(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateLinkPolicy) => call(linksApi.updatePolicy, { params: { ws }, body }),
    onSuccess: (policy) => client.setQueryData(queryKeys.linkPolicy(ws), policy),
  });
}

// The visitor's side: no account. Errors that say what the link needs (its password, that it
// ended) are answers to show, not failures to retry.
const final = (_: number, error: Error) =>
  !(error instanceof ApiError && ['link_password_required', 'link_expired', 'not_found', 'invalid_input', 'forbidden'].includes(error.code));

export function usePublicLink(token: string) {
  return useQuery({
    queryKey: queryKeys.publicLink(token),
    queryFn: () => call(publicLinksApi.open, { params: { token } }),
    retry: (n, e) => n < 2 && final(n, e),
    staleTime: Infinity,
  });
}

/** While a file's thumbnail is being made, how often a visitor's listing is asked again (they have no live stream to say it is ready). */
const PREVIEW_PENDING_REFETCH_MS = 5000;

/**
 * An item under the link; a folder's contents a page of 100 at a time (the item and its trail come
 * with each page), asked again now and then while a file's thumbnail is being made.
 */
export function usePublicItem(token: string, itemId: string | undefined) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.publicItem(token, itemId ?? ''),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      call(publicLinksApi.item, { params: { token, itemId: itemId! }, query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } }),
    getNextPageParam: (last) => last.nextCursor,
    enabled: !!itemId,
    retry: (n, e) => n < 2 && final(n, e),
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => [p.item, ...p.children].some((i) => i.preview?.state === 'pending')) ? PREVIEW_PENDING_REFETCH_MS : false,
  });
  const first = query.data?.pages[0];
  return { ...query, shown: first && { item: first.item, trail: first.trail, children: query.data!.pages.flatMap((p) => p.children) } };
}

/**
 * A document as its visitor reads it. Its pictures come as signed URLs that live five minutes and
 * change with every answer, and a new answer reloads the frame: it is not asked again when the
 * window comes back into focus (the frame would jump to its top under the reader), and is asked
 * again when shown after four minutes, before what it names has expired.
 */
export function usePublicDocument(token: string, itemId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.publicDocument(token, itemId),
    queryFn: () => call(publicLinksApi.document, { params: { token, itemId } }),
    enabled,
    staleTime: 4 * 60_000,
    refetchOnWindowFocus: false,
    retry: (n, e) => n < 2 && final(n, e),
  });
}

/**
 * Gives a link's password. Not retried: a refusal for too many tries says how long to wait
 * (`details.retryAfter`), which the page shows rather than waiting in silence.
 */
export function useUnlockLink(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => call(publicLinksApi.unlock, { params: { token }, body: { password } }, { retry: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.publicLink(token) }),
  });
}

/** Where a visitor's browser gets an item's bytes: shown in the page, or downloaded (a folder as a zip). */
export const publicContentUrl = (token: string, itemId: string, download: boolean) =>
  urlOf(publicLinksApi.content, { token, itemId }, download ? { download: '1' } : {});

/** Where a visitor's browser gets a file's thumbnail: the bytes' hash (`v`) in the address, so it is kept for good. */
export const publicThumbnailUrl = (token: string, itemId: string, size: '256' | '1024', v: string) =>
  urlOf(publicLinksApi.thumbnail, { token, itemId }, { size, v });

/** Where a visitor's browser downloads a document under the link as Markdown or PDF (when the link allows downloads). */
export const publicExportUrl = (token: string, itemId: string, format: 'markdown' | 'pdf') => urlOf(publicLinksApi.export, { token, itemId }, { format });
