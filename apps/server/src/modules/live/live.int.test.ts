import { request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { eventsApi, groupsApi, itemsApi, membersApi, uploadsApi, urlOf } from '@cabinet/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watch } from '../../testing/event-watch.ts';
import { given } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

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
    expect(await stream.until((e) => e.itemId === folder.id)).toEqual({
      type: 'item.created',
      itemId: folder.id,
      parentIds: [ada.workspace.rootId],
      clientId: null,
    });
    const inner = await g.folder(ada, ada.workspace.rootId, 'Inner');
    await ada.call(itemsApi.update, { params: { id: inner.id }, body: { parentId: folder.id } });
    const moved = await stream.until((e) => e.type === 'item.moved' && e.itemId === inner.id);
    expect(moved.parentIds.sort()).toEqual([ada.workspace.rootId, folder.id].sort());
    await ada.call(itemsApi.trash, { params: { id: inner.id } });
    await stream.until((e) => e.type === 'item.trashed' && e.itemId === inner.id);
    await ada.call(itemsApi.restore, { params: { id: inner.id } });
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

  it('tells the members of a workspace, not its guests, when its groups change; the person who made the change hears it with their tab', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    const gus = await g.person();
    const ws = ada.workspace.id;
    await g.membership(bea, ws, 'member');
    await g.membership(gus, ws, 'guest');
    // A guest is in the workspace through what is shared with them.
    const shared = await g.folder(ada, ada.workspace.rootId, 'For the guest');
    await g.grant(shared.id, { user: gus }, 'viewer');
    const member = await watch(b.url, bea, ws);
    const guest = await watch(a.url, gus, ws);
    const own = await watch(a.url, ada, ws);
    const group = (await ada.call(groupsApi.create, { params: { ws }, body: { name: 'Crew' } }, { headers: { 'x-client-id': 'tab_0123456789' } })).body;
    await ada.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [bea.id] } });
    await ada.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: bea.id } });
    await ada.call(groupsApi.remove, { params: { ws, groupId: group.id } });
    // Made where everyone watching sees it: once it has come, so would anything before it.
    const marker = await g.folder(ada, shared.id, 'After the groups');
    for (const stream of [member, guest, own]) await stream.until((e) => e.itemId === marker.id);
    const heard = (s: typeof member) => s.groups.map((x) => x.type);
    await expect.poll(() => heard(member)).toEqual(['group.created', 'group.member_added', 'group.member_removed', 'group.deleted']);
    expect(member.groups[0]!.clientId).toBeNull();
    expect(own.groups[0]).toMatchObject({ type: 'group.created', clientId: 'tab_0123456789' });
    expect(heard(guest)).toEqual([]);
    for (const stream of [member, guest, own]) await stream.close();
  });

  it('hears a burst of new files in the order they came, and only those it may see', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    const stream = await watch(b.url, bea, ada.workspace.id);
    const uploads = (parentId: string, prefix: string) => Array.from({ length: 10 }, (_, i) => ({ parentId, name: `${prefix}-${i}.txt`, size: 1 }));
    const started = await ada.call(uploadsApi.startMany, {
      params: { ws: ada.workspace.id },
      body: {
        uploads: [...uploads(ada.workspace.rootId, 'shared'), ...uploads(ada.workspace.homeId, 'private')],
      },
    });
    const ids = started.body.results.flatMap((r) => ('upload' in r ? [r.upload] : []));
    expect(ids).toHaveLength(20);
    for (const u of ids) expect((await fetch(u.parts[0]!.url, { method: 'PUT', body: 'x' })).status).toBe(200);
    const done = await ada.call(uploadsApi.completeMany, { body: { uploads: ids.map((u) => ({ id: u.id })) } });
    const items = done.body.results.flatMap((r) => ('item' in r ? [r.item.id] : []));
    expect(items).toHaveLength(20);
    await stream.until((e) => e.itemId === items[9]);
    // Later changes arrive after the burst: the private files never do.
    const marker = await g.folder(ada, ada.workspace.rootId, 'After');
    await stream.until((e) => e.itemId === marker.id);
    const heard = stream.events.filter((e) => e.type === 'item.created' && e.itemId !== marker.id).map((e) => e.itemId);
    expect(heard).toEqual(items.slice(0, 10));
    await stream.close();
  });

  it("tells a watcher to look again when their own role in the workspace changes, not when someone else's does", async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    const cid = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    await g.membership(cid, ada.workspace.id, 'member');
    const stream = await watch(b.url, bea, ada.workspace.id);
    try {
      const first = await g.folder(ada, ada.workspace.rootId, 'First');
      await stream.until((e) => e.itemId === first.id);
      // What counts is what comes after the first change.
      const after = (id: number) => stream.order.slice(stream.order.indexOf(id) + 1);
      const firstId = stream.ids[stream.events.findIndex((e) => e.itemId === first.id)]!;
      expect((await ada.call(membersApi.update, { params: { ws: ada.workspace.id, userId: cid.id }, body: { role: 'admin' } })).status).toBe(200);
      const marker = await g.folder(ada, ada.workspace.rootId, 'Marker');
      await stream.until((e) => e.itemId === marker.id);
      expect(after(firstId)).not.toContain('reset');
      expect((await ada.call(membersApi.update, { params: { ws: ada.workspace.id, userId: bea.id }, body: { role: 'admin' } })).status).toBe(200);
      await expect.poll(() => after(firstId).includes('reset')).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('is not open to people outside the workspace', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const eve = await g.person();
    expect(await eve.call(eventsApi.stream, { params: { ws: ada.workspace.id } })).toFail('not_found');
  });

  it('says reset when it cannot know what a watcher missed, and replays what it missed when it can', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    // A change just before a first connection (a page read what it shows, then opened its stream):
    // the connection replays it, then says it is ready, with no reset to fetch everything again.
    const zero = await g.folder(ada, ada.workspace.rootId, 'Zero');
    const first = await watch(a.url, ada, ada.workspace.id);
    await first.ready();
    const one = await g.folder(ada, ada.workspace.rootId, 'One');
    await first.until((e) => e.itemId === one.id);
    expect(first.order).not.toContain('reset');
    const place = (id: string) => first.order.indexOf(first.ids[first.events.findIndex((e) => e.itemId === id && e.type === 'item.created')]!);
    expect(place(zero.id)).toBeGreaterThanOrEqual(0);
    expect(first.order.indexOf('ready')).toBeGreaterThan(place(zero.id));
    expect(first.order.indexOf('ready')).toBeLessThan(place(one.id));
    // The ready names the latest change then: coming back with it replays only what followed.
    const fromReady = await watch(b.url, ada, ada.workspace.id, first.readyId);
    const oneAndAHalf = await g.folder(ada, ada.workspace.rootId, 'One and a half');
    await fromReady.until((e) => e.itemId === oneAndAHalf.id);
    expect(fromReady.order).not.toContain('reset');
    expect(fromReady.events.map((e) => e.itemId)).toEqual([one.id, oneAndAHalf.id]);
    await fromReady.close();
    await first.until((e) => e.itemId === oneAndAHalf.id);
    const lastSeen = first.ids.at(-1)!;
    await first.close();
    // Changes while away, then a reconnect naming the last one seen: exactly the missed ones, in order, and no reset.
    const two = await g.folder(ada, ada.workspace.rootId, 'Two');
    await ada.call(itemsApi.update, { params: { id: two.id }, body: { name: 'Two (renamed)' } });
    const back = await watch(b.url, ada, ada.workspace.id, lastSeen);
    const three = await g.folder(ada, ada.workspace.rootId, 'Three');
    await back.until((e) => e.itemId === three.id);
    expect(back.order).not.toContain('reset');
    expect(back.events.map((e) => [e.type, e.itemId])).toEqual([
      ['item.created', two.id],
      ['item.renamed', two.id],
      ['item.created', three.id],
    ]);
    expect(back.ids).toEqual([...back.ids].sort((x, y) => x - y));
    await back.close();
    // Nothing worth replaying from a forged or absurd id: a reset.
    const forged = await watch(a.url, ada, ada.workspace.id, Number.MAX_SAFE_INTEGER);
    const four = await g.folder(ada, ada.workspace.rootId, 'Four');
    await forged.until((e) => e.itemId === four.id);
    expect(forged.order[0]).toBe('reset');
    await forged.close();
    // Any change of the record is a place to start from, whatever workspace it was in: a tab asleep
    // for hours gets what its workspace recorded since, when that is not too much.
    const bea = await g.person();
    const six = await g.folder(bea, bea.workspace.rootId, 'Six');
    const elsewhere = await watch(a.url, bea, bea.workspace.id, lastSeen);
    const seven = await g.folder(bea, bea.workspace.rootId, 'Seven');
    await elsewhere.until((e) => e.itemId === seven.id);
    expect(elsewhere.order).not.toContain('reset');
    expect(elsewhere.events.map((e) => e.itemId)).toEqual([six.id, seven.id]);
    await elsewhere.close();
    // More than 500 changes missed: fetching afresh beats replaying them.
    await sql`INSERT INTO activity_events (workspace_id, actor_kind, action, item_id, data)
      SELECT ${bea.workspace.id}, 'system', 'item.updated', ${six.id}, '{"parentIds":[]}'::jsonb FROM generate_series(1, 501)`.execute(a.ctx.db);
    const flooded = await watch(a.url, bea, bea.workspace.id, lastSeen);
    const eight = await g.folder(bea, bea.workspace.rootId, 'Eight');
    await flooded.until((e) => e.itemId === eight.id);
    expect(flooded.order[0]).toBe('reset');
    await flooded.close();
    // Where it left off is no longer in the record (pruned): what followed may be gone too.
    await a.ctx.db
      .deleteFrom('activity_events')
      .where('id', '<=', lastSeen + 1)
      .execute();
    const pruned = await watch(a.url, ada, ada.workspace.id, lastSeen);
    const nine = await g.folder(ada, ada.workspace.rootId, 'Nine');
    await pruned.until((e) => e.itemId === nine.id);
    expect(pruned.order[0]).toBe('reset');
    await pruned.close();
  });

  it('answers with the latest change it knew of, and a stream opened after it replays only what came later (ADR 0046)', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    // Changes just before the page reads its lists: the stream from where the answers stood sends none of them.
    const before = await g.folder(ada, ada.workspace.rootId, 'Before');
    const heard = async () => {
      const res = await fetch(`${b.url}/api/v1/workspaces/${ada.workspace.id}/items/${ada.workspace.rootId}/children`, {
        headers: { authorization: `Bearer ${bea.token}` },
      });
      expect(res.status).toBe(200);
      return Number(res.headers.get('last-change-id'));
    };
    const head = async () =>
      Number(
        (
          await a.ctx.db
            .selectFrom('activity_events')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      );
    // Until the instance has heard of every change so far (the folder, and the first use of Bea's token
    // on PostgreSQL's record of it), its answers name an earlier change, never a later one.
    await expect.poll(async () => (await heard()) === (await head())).toBe(true);
    const latest = await head();
    const page = await watch(a.url, bea, ada.workspace.id, undefined, { after: latest });
    expect(await page.ready()).toBe(latest);
    const later = await g.folder(ada, ada.workspace.rootId, 'Later');
    await page.until((e) => e.itemId === later.id);
    expect(page.events.map((e) => e.itemId)).toEqual([later.id]);
    expect(page.order).not.toContain('reset');
    await page.close();
    // From an answer before the folder was made: it is replayed, before ready.
    const made = await a.ctx.db
      .selectFrom('activity_events')
      .select('id')
      .where('item_id', '=', before.id)
      .where('action', '=', 'item.created')
      .executeTakeFirstOrThrow();
    const earlier = await watch(b.url, bea, ada.workspace.id, undefined, { after: Number(made.id) - 1 });
    expect(await earlier.ready()).toBeGreaterThanOrEqual(latest);
    expect(earlier.events[0]?.itemId).toBe(before.id);
    await earlier.close();
    // Not a number: refused as any bad input.
    const bad = await fetch(`${a.url}/api/v1/workspaces/${ada.workspace.id}/events?after=soon`, { headers: { authorization: `Bearer ${bea.token}` } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_input');
  });

  it('ends the stream when its caller may no longer watch: a token revoked, a membership ended', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    const revoked = await watch(a.url, ada, ada.workspace.id);
    const removed = await watch(b.url, bea, ada.workspace.id);
    const stays = await watch(a.url, ada, ada.workspace.id);
    const settled = (p: Promise<void>) => Promise.race([p.then(() => 'ended'), new Promise((r) => setTimeout(() => r('open'), 5000))]);

    await a.ctx.db.deleteFrom('memberships').where('workspace_id', '=', ada.workspace.id).where('user_id', '=', bea.id).execute();
    expect(await settled(removed.ended)).toBe('ended');
    // Ada's own stream stays while nothing of hers changed; revoking her token ends it.
    expect(await Promise.race([stays.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('open'), 300))])).toBe('open');
    await a.ctx.db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('user_id', '=', ada.id).execute();
    expect(await settled(revoked.ended)).toBe('ended');
    expect(await settled(stays.ended)).toBe('ended');
  });

  it('lets a stream go as soon as its caller does, even one opened with a body it never reads', async () => {
    const ada = await given(a.ctx, a.url).person();
    // The server's end of the next connection: it closes once the server has seen the caller go.
    const serverSide = new Promise<Socket>((resolve) => a.app.server.once('connection', resolve));
    const opened = new Promise<IncomingMessage>((resolve, reject) => {
      const body = 'x'.repeat(2_000_000);
      const req = request(`${a.url}${urlOf(eventsApi.stream, { ws: ada.workspace.id }, {})}`, {
        headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json', 'content-length': String(body.length) },
        agent: false,
      });
      req.on('response', resolve).on('error', reject);
      req.end(body);
    });
    const res = await opened;
    expect(res.statusCode).toBe(200);
    const socket = await serverSide;
    const closed = new Promise((resolve) => socket.once('close', () => resolve('closed')));
    res.destroy();
    // Well before the first keepalive (25 s) would have found the socket dead.
    expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r('still open'), 5000))])).toBe('closed');
  });

  it('ends its open streams when the server closes, rather than waiting for their browsers to go', async () => {
    const stopping = await startTestApp({}, { db: a.db });
    const ada = await given(stopping.ctx, stopping.url).person();
    const stream = await watch(stopping.url, ada, ada.workspace.id);
    const closed = stopping.close().then(() => 'closed');
    expect(await Promise.race([closed, new Promise((r) => setTimeout(() => r('still closing'), 10_000))])).toBe('closed');
    await stream.ended;
  });

  it('tells the browser tab that made a change which one it was (X-Client-Id), and keeps a malformed one out', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person();
    const stream = await watch(a.url, ada, ada.workspace.id);
    const mine = await ada.call(
      itemsApi.create,
      { params: { ws: ada.workspace.id }, body: { kind: 'folder', name: 'Mine', parentId: ada.workspace.rootId } },
      { headers: { 'x-client-id': 'tab_0123456789' } },
    );
    expect((await stream.until((e) => e.itemId === mine.body.id)).clientId).toBe('tab_0123456789');
    const odd = await ada.call(
      itemsApi.create,
      { params: { ws: ada.workspace.id }, body: { kind: 'folder', name: 'Odd', parentId: ada.workspace.rootId } },
      { headers: { 'x-client-id': 'x"><script>' } },
    );
    expect((await stream.until((e) => e.itemId === odd.body.id)).clientId).toBeNull();
    await stream.close();
    // Someone else never learns a tab's name, nor hides their changes from that tab by borrowing it.
    const bea = await g.person();
    await g.membership(bea, ada.workspace.id, 'member');
    const theirs = await watch(a.url, bea, ada.workspace.id);
    const seen = await ada.call(
      itemsApi.create,
      { params: { ws: ada.workspace.id }, body: { kind: 'folder', name: 'Seen', parentId: ada.workspace.rootId } },
      { headers: { 'x-client-id': 'tab_0123456789' } },
    );
    expect((await theirs.until((e) => e.itemId === seen.body.id)).clientId).toBeNull();
    const adas = await watch(a.url, ada, ada.workspace.id);
    const borrowed = await bea.call(
      itemsApi.create,
      { params: { ws: ada.workspace.id }, body: { kind: 'folder', name: 'Borrowed', parentId: ada.workspace.rootId } },
      { headers: { 'x-client-id': 'tab_0123456789' } },
    );
    expect((await adas.until((e) => e.itemId === borrowed.body.id)).clientId).toBeNull();
    await theirs.close();
    await adas.close();
  });
});
