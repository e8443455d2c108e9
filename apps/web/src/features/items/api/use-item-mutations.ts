import { itemsApi, type TActivityAction, type TItem } from '@cabinet/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { applyChange, foldersShowing } from '../../../lib/changes.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * Writes that change listings. Each answer goes through `applyChange`, as a live event would: the
 * item's entry is set from the answer and only the listings it touched are fetched again. Apart from
 * use-items.ts: the signed-in home reads items but writes none, and its first load goes without these.
 */
export function useItemMutations(ws: string) {
  const client = useQueryClient();
  const changed = (type: TActivityAction, item: TItem, also: (string | null | undefined)[] = []) =>
    applyChange(client, ws, { type, itemId: item.id, parentIds: [item.parentId, ...also], item });
  return {
    createFolder: useMutation({
      mutationFn: (v: { parentId: string; name: string }) => call(itemsApi.create, { params: { ws }, body: { kind: 'folder', ...v } }),
      onSuccess: (item) => changed('item.created', item),
    }),
    createDocument: useMutation({
      mutationFn: (v: { parentId: string; name: string }) => call(itemsApi.create, { params: { ws }, body: { kind: 'document', ...v } }),
      onSuccess: (item) => changed('item.created', item),
    }),
    rename: useMutation({
      mutationFn: (v: { id: string; name: string }) => call(itemsApi.update, { params: { id: v.id }, body: { name: v.name } }),
      onSuccess: (item) => changed('item.renamed', item),
    }),
    trash: useMutation({ mutationFn: (id: string) => call(itemsApi.trash, { params: { id } }), onSuccess: (item) => changed('item.trashed', item) }),
    restore: useMutation({
      mutationFn: (id: string) => call(itemsApi.restore, { params: { id } }),
      onSuccess: (result) => changed('item.restored', result.item),
    }),
    purge: useMutation({
      mutationFn: (id: string) => call(itemsApi.purge, { params: { id } }),
      onSuccess: (_void, id) => {
        client.removeQueries({ queryKey: queryKeys.item(id), exact: true });
        applyChange(client, ws, { type: 'item.deleted', itemId: id, parentIds: [] });
      },
    }),
    move: useMutation({
      mutationFn: (v: { id: string; parentId: string }) => call(itemsApi.update, { params: { id: v.id }, body: { parentId: v.parentId } }),
      // Where it was, read before the answer replaces the cached entry.
      onMutate: (v) => ({ from: foldersShowing(client, ws, v.id) }),
      onSuccess: (item, _v, context) => changed('item.moved', item, context?.from ?? []),
    }),
    copy: useMutation({
      mutationFn: (v: { id: string; parentId: string }) => call(itemsApi.copy, { params: { id: v.id }, body: { parentId: v.parentId } }),
      onSuccess: (item) => changed('item.created', item),
    }),
    // The lock's holder finds the file free to anyone; the lists and panels showing it draw it unlocked.
    breakLock: useMutation({
      mutationFn: (item: TItem) => call(itemsApi.breakLock, { params: { id: item.id } }),
      onSuccess: (_void, item) => {
        client.setQueryData<TItem>(queryKeys.item(item.id), (entry) => entry && { ...entry, lock: null });
        applyChange(client, ws, { type: 'item.unlocked', itemId: item.id, parentIds: [item.parentId] });
      },
    }),
    star: useMutation({
      mutationFn: (v: { id: string; starred: boolean }) => call(v.starred ? itemsApi.star : itemsApi.unstar, { params: { id: v.id } }),
      onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.starred(ws) }),
    }),
    emptyTrash: useMutation({
      mutationFn: () => call(itemsApi.emptyTrash, { params: { ws } }),
      onSuccess: () => Promise.all([queryKeys.trash(ws), queryKeys.workspaces].map((queryKey) => client.invalidateQueries({ queryKey }))),
    }),
  };
}
