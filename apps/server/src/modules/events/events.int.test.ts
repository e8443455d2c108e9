import type { TItemEvent } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

/** Reads a Server-Sent Events stream, collecting the item events as they come. */
async function watch(baseUrl: string, person: Person, workspaceId: string) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/v1/workspaces/${workspaceId}/events`, { headers: { authorization: `Bearer ${person.token}` }, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: TItemEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (data) events.push(JSON.parse(data.slice(6)) as TItemEvent);
      }
    }
  })();
  return {
    events,
    async until(predicate: (e: TItemEvent) => boolean, timeoutMs = 5000): Promise<TItemEvent> {
      const started = Date.now();
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        if (Date.now() - started > timeoutMs) throw new Error(`no such event; heard ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

describe('live events', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp();
    // On PostgreSQL a second instance shares the database: events cross instances through NOTIFY.
    b = a.db.database.kind === 'postgres' ? await startTestApp({}, { db: a.db }) : a;
  });
  afterAll(async () => {
    if (b !== a) await b.close();
    await a.close();
  });

  it('tells a watcher when items appear, change, move, go to the trash and come back — from any instance', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    const stream = await watch(b.url, bea, ada.workspace.id);
    const folder = await g.folder(ada, ada.workspace.rootId, 'Live');
    expect(await stream.until((e) => e.itemId === folder.id)).toEqual({ type: 'item.created', itemId: folder.id, parentIds: [ada.workspace.rootId] });
    const inner = await g.folder(ada, ada.workspace.rootId, 'Inner');
    await ada.call('PATCH', `/items/${inner.id}`, { parentId: folder.id });
    const moved = await stream.until((e) => e.type === 'item.updated' && e.itemId === inner.id);
    expect(moved.parentIds.sort()).toEqual([ada.workspace.rootId, folder.id].sort());
    await ada.call('POST', `/items/${inner.id}/trash`);
    await stream.until((e) => e.type === 'item.trashed' && e.itemId === inner.id);
    await ada.call('POST', `/items/${inner.id}/restore`);
    await stream.until((e) => e.type === 'item.restored' && e.itemId === inner.id);
    await stream.close();
  });

  it('tells nobody about folders they cannot see', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    const stream = await watch(a.url, bea, ada.workspace.id);
    const secret = await g.folder(ada, ada.workspace.homeId, 'Private');
    const visible = await g.folder(ada, ada.workspace.rootId, 'Public');
    await stream.until((e) => e.itemId === visible.id);
    expect(stream.events.some((e) => e.itemId === secret.id || e.parentIds.includes(ada.workspace.homeId))).toBe(false);
    await stream.close();
  });

  it('hears a burst of new files in the order they came, and only those it may see', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    const stream = await watch(b.url, bea, ada.workspace.id);
    const uploads = (parentId: string, prefix: string) => Array.from({ length: 10 }, (_, i) => ({ parentId, name: `${prefix}-${i}.txt`, size: 1 }));
    const started = await ada.call('POST', `/workspaces/${ada.workspace.id}/uploads/batch`, { uploads: [...uploads(ada.workspace.rootId, 'shared'), ...uploads(ada.workspace.homeId, 'private')] });
    const ids = (started.body.results as { upload: { id: string; parts: { url: string }[] } }[]).map((r) => r.upload);
    for (const u of ids) expect((await fetch(u.parts[0]!.url, { method: 'PUT', body: 'x' })).status).toBe(200);
    const done = await ada.call('POST', '/uploads/complete', { uploads: ids.map((u) => ({ id: u.id })) });
    const items = (done.body.results as { item: { id: string } }[]).map((r) => r.item.id);
    await stream.until((e) => e.itemId === items[9]);
    // Later changes arrive after the burst: the private files never do.
    const marker = await g.folder(ada, ada.workspace.rootId, 'After');
    await stream.until((e) => e.itemId === marker.id);
    const heard = stream.events.filter((e) => e.type === 'item.created' && e.itemId !== marker.id).map((e) => e.itemId);
    expect(heard).toEqual(items.slice(0, 10));
    await stream.close();
  });

  it('is not open to people outside the workspace', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const eve = await g.person();
    const res = await eve.call('GET', `/workspaces/${ada.workspace.id}/events`);
    expect(res.status).toBe(404);
  });
});
