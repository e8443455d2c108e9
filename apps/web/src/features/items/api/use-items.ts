import type { TItem } from '@cabinet/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

type Page = { items: TItem[]; nextCursor: string | null };

export const itemKeys = {
  item: (id: string) => ['item', id] as const,
  children: (ws: string, id: string) => ['children', ws, id] as const,
  ancestors: (id: string) => ['ancestors', id] as const,
  trash: (ws: string) => ['trash', ws] as const,
};

export function useItem(id: string | undefined) {
  return useQuery({ queryKey: itemKeys.item(id ?? ''), queryFn: () => api<TItem>('GET', `/items/${id}`), enabled: !!id });
}

export function useAncestors(id: string | undefined) {
  return useQuery({ queryKey: itemKeys.ancestors(id ?? ''), queryFn: async () => (await api<Page>('GET', `/items/${id}/ancestors`)).items, enabled: !!id });
}

/** Every child of a folder, following the keyset pages (the virtualized browser will page lazily). */
export function useChildren(ws: string, folderId: string | undefined) {
  return useQuery({
    queryKey: itemKeys.children(ws, folderId ?? ''),
    enabled: !!folderId,
    queryFn: async () => {
      const all: TItem[] = [];
      let cursor: string | null = null;
      do {
        const page: Page = await api<Page>('GET', `/workspaces/${ws}/items/${folderId}/children?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return all;
    },
  });
}

export function useTrash(ws: string) {
  return useQuery({ queryKey: itemKeys.trash(ws), queryFn: async () => (await api<Page>('GET', `/workspaces/${ws}/trash?limit=1000`)).items });
}

/** Writes that change listings: each refreshes the folders and the trash it touched. */
export function useItemMutations(ws: string) {
  const client = useQueryClient();
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: ['children', ws] }), client.invalidateQueries({ queryKey: itemKeys.trash(ws) })]);
  const options = { onSuccess: refresh };
  return {
    createFolder: useMutation({ mutationFn: (v: { parentId: string; name: string }) => api<TItem>('POST', `/workspaces/${ws}/items`, { kind: 'folder', ...v }), ...options }),
    rename: useMutation({ mutationFn: (v: { id: string; name: string }) => api<TItem>('PATCH', `/items/${v.id}`, { name: v.name }), ...options }),
    trash: useMutation({ mutationFn: (id: string) => api<TItem>('POST', `/items/${id}/trash`), ...options }),
    restore: useMutation({ mutationFn: (id: string) => api<{ item: TItem; restoredInto: 'original' | 'home' }>('POST', `/items/${id}/restore`), ...options }),
    purge: useMutation({ mutationFn: (id: string) => api<void>('DELETE', `/items/${id}`), ...options }),
    emptyTrash: useMutation({ mutationFn: () => api<{ deleted: number }>('POST', `/workspaces/${ws}/trash/empty`), ...options }),
  };
}
