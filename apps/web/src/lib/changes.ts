import type { TActivityAction, TGroupEvent, TItem } from '@cabinet/contracts';
import type { InfiniteData, Query, QueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys.ts';

/**
 * A change the browser learnt of: a live event from the workspace's stream, or this tab's own
 * write, whose answer (`item`) is then the item as it is now.
 */
export interface Change {
  type: TActivityAction;
  itemId: string;
  /** The folders whose listings it changed (the parent; for a move the old parent too). */
  parentIds: readonly (string | null | undefined)[];
  item?: TItem;
}

/** First loads that will be fetched again once they are in (one fetch more however many changes come meanwhile). */
const loadingAgain = new WeakSet<Query>();

/**
 * Marks the answers under `queryKey` stale, and fetches again those shown. A first load already on
 * its way may have been read before the change; the query library would hand its answer to the
 * change's refetch and then take it as fresh (it cancels a fetch in flight only for a query that
 * has data), so such a load is fetched once more when it is in. Without that, a file uploaded
 * while its folder's list first loaded stayed missing from the list until it went stale.
 */
function markStale(client: QueryClient, queryKey: readonly unknown[]): void {
  for (const loading of client.getQueryCache().findAll({ queryKey, fetchStatus: 'fetching' })) {
    if (loading.state.data !== undefined || loadingAgain.has(loading)) continue;
    loadingAgain.add(loading);
    const again = () => {
      loadingAgain.delete(loading);
      void client.invalidateQueries({ queryKey: loading.queryKey, exact: true });
    };
    loading.fetch().then(again, again);
  }
  void client.invalidateQueries({ queryKey });
}

/**
 * When searches are looked at again after a change the index reads in the background (texts and
 * access lists, ADR 0036): usually caught up by the first, the second for a slow moment.
 */
export const SEARCH_CATCH_UP_MS = [1500, 5000];
const catchingUp = new WeakMap<QueryClient, Set<string>>();

/**
 * Searches shown now are fetched again (those not shown are only marked stale: nothing is fetched
 * for them): at once, and when the change is one the index reads in the background, again a moment
 * later. While such looks are due, a change adds none: a burst of saves costs three.
 */
export function staleSearch(client: QueryClient, ws: string, o: { indexed: boolean }): void {
  const again = () => markStale(client, queryKeys.allSearch(ws));
  const pending = catchingUp.get(client) ?? new Set<string>();
  catchingUp.set(client, pending);
  if (pending.has(ws)) return;
  again();
  if (!o.indexed) return;
  pending.add(ws);
  for (const [i, ms] of SEARCH_CATCH_UP_MS.entries()) {
    setTimeout(() => {
      again();
      if (i === SEARCH_CATCH_UP_MS.length - 1) pending.delete(ws);
    }, ms);
  }
}

/**
 * The one mapping from a change to the cached answers it makes stale, used for live events, this
 * tab's own writes (which set their answer instead of fetching it again; the stream then skips
 * them by the tab's client id) and uploads.
 */
export function applyChange(client: QueryClient, ws: string, change: Change): void {
  const stale = (queryKey: readonly unknown[]) => markStale(client, queryKey);
  // Every change is one more entry in the activity record.
  stale(queryKeys.allActivity);
  if (change.type.startsWith('comment.')) return stale(queryKeys.comments(change.itemId));
  // A public link made, changed or used: its item's list of links and the workspace's (counts included); the item itself is as it was.
  if (change.type.startsWith('link.')) return stale(queryKeys.allLinks);
  for (const parentId of new Set(change.parentIds)) if (parentId) stale(queryKeys.children(ws, parentId));
  // An answer replaces the entry a page already shows; a page opening a new item fetches it as any page does.
  if (change.item && client.getQueryData(queryKeys.item(change.itemId))) client.setQueryData(queryKeys.item(change.itemId), change.item);
  else stale(queryKeys.item(change.itemId));
  // A lock broken changes nothing searched for.
  if (change.type === 'item.unlocked') return;
  // Names are searchable as they are written; texts (a saved document, a file's new version) and
  // who may see what (a share, a move, a restore) a moment later.
  staleSearch(client, ws, { indexed: change.type !== 'item.renamed' && change.type !== 'item.trashed' && change.type !== 'item.deleted' });
  switch (change.type) {
    case 'item.created':
    case 'item.deleted':
      // A file a file request's visitor sent counts on its link (ADR 0035).
      if (change.type === 'item.created') stale(queryKeys.allLinks);
      // The workspace's usage.
      stale(queryKeys.workspaces);
      stale(queryKeys.recent(ws));
      if (change.type === 'item.deleted') stale(queryKeys.trash(ws));
      break;
    case 'item.updated':
      stale(queryKeys.workspaces);
      stale(queryKeys.recent(ws));
      stale(queryKeys.starred(ws));
      stale(queryKeys.versions(change.itemId));
      stale(queryKeys.searchText(change.itemId));
      break;
    case 'item.renamed':
    case 'item.moved':
      // Paths below it show its new name or place; access lists name the folders it comes from.
      stale(queryKeys.allAncestors);
      stale(queryKeys.recent(ws));
      stale(queryKeys.starred(ws));
      stale(queryKeys.shared(ws));
      stale(queryKeys.allGrants);
      break;
    case 'item.trashed':
    case 'item.restored':
      stale(queryKeys.allAncestors);
      stale(queryKeys.trash(ws));
      stale(queryKeys.recent(ws));
      stale(queryKeys.starred(ws));
      stale(queryKeys.shared(ws));
      break;
    case 'file.previewed':
      // Its thumbnail is ready: the other lists showing it draw it.
      stale(queryKeys.recent(ws));
      stale(queryKeys.starred(ws));
      stale(queryKeys.shared(ws));
      break;
    case 'item.shared':
      // What the caller may do with it, and below it, may have changed; and who has access, here and below.
      stale(queryKeys.items);
      stale(queryKeys.allChildren(ws));
      stale(queryKeys.shared(ws));
      stale(queryKeys.allGrants);
      break;
  }
}

/** The person's notifications changed (made, or read in another tab): the bell reads them again. */
export function applyNotice(client: QueryClient): void {
  markStale(client, queryKeys.notifications);
}

/**
 * A change to the workspace's groups, from the live stream or this tab: the lists of groups and
 * their people, and who has access to an item (which names groups and their sizes). Someone added
 * to or taken out of a group, or a group deleted, changes what its people see: Shared with me,
 * what they may do with an item, and the folders they can open.
 */
export function applyGroupChange(client: QueryClient, ws: string, type: TGroupEvent['type']): void {
  const stale = (queryKey: readonly unknown[]) => markStale(client, queryKey);
  stale(queryKeys.allActivity);
  stale(queryKeys.allGroups(ws));
  stale(queryKeys.allGrants);
  if (type === 'group.created' || type === 'group.renamed') return;
  staleSearch(client, ws, { indexed: true });
  stale(queryKeys.shared(ws));
  stale(queryKeys.items);
  stale(queryKeys.allChildren(ws));
  stale(queryKeys.recent(ws));
  stale(queryKeys.starred(ws));
}

/** Changes may have been missed (a reconnect the server could not replay): everything of the workspace is looked at again. */
export function applyReset(client: QueryClient, ws: string): void {
  for (const queryKey of [
    queryKeys.allChildren(ws),
    queryKeys.items,
    queryKeys.allAncestors,
    queryKeys.trash(ws),
    queryKeys.starred(ws),
    queryKeys.recent(ws),
    queryKeys.shared(ws),
    queryKeys.allGrants,
    queryKeys.workspaces,
    queryKeys.allComments,
    queryKeys.allVersions,
    queryKeys.allActivity,
    queryKeys.notifications,
    queryKeys.allSearch(ws),
    queryKeys.allSearchText,
  ])
    markStale(client, queryKey);
}

/**
 * Every folder this tab shows an item in: its cached entry's parent, and each cached listing that
 * holds it. After a move all of them are looked at again, so a listing that was already stale
 * (someone else moved it first) is put right too.
 */
export function foldersShowing(client: QueryClient, ws: string, id: string): string[] {
  const parents = new Set<string>();
  const own = client.getQueryData<TItem>(queryKeys.item(id));
  if (own?.parentId) parents.add(own.parentId);
  for (const [key, data] of client.getQueriesData<InfiniteData<{ items: TItem[] }>>({ queryKey: queryKeys.allChildren(ws) })) {
    if (data?.pages.some((p) => p.items.some((i) => i.id === id))) parents.add(key[2] as string);
  }
  return [...parents];
}
