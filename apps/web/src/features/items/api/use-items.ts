import type { TItem, TRestoreResult } from '@cabinet/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

type Page = { items: TItem[]; nextCursor: string | null };

export const itemKeys = {
  item: (id: string) => ['item', id] as const,
  children: (ws: string, id: string) => ['children', ws, id] as const,
  ancestors: (id: string) => ['ancestors', id] as const,
  trash: (ws: string) => ['trash', ws] as const,
  starred: (ws: string) => ['starred', ws] as const,
  recent: (ws: string) => ['recent', ws] as const,
};

export function useItem(id: string | undefined) {
  return useQuery({ queryKey: itemKeys.item(id ?? ''), queryFn: () => api<TItem>('GET', `/items/${id}`), enabled: !!id });
}

export function useAncestors(id: string | undefined) {
  return useQuery({ queryKey: itemKeys.ancestors(id ?? ''), queryFn: async () => (await api<Page>('GET', `/items/${id}/ancestors`)).items, enabled: !!id });
}

const PAGE = 200;

/** A folder's children, page by page (keyset cursors): the list asks for the next page as it scrolls near the end. */
export function useChildren(ws: string, folderId: string | undefined) {
  const query = useInfiniteQuery({
    queryKey: itemKeys.children(ws, folderId ?? ''),
    enabled: !!folderId,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => api<Page>('GET', `/workspaces/${ws}/items/${folderId}/children?limit=${PAGE}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

export function useStarred(ws: string) {
  return useQuery({ queryKey: itemKeys.starred(ws), queryFn: async () => (await api<{ items: TItem[] }>('GET', `/workspaces/${ws}/starred`)).items });
}

export function useRecent(ws: string) {
  return useQuery({ queryKey: itemKeys.recent(ws), queryFn: async () => (await api<{ items: TItem[] }>('GET', `/workspaces/${ws}/recent`)).items });
}

export function useTrash(ws: string) {
  return useQuery({ queryKey: itemKeys.trash(ws), queryFn: async () => (await api<Page>('GET', `/workspaces/${ws}/trash?limit=1000`)).items });
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
    createFolder: useMutation({ mutationFn: (v: { parentId: string; name: string }) => api<TItem>('POST', `/workspaces/${ws}/items`, { kind: 'folder', ...v }), ...options }),
    createDocument: useMutation({ mutationFn: (v: { parentId: string; name: string }) => api<TItem>('POST', `/workspaces/${ws}/items`, { kind: 'document', ...v }), ...options }),
    rename: useMutation({ mutationFn: (v: { id: string; name: string }) => api<TItem>('PATCH', `/items/${v.id}`, { name: v.name }), ...options }),
    trash: useMutation({ mutationFn: (id: string) => api<TItem>('POST', `/items/${id}/trash`), ...options }),
    restore: useMutation({ mutationFn: (id: string) => api<TRestoreResult>('POST', `/items/${id}/restore`), ...options }),
    purge: useMutation({ mutationFn: (id: string) => api<void>('DELETE', `/items/${id}`), ...options }),
    move: useMutation({ mutationFn: (v: { id: string; parentId: string }) => api<TItem>('PATCH', `/items/${v.id}`, { parentId: v.parentId }), ...options }),
    copy: useMutation({ mutationFn: (v: { id: string; parentId: string }) => api<TItem>('POST', `/items/${v.id}/copy`, { parentId: v.parentId }), ...options }),
    star: useMutation({ mutationFn: (v: { id: string; starred: boolean }) => api<void>(v.starred ? 'PUT' : 'DELETE', `/items/${v.id}/star`), ...options }),
    emptyTrash: useMutation({ mutationFn: () => api<{ deleted: number }>('POST', `/workspaces/${ws}/trash/empty`), ...options }),
  };
}
