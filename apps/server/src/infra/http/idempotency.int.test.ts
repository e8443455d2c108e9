import { itemsApi, linksApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import type { Person } from '../../testing/given.ts';
import { invalidFields } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { KEY_LIFETIME_MS, pruneIdempotencyKeys } from './idempotency.ts';

// Run on PostgreSQL too (BOTH_DATABASES): two requests with one key there race on a pool's connections.
const test = useTestApp({ LOG_LEVEL: 'error' });

const tokenOf = (url: string) => url.split('/s/')[1]!;

describe('a creation made once (Idempotency-Key), as making a link shows', () => {
  const once = (key: string) => ({ headers: { 'idempotency-key': key } });
  const linksOf = async (person: Person, itemId: string) => (await person.call(linksApi.list, { params: { id: itemId } })).body.items;

  it('answers a retried request with the first answer, making nothing new; another key makes another link', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Retried');
    const body = { kind: 'view', downloadAllowed: false } as const;
    const first = await owner.call(linksApi.create, { params: { id: folder.id }, body }, once('click-1'));
    const again = await owner.call(linksApi.create, { params: { id: folder.id }, body }, once('click-1'));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect([first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')]).toEqual([null, 'true']);
    expect(await linksOf(owner, folder.id)).toHaveLength(1);
    const events = await test.app.ctx.db
      .selectFrom('activity_events')
      .select('id')
      .where('item_id', '=', folder.id)
      .where('action', '=', 'link.created')
      .execute();
    expect(events).toHaveLength(1);

    const other = await owner.call(linksApi.create, { params: { id: folder.id }, body }, once('click-2'));
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
    // The key is the caller's own: another token of the same person, or another person, is another caller.
    const sameKeyOtherToken = await (await test.given.readOnly(owner)).call(linksApi.create, { params: { id: folder.id }, body }, once('click-1'));
    expect(sameKeyOtherToken).toFail('forbidden');
    expect(await linksOf(owner, folder.id)).toHaveLength(2);
    // What is kept of the answer (it holds the link's address) is sealed, never in the clear.
    const kept = await test.app.ctx.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'click-1').execute();
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept)).not.toContain(tokenOf(first.body.url!));
  });

  it('makes one link for two requests sent at once with one key, both answered with it', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Double-clicked');
    const [a, b] = await Promise.all(
      [0, 1].map(() => owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } }, once('double-click'))),
    );
    expect([a!.status, b!.status]).toEqual([201, 201]);
    expect(a!.body).toEqual(b!.body);
    expect(await linksOf(owner, folder.id)).toHaveLength(1);
  });

  it('refuses a key used before for another request (invalid_input), and forgets a key whose request failed', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Reused');
    expect((await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } }, once('reused'))).status).toBe(201);
    const otherBody = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', downloadAllowed: false } }, once('reused'));
    expect(otherBody).toFail('invalid_input');
    expect(invalidFields(otherBody).map((f) => f.path)).toEqual(['headers.idempotency-key']);
    const otherItem = await test.given.folder(owner, owner.workspace.rootId, 'Elsewhere');
    expect(await owner.call(linksApi.create, { params: { id: otherItem.id }, body: { kind: 'view' } }, once('reused'))).toFail('invalid_input');
    expect(await linksOf(owner, folder.id)).toHaveLength(1);
    expect(await linksOf(owner, otherItem.id)).toHaveLength(0);

    // Refused while links are off: nothing was made, and the same request later is made afresh.
    await owner.call(linksApi.updatePolicy, { params: { ws: owner.workspace.id }, body: { linksAllowed: false } });
    expect(await owner.call(linksApi.create, { params: { id: otherItem.id }, body: { kind: 'view' } }, once('after-policy'))).toFail('forbidden');
    await owner.call(linksApi.updatePolicy, { params: { ws: owner.workspace.id }, body: { linksAllowed: true } });
    expect((await owner.call(linksApi.create, { params: { id: otherItem.id }, body: { kind: 'view' } }, once('after-policy'))).status).toBe(201);

    // A day on, the key is forgotten (its job prunes it): the same request makes a new link.
    const dayAgo = new Date(Date.now() - KEY_LIFETIME_MS - 60_000);
    await test.app.ctx.db.updateTable('idempotency_keys').set({ created_at: dayAgo }).where('key', '=', 'reused').execute();
    expect(await pruneIdempotencyKeys(test.app.ctx.db)).toBeGreaterThanOrEqual(1);
    expect((await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } }, once('reused'))).status).toBe(201);
    expect(await linksOf(owner, folder.id)).toHaveLength(2);

    for (const key of ['', 'x'.repeat(256), 'not ascii é']) {
      const bad = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } }, once(key));
      expect(bad).toFail('invalid_input');
      expect(invalidFields(bad).map((f) => f.path)).toEqual(['headers.idempotency-key']);
    }
  });

  it('holds for every call that makes something: a folder sent twice with one key is made once', async () => {
    const owner = await test.given.person();
    const body = { kind: 'folder', name: 'Made once', parentId: owner.workspace.homeId } as const;
    const made = await Promise.all([0, 1].map(() => owner.call(itemsApi.create, { params: { ws: owner.workspace.id }, body }, once('new-folder'))));
    expect(made.map((m) => m.status)).toEqual([201, 201]);
    expect(made[1]!.body.id).toBe(made[0]!.body.id);
    const again = await owner.call(itemsApi.create, { params: { ws: owner.workspace.id }, body }, once('new-folder'));
    expect(again.body.id).toBe(made[0]!.body.id);
    const children = await owner.call(itemsApi.children, { params: { ws: owner.workspace.id, id: owner.workspace.homeId } });
    expect(children.body.items.filter((i) => i.name === 'Made once')).toHaveLength(1);
  });
});
