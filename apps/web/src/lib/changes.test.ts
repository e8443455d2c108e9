import type { TItem } from '@cabinet/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyChange, applyGroupChange, applyNotice, applyReset, foldersShowing, SEARCH_CATCH_UP_MS } from './changes.ts';
import { queryKeys } from './query-keys.ts';

const ws = 'ws-1';
const item = (id: string, parentId: string, name = id) => ({ id, parentId, name, kind: 'folder' }) as unknown as TItem;

/** A cache holding what a workspace page shows; `stale()` lists the keys a change marked for fetching again. */
function cache() {
  const client = new QueryClient();
  const keys = [
    queryKeys.children(ws, 'root'),
    queryKeys.children(ws, 'a'),
    queryKeys.children(ws, 'b'),
    queryKeys.item('x'),
    queryKeys.item('y'),
    queryKeys.ancestors('x'),
    queryKeys.trash(ws),
    queryKeys.starred(ws),
    queryKeys.recent(ws),
    queryKeys.workspaces,
    queryKeys.comments('doc'),
    queryKeys.versions('x'),
  ];
  for (const key of keys) client.setQueryData(key, { cached: true });
  const stale = () =>
    client
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => q.queryKey.join('/'))
      .sort();
  return { client, stale };
}

describe('applyChange', () => {
  it('marks the item’s history and the audit log stale on every change, comments included', () => {
    for (const type of ['comment.added', 'item.renamed'] as const) {
      const client = new QueryClient();
      client.setQueryData(queryKeys.itemActivity('x'), { cached: true });
      client.setQueryData(queryKeys.workspaceActivity(ws, {}), { cached: true });
      applyChange(client, ws, { type, itemId: 'x', parentIds: [] });
      const stale = client
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.isInvalidated)
        .map((q) => q.queryKey.slice(0, 3).join('/'));
      expect(stale.sort()).toEqual(['activity/item/x', `activity/workspace/${ws}`]);
    }
  });

  it('sets the answer of this tab’s own write and fetches only the listings it touched', () => {
    const { client, stale } = cache();
    const moved = item('x', 'b', 'Moved');
    applyChange(client, ws, { type: 'item.moved', itemId: 'x', parentIds: ['a', 'b'], item: moved });
    expect(client.getQueryData(queryKeys.item('x'))).toEqual(moved);
    expect(stale()).toEqual(['ancestors/x', 'children/ws-1/a', 'children/ws-1/b', 'recent/ws-1', 'starred/ws-1']);
  });

  it('draws a lock broken where the item shows: its folder and the item, nothing searched for', () => {
    const { client, stale } = cache();
    client.setQueryData(queryKeys.search(ws, { q: 'x' }), { cached: true });
    applyChange(client, ws, { type: 'item.unlocked', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['children/ws-1/a', 'item/x']);
  });

  it('fetches the item again when a live event carries no answer', () => {
    const { client, stale } = cache();
    applyChange(client, ws, { type: 'item.trashed', itemId: 'x', parentIds: ['root'] });
    expect(stale()).toEqual(['ancestors/x', 'children/ws-1/root', 'item/x', 'recent/ws-1', 'starred/ws-1', 'trash/ws-1']);
  });

  it('counts usage again when files come or go, and versions when content changes', () => {
    const { client, stale } = cache();
    applyChange(client, ws, { type: 'item.updated', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['children/ws-1/a', 'item/x', 'recent/ws-1', 'starred/ws-1', 'versions/x', 'workspaces']);
  });

  it('draws a thumbnail made: the item where its folder, Recent and Starred show it, not the usage or versions', () => {
    const { client, stale } = cache();
    applyChange(client, ws, { type: 'file.previewed', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['children/ws-1/a', 'item/x', 'recent/ws-1', 'starred/ws-1']);
  });

  it('looks again at Shared with me, and at who has access to the item and what is below it, when a share changes', () => {
    const { client, stale } = cache();
    for (const key of [queryKeys.shared(ws), queryKeys.grants('x'), queryKeys.grants('below-x')]) client.setQueryData(key, { cached: true });
    applyChange(client, ws, { type: 'item.shared', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['children/ws-1/a', 'children/ws-1/b', 'children/ws-1/root', 'grants/below-x', 'grants/x', 'item/x', 'item/y', 'shared/ws-1']);
  });

  it('touches only the comments for a comment', () => {
    const { client, stale } = cache();
    applyChange(client, ws, { type: 'comment.added', itemId: 'doc', parentIds: ['a'] });
    expect(stale()).toEqual(['comments/doc']);
  });

  it('looks at every item again when sharing changed what the caller may do', () => {
    const { client, stale } = cache();
    applyChange(client, ws, { type: 'item.shared', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['children/ws-1/a', 'children/ws-1/b', 'children/ws-1/root', 'item/x', 'item/y']);
  });

  it('fetches everything of the workspace again on a reset', () => {
    const { client, stale } = cache();
    applyReset(client, ws);
    expect(stale()).toHaveLength(12);
  });

  it('counts a new file on the link it came through, with the workspace’s usage and the recent items', () => {
    const { client, stale } = cache();
    for (const key of [queryKeys.links('x'), queryKeys.workspaceLinks(ws)]) client.setQueryData(key, { cached: true });
    applyChange(client, ws, { type: 'item.created', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['children/ws-1/a', 'item/x', 'links/workspace/ws-1', 'links/x', 'recent/ws-1', 'workspaces']);
  });

  it('frees the usage and empties the trash’s entry when an item is deleted for good', () => {
    const { client, stale } = cache();
    applyChange(client, ws, { type: 'item.deleted', itemId: 'x', parentIds: ['root'] });
    expect(stale()).toEqual(['children/ws-1/root', 'item/x', 'recent/ws-1', 'trash/ws-1', 'workspaces']);
  });

  it('puts paths, the trash and the lists that show an item right when it comes back', () => {
    const { client, stale } = cache();
    client.setQueryData(queryKeys.shared(ws), { cached: true });
    applyChange(client, ws, { type: 'item.restored', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['ancestors/x', 'children/ws-1/a', 'item/x', 'recent/ws-1', 'shared/ws-1', 'starred/ws-1', 'trash/ws-1']);
  });

  it('looks again at the paths and access lists that name a renamed item, not at the usage', () => {
    const { client, stale } = cache();
    for (const key of [queryKeys.shared(ws), queryKeys.grants('below-x')]) client.setQueryData(key, { cached: true });
    applyChange(client, ws, { type: 'item.renamed', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['ancestors/x', 'children/ws-1/a', 'grants/below-x', 'item/x', 'recent/ws-1', 'shared/ws-1', 'starred/ws-1']);
  });

  it('touches only the lists of links when a public link is made, changed or used', () => {
    for (const type of ['link.created', 'link.viewed', 'link.revoked'] as const) {
      const { client, stale } = cache();
      for (const key of [queryKeys.links('x'), queryKeys.workspaceLinks(ws)]) client.setQueryData(key, { cached: true });
      applyChange(client, ws, { type, itemId: 'x', parentIds: ['a'] });
      expect(stale()).toEqual(['links/workspace/ws-1', 'links/x']);
    }
  });

  it('looks once at each folder a change names, and at none for a change in the top of a tree', () => {
    const { client, stale } = cache();
    applyChange(client, ws, { type: 'item.renamed', itemId: 'x', parentIds: [null, undefined, 'b', 'b'] });
    expect(stale().filter((key) => key.startsWith('children/'))).toEqual(['children/ws-1/b']);
  });

  it('puts an answer only where a page shows its item: an item no page shows is fetched when one opens it', () => {
    const { client } = cache();
    applyChange(client, ws, { type: 'item.created', itemId: 'new', parentIds: ['a'], item: item('new', 'a') });
    expect(client.getQueryData(queryKeys.item('new'))).toBeUndefined();
  });
});

describe('a change while a list first loads', () => {
  it('fetches the list again once the load read before the change is in, instead of taking that load as fresh', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } });
    // The server's list: before the upload completes, and after.
    let stored = ['Agenda'];
    const answers: ((names: string[]) => void)[] = [];
    const observer = new QueryObserver(client, {
      queryKey: queryKeys.children(ws, 'root'),
      queryFn: () => {
        const read = [...stored];
        return new Promise<string[]>((resolve) => answers.push(() => resolve(read)));
      },
    });
    const shown: (string[] | undefined)[] = [];
    const unsubscribe = observer.subscribe((result) => shown.push(result.data));
    // The first load is read before the upload completes, and answers after the change was applied.
    expect(answers).toHaveLength(1);
    stored = ['Agenda', 'report.txt'];
    applyChange(client, ws, { type: 'item.created', itemId: 'r', parentIds: ['root'], item: item('r', 'root', 'report.txt') });
    answers[0]!([]);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!([]);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(['Agenda', 'report.txt']));
    // What the list showed, each answer once: the stale one, then the one after the change.
    expect(shown.filter((data, i) => data && JSON.stringify(data) !== JSON.stringify(shown[i - 1]))).toEqual([['Agenda'], ['Agenda', 'report.txt']]);
    unsubscribe();
  });

  it('fetches a first load once more however many changes come while it is on its way', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } });
    const answers: ((n: number) => void)[] = [];
    const observer = new QueryObserver(client, {
      queryKey: queryKeys.children(ws, 'root'),
      queryFn: () => new Promise<number>((resolve) => answers.push(resolve)),
    });
    const unsubscribe = observer.subscribe(() => {});
    for (const id of ['a', 'b', 'c']) applyChange(client, ws, { type: 'item.created', itemId: id, parentIds: ['root'] });
    answers[0]!(1);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!(2);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(2));
    expect(answers).toHaveLength(2);
    unsubscribe();
  });

  it('fetches a list that already has an answer once after a change, as any change does', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } });
    let reads = 0;
    const observer = new QueryObserver(client, { queryKey: queryKeys.children(ws, 'root'), queryFn: async () => ++reads });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(1));
    applyChange(client, ws, { type: 'item.created', itemId: 'r', parentIds: ['root'] });
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe(2));
    expect(reads).toBe(2);
    unsubscribe();
  });
});

