import { itemsApi } from '@cabinet/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';

export const itemKeys = {
  item: (id: string) => ['item', id] as const,
  children: (ws: string, id: string) => ['children', ws, id] as const,
  ancestors: (id: string) => ['ancestors', id] as const,
  trash: (ws: string) => ['trash', ws] as const,
  starred: (ws: string) => ['starred', ws] as const,
  recent: (ws: string) => ['recent', ws] as const,
};

export function useItem(id: string | undefined) {
  return useQuery({ queryKey: itemKeys.item(id ?? ''), queryFn: () => call(itemsApi.get, { params: { id: id! } }), enabled: !!id });
}

export function useAncestors(id: string | undefined) {
  return useQuery({ queryKey: itemKeys.ancestors(id ?? ''), queryFn: async () => (await call(itemsApi.ancestors, { params: { id: id! } })).items, enabled: !!id });
}

const PAGE = 200;

/** A folder's children, page by page (keyset cursors): the list asks for the next page as it scrolls near the end. */
export function useChildren(ws: string, folderId: string | undefined) {
  const query = useInfiniteQuery({
    queryKey: itemKeys.children(ws, folderId ?? ''),
    enabled: !!folderId,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(itemsApi.children, { params: { ws, id: folderId! }, query: { limit: PAGE, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

export function useStarred(ws: string) {
  return useQuery({ queryKey: itemKeys.starred(ws), queryFn: async () => (await call(itemsApi.starred, { params: { ws } })).items });
}

export function useRecent(ws: string) {
  return useQuery({ queryKey: itemKeys.recent(ws), queryFn: async () => (await call(itemsApi.recent, { params: { ws } })).items });
}

export function useTrash(ws: string) {
  return useQuery({ queryKey: itemKeys.trash(ws), queryFn: async () => (await call(itemsApi.trashList, { params: { ws }, query: { limit: 1000 } })).items });
}

/** Writes that change listings: each refreshes the folders and the trash it touched. */
export function useItemMutations(ws: string) {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all(
      [['children', ws], itemKeys.trash(ws), itemKeys.starred(ws), itemKeys.recent(ws), ['item'], ['workspaces']].map((queryKey) => client.invalidateQueries({ queryKey })),
    );
  const options = { onSuccess: refresh };
  return {
    createFolder: useMutation({ mutationFn: (v: { parentId: string; name: string }) => call(itemsApi.create, { params: { ws }, body: { kind: 'folder', ...v } }), ...options }),
    createDocument: useMutation({ mutationFn: (v: { parentId: string; name: string }) => call(itemsApi.create, { params: { ws }, body: { kind: 'document', ...v } }), ...options }),
    rename: useMutation({ mutationFn: (v: { id: string; name: string }) => call(itemsApi.update, { params: { id: v.id }, body: { name: v.name } }), ...options }),
    trash: useMutation({ mutationFn: (id: string) => call(itemsApi.trash, { params: { id } }), ...options }),
    restore: useMutation({ mutationFn: (id: string) => call(itemsApi.restore, { params: { id } }), ...options }),
    purge: useMutation({ mutationFn: (id: string) => call(itemsApi.purge, { params: { id } }), ...options }),
    move: useMutation({ mutationFn: (v: { id: string; parentId: string }) => call(itemsApi.update, { params: { id: v.id }, body: { parentId: v.parentId } }), ...options }),
    copy: useMutation({ mutationFn: (v: { id: string; parentId: string }) => call(itemsApi.copy, { params: { id: v.id }, body: { parentId: v.parentId } }), ...options }),
    star: useMutation({ mutationFn: (v: { id: string; starred: boolean }) => call(v.starred ? itemsApi.star : itemsApi.unstar, { params: { id: v.id } }), ...options }),
    emptyTrash: useMutation({ mutationFn: () => call(itemsApi.emptyTrash, { params: { ws } }), ...options }),
  };
}