describe('applyNotice', () => {
  it('reads the person’s notifications again, and nothing else', () => {
    const { client, stale } = cache();
    client.setQueryData(queryKeys.notifications, { cached: true });
    client.setQueryData(queryKeys.notificationSettings, { cached: true });
    applyNotice(client);
    expect(stale()).toEqual(['notifications/list']);
  });
});

describe('applyReset', () => {
  it('looks again at everything a change could have touched, in this workspace alone, and not at who the person is', () => {
    const client = new QueryClient();
    const touched = [
      queryKeys.children(ws, 'a'),
      queryKeys.item('x'),
      queryKeys.shared(ws),
      queryKeys.grants('x'),
      queryKeys.versions('x'),
      queryKeys.comments('doc'),
      queryKeys.notifications,
      queryKeys.itemActivity('x'),
      queryKeys.search(ws, { q: 'plan' }),
      queryKeys.searchText('x'),
    ];
    const untouched = [queryKeys.children('ws-2', 'other'), queryKeys.trash('ws-2'), queryKeys.search('ws-2', { q: 'plan' }), queryKeys.me, queryKeys.config];
    for (const key of [...touched, ...untouched]) client.setQueryData(key, { cached: true });
    applyReset(client, ws);
    const isStale = (key: readonly unknown[]) => !!client.getQueryState(key)?.isInvalidated;
    expect(touched.filter((key) => !isStale(key))).toEqual([]);
    expect(untouched.filter(isStale)).toEqual([]);
  });
});

describe('applyGroupChange', () => {
  const withGroups = () => {
    const c = cache();
    for (const key of [queryKeys.shared(ws), queryKeys.grants('x'), queryKeys.groups(ws), queryKeys.groupMembers(ws, 'g')])
      c.client.setQueryData(key, { cached: true });
    return c;
  };

  it('looks again at the groups and at who has access when a group is made or renamed, not at what anyone sees', () => {
    const { client, stale } = withGroups();
    applyGroupChange(client, ws, 'group.renamed');
    expect(stale()).toEqual(['grants/x', 'groups/ws-1/list', 'groups/ws-1/members/g']);
  });

  it('looks again at Shared with me and at what the caller may open when someone joins or leaves a group, or it is deleted', () => {
    for (const type of ['group.member_added', 'group.member_removed', 'group.deleted'] as const) {
      const { client, stale } = withGroups();
      applyGroupChange(client, ws, type);
      expect(stale()).toEqual([
        'children/ws-1/a',
        'children/ws-1/b',
        'children/ws-1/root',
        'grants/x',
        'groups/ws-1/list',
        'groups/ws-1/members/g',
        'item/x',
        'item/y',
        'recent/ws-1',
        'shared/ws-1',
        'starred/ws-1',
      ]);
    }
  });
});

describe('searches after a change', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  /**
   * A cache with a search of this workspace, one of another workspace, and a file's text state;
   * `stale()` names those marked stale since it was last asked (and makes them fresh again).
   */
  function searches() {
    const client = new QueryClient();
    const keys = {
      here: queryKeys.search(ws, { q: 'plan', limit: 8 }),
      there: queryKeys.search('ws-2', { q: 'plan', limit: 8 }),
      text: queryKeys.searchText('x'),
    };
    const fresh = () => Object.values(keys).forEach((key) => client.setQueryData(key, { cached: true }));
    fresh();
    const stale = () => {
      const names = Object.entries(keys)
        .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
        .map(([name]) => name);
      fresh();
      return names;
    };
    return { client, stale };
  }

  it('marks the workspace’s searches stale at once, and again as the index catches up with a saved text, once for a burst of changes', () => {
    vi.useFakeTimers();
    const { client, stale } = searches();
    applyChange(client, ws, { type: 'item.updated', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['here', 'text']);
    // A second change while looks are due adds none of its own.
    applyChange(client, ws, { type: 'item.updated', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['text']);
    let now = 0;
    for (const ms of SEARCH_CATCH_UP_MS) {
      vi.advanceTimersByTime(ms - 1 - now);
      expect(stale()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(stale()).toEqual(['here']);
      now = ms;
    }
    vi.advanceTimersByTime(60_000);
    expect(stale()).toEqual([]);
  });

  it('looks once at a rename, which the index has as soon as it is written, and not at all at a comment', () => {
    vi.useFakeTimers();
    const { client, stale } = searches();
    applyChange(client, ws, { type: 'item.renamed', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['here']);
    applyChange(client, ws, { type: 'comment.added', itemId: 'x', parentIds: ['a'] });
    vi.advanceTimersByTime(60_000);
    expect(stale()).toEqual([]);
  });

  it('keeps each workspace’s looks apart: a burst in one does not hold back a change in another', () => {
    vi.useFakeTimers();
    const { client, stale } = searches();
    applyChange(client, ws, { type: 'item.updated', itemId: 'x', parentIds: ['a'] });
    expect(stale()).toEqual(['here', 'text']);
    applyChange(client, 'ws-2', { type: 'item.renamed', itemId: 'y', parentIds: ['b'] });
    expect(stale()).toEqual(['there']);
    // Another tab's cache (another client) has looks of its own.
    const other = searches();
    applyChange(other.client, ws, { type: 'item.renamed', itemId: 'x', parentIds: ['a'] });
    expect(other.stale()).toEqual(['here']);
  });

  it('looks again when someone joins or leaves a group (not when one is renamed), and everything on a reset', () => {
    vi.useFakeTimers();
    const { client, stale } = searches();
    applyGroupChange(client, ws, 'group.renamed');
    expect(stale()).toEqual([]);
    applyGroupChange(client, ws, 'group.member_removed');
    expect(stale()).toEqual(['here']);
    applyReset(client, ws);
    expect(stale()).toEqual(['here', 'text']);
  });
});

describe('foldersShowing', () => {
  it('names every folder a tab shows an item in, a stale listing too, so a move puts each right', () => {
    const client = new QueryClient();
    const page = (...items: TItem[]) => ({ pages: [{ items, nextCursor: null }], pageParams: [null] });
    // Someone else moved x from a to b; this tab's entry and a's listing have not heard yet.
    client.setQueryData(queryKeys.item('x'), item('x', 'a'));
    client.setQueryData(queryKeys.children(ws, 'a'), page(item('x', 'a')));
    client.setQueryData(queryKeys.children(ws, 'b'), page(item('x', 'b'), item('y', 'b')));
    client.setQueryData(queryKeys.children(ws, 'c'), page(item('z', 'c')));
    expect(foldersShowing(client, ws, 'x').sort()).toEqual(['a', 'b']);
    expect(foldersShowing(client, ws, 'z')).toEqual(['c']);
    expect(foldersShowing(client, ws, 'nowhere')).toEqual([]);
  });
});
