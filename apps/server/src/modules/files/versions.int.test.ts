import { itemsApi, uploadsApi, versionsApi, workspacesApi, type TFileVersion } from '@cabinet/contracts';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createJobRunner } from '../../jobs.ts';
import { putParts, sha256Hex, type Person } from '../../testing/given.ts';
import { storageDrivers, storageSettings } from '../../testing/test-s3.ts';
import { freePort, useTestApp } from '../../testing/test-app.ts';
import { proofOf } from './dedup.ts';
import { pruneOldVersions } from './versions.service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Versions people manage (ADR 0041) and instant re-uploads (ADR 0042), on every storage driver. */
describe.each(storageDrivers())('versions and instant re-uploads on %s', (_name, driver) => {
  const test = useTestApp(async () => {
    const port = await freePort();
    return { ...(await storageSettings(driver, port)), PORT: String(port), UPLOAD_PART_SIZE: '5MiB', MAX_FILE_SIZE: '64MiB' };
  });
  const db = () => test.app.ctx.db;
  const runJobs = () => createJobRunner(test.app.ctx).runDue();
  const usage = async (p: Person) => (await p.call(workspacesApi.get, { params: { ws: p.workspace.id } })).body.usedBytes!;
  const versions = async (p: Person, id: string): Promise<TFileVersion[]> => (await p.call(versionsApi.list, { params: { id } })).body.items;
  const blobOf = async (versionId: string) =>
    (await db().selectFrom('file_versions').select('blob_key').where('id', '=', versionId).executeTakeFirstOrThrow()).blob_key;
  const download = async (p: Person, itemId: string, versionId?: string) => {
    const redirect = await fetch(`${test.app.url}/api/v1/items/${itemId}/content${versionId ? `?version=${versionId}` : ''}`, {
      headers: { authorization: `Bearer ${p.token}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    return Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
  };
  /** A new version of a file through the real protocol. */
  const uploadVersion = async (p: Person, id: string, bytes: Buffer) => {
    const start = await p.call(versionsApi.start, { params: { id }, body: { size: bytes.length } });
    expect(start.status).toBe(201);
    await putParts(p, start.body, bytes);
    const done = await p.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(done.status).toBe(200);
    return done.body;
  };
  /** A file with two versions in a shared folder of Ada's workspace; Bea a member (editor there), Cy a viewer through a grant. */
  const team = async () => {
    const ada = await test.given.person('Ada Manager');
    const bea = await test.given.person('Bea Editor');
    const cy = await test.given.person('Cy Viewer');
    await test.given.membership(bea, ada.workspace.id, 'member');
    await test.given.membership(cy, ada.workspace.id, 'member');
    const folder = await test.given.folder(ada, ada.workspace.rootId, `Team ${Math.random().toString(36).slice(2, 7)}`);
    const one = Buffer.from('line one\nline two\n');
    const two = Buffer.from('line one\nline 2\nline three\n');
    const file = (await test.given.upload(ada, folder.id, 'notes.txt', one)).body.item;
    await uploadVersion(bea, file.id, two);
    return { ada, bea, cy, folder, file, one, two };
  };

  it('lists versions with their author’s name, size, SHA-256 and name; editors name and unname them, viewers may not', async () => {
    const { ada, bea, file, one, two } = await team();
    const viewer = await test.given.person('Dee Viewer');
    await test.given.grant(file.id, { user: viewer }, 'viewer');
    await test.given.membership(viewer, ada.workspace.id, 'guest');
    const [v2, v1] = await versions(ada, file.id);
    expect(v2).toMatchObject({ number: 2, current: true, authorName: 'Bea Editor', name: null, pinned: false, size: two.length, sha256: sha256Hex(two) });
    expect(v1).toMatchObject({ number: 1, current: false, authorName: 'Ada Manager', size: one.length, sha256: sha256Hex(one) });

    const named = await bea.call(versionsApi.update, { params: { id: file.id, versionId: v1!.id }, body: { name: '  First draft ' } });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ id: v1!.id, name: 'First draft', pinned: true, authorName: 'Ada Manager' });
    expect((await versions(viewer, file.id))[1]).toMatchObject({ name: 'First draft', pinned: true });
    expect(await viewer.call(versionsApi.update, { params: { id: file.id, versionId: v1!.id }, body: { name: 'Mine' } })).toFail('forbidden');
    expect(await bea.call(versionsApi.update, { params: { id: file.id, versionId: v1!.id }, body: { name: ' ' } })).toFail('invalid_input');
    const cleared = await bea.call(versionsApi.update, { params: { id: file.id, versionId: v1!.id }, body: { name: null } });
    expect(cleared.body).toMatchObject({ name: null, pinned: false });
    // Another file's version, or a stranger: nothing there.
    const other = (await test.given.upload(ada, ada.workspace.homeId, 'other.txt', Buffer.from('x'))).body.item;
    expect(await ada.call(versionsApi.update, { params: { id: other.id, versionId: v1!.id }, body: { name: 'x' } })).toFail('not_found');
    const stranger = await test.given.person();
    expect(await stranger.call(versionsApi.update, { params: { id: file.id, versionId: v1!.id }, body: { name: 'x' } })).toFail('not_found');
    const recorded = await db().selectFrom('activity_events').select(['action', 'data']).where('item_id', '=', file.id).orderBy('id').execute();
    expect(recorded.at(-1)).toMatchObject({ action: 'item.updated', data: { versionNamed: 1, versionName: null } });
  });

  it('restores an old version as a new current one naming the same bytes (managers only), counted against the quota and recorded', async () => {
    const { ada, bea, cy, file, one, two } = await team();
    const [v2, v1] = await versions(ada, file.id);
    const before = await usage(ada);
    expect(await bea.call(versionsApi.restore, { params: { id: file.id, versionId: v1!.id } })).toFail('forbidden');
    expect(await cy.call(versionsApi.restore, { params: { id: file.id, versionId: v1!.id } })).toFail('forbidden');
    expect(await ada.call(versionsApi.restore, { params: { id: file.id, versionId: v2!.id } })).toFail('invalid_input');
    const restored = await ada.call(versionsApi.restore, { params: { id: file.id, versionId: v1!.id } });
    expect(restored.status).toBe(201);
    expect(restored.body.item).toMatchObject({ id: file.id, size: one.length, version: 3 });
    expect(restored.body.version).toMatchObject({ number: 3, current: true, sha256: sha256Hex(one), authorName: 'Ada Manager' });
    expect(await blobOf(restored.body.version.id)).toBe(await blobOf(v1!.id));
    expect((await versions(ada, file.id)).map((v) => [v.number, v.current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect((await download(ada, file.id)).equals(one)).toBe(true);
    expect((await download(ada, file.id, v2!.id)).equals(two)).toBe(true);
    expect(await usage(ada)).toBe(before + one.length);
    const recorded = await db()
      .selectFrom('activity_events')
      .select(['action', 'data', 'actor_user_id'])
      .where('item_id', '=', file.id)
      .orderBy('id')
      .execute();
    expect(recorded.at(-1)).toMatchObject({ action: 'item.updated', actor_user_id: ada.id, data: { version: 3, restoredFrom: 1 } });

    // Past the quota, nothing changes.
    await db()
      .updateTable('workspaces')
      .set({ quota_bytes: await usage(ada) })
      .where('id', '=', ada.workspace.id)
      .execute();
    expect(await ada.call(versionsApi.restore, { params: { id: file.id, versionId: v2!.id } })).toFail('quota_exceeded');
    expect((await versions(ada, file.id)).length).toBe(3);
    await db().updateTable('workspaces').set({ quota_bytes: null }).where('id', '=', ada.workspace.id).execute();
  });

  it('restoring while an upload of a new version completes keeps both, in order', async () => {
    const { ada, file, one } = await team();
    const [, v1] = await versions(ada, file.id);
    const three = Buffer.from('three\n');
    const start = await ada.call(versionsApi.start, { params: { id: file.id }, body: { size: three.length } });
    await putParts(ada, start.body, three);
    const [completed, restored] = await Promise.all([
      ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} }),
      ada.call(versionsApi.restore, { params: { id: file.id, versionId: v1!.id } }),
    ]);
    expect(completed.status).toBe(200);
    expect(restored.status).toBe(201);
    const list = await versions(ada, file.id);
    expect(list.map((v) => v.number)).toEqual([4, 3, 2, 1]);
    // The one that committed last is current; both are there with their own bytes.
    const bySha = new Map(list.map((v) => [v.sha256, v]));
    expect(bySha.get(sha256Hex(three))).toBeDefined();
    expect(list.filter((v) => v.sha256 === sha256Hex(one)).length).toBe(2);
    expect(list[0]!.current).toBe(true);
    const item = (await ada.call(itemsApi.get, { params: { id: file.id } })).body;
    expect(item.version).toBe(4);
  });

  it('deletes a version that is not the current one (managers); its bytes go only when no version names them', async () => {
    const { ada, bea, file, one, two } = await team();
    const [v2, v1] = await versions(ada, file.id);
    expect(await bea.call(versionsApi.remove, { params: { id: file.id, versionId: v1!.id } })).toFail('forbidden');
    expect(await ada.call(versionsApi.remove, { params: { id: file.id, versionId: v2!.id } })).toFail('invalid_input');
    // Version 3 restores version 1: both name its bytes.
    const v3 = (await ada.call(versionsApi.restore, { params: { id: file.id, versionId: v1!.id } })).body.version;
    const before = await usage(ada);
    expect((await ada.call(versionsApi.remove, { params: { id: file.id, versionId: v1!.id } })).status).toBe(204);
    await runJobs();
    expect(await usage(ada)).toBe(before - one.length);
    expect((await versions(ada, file.id)).map((v) => v.number)).toEqual([3, 2]);
    expect((await download(ada, file.id, v3.id)).equals(one)).toBe(true);
    expect(await ada.call(versionsApi.remove, { params: { id: file.id, versionId: v1!.id } })).toFail('not_found');
    // Version 2's bytes are its own: deleting it deletes them.
    const key = await blobOf(v2!.id);
    expect((await ada.call(versionsApi.remove, { params: { id: file.id, versionId: v2!.id } })).status).toBe(204);
    await runJobs();
    expect(await test.app.ctx.storage.stat(key)).toBeNull();
    expect(await usage(ada)).toBe(before - one.length - two.length);
  });

  it('prunes versions by age (hourly, daily, weekly, at most VERSIONS_MAX), keeping named and current ones; bytes and usage go with them', async () => {
    const ada = await test.given.person();
    const file = (await test.given.upload(ada, ada.workspace.homeId, 'log.txt', Buffer.from('v1'))).body.item;
    for (let n = 2; n <= 8; n++) await uploadVersion(ada, file.id, Buffer.from(`v${n}`));
    const list = await versions(ada, file.id);
    const now = new Date('2030-06-15T12:00:00Z').getTime();
    // Ages: v1 60 days (named), v2 45 days, v3 and v4 in one hour 3 days ago, v5 and v6 in one day 10 days ago, v7 an hour, v8 now (current).
    const ages: Record<number, number> = { 1: 60 * DAY, 2: 45 * DAY, 3: 3 * DAY + 10 * 60_000, 4: 3 * DAY, 5: 10 * DAY + HOUR, 6: 10 * DAY, 7: HOUR, 8: 0 };
    // Fixed in slices: v3 and v4 share an hour, v5 and v6 a day.
    const at = (n: number) => new Date(Math.floor((now - ages[n]!) / 60_000) * 60_000);
    for (const v of list)
      await db()
        .updateTable('file_versions')
        .set({ created_at: at(v.number) })
        .where('id', '=', v.id)
        .execute();
    // v3 and v4 in the same hour, v5 and v6 in the same day: placed so.
    await db()
      .updateTable('file_versions')
      .set({ created_at: new Date(Math.floor((now - 3 * DAY) / HOUR) * HOUR - 30 * 60_000) })
      .where('id', '=', list.find((v) => v.number === 3)!.id)
      .execute();
    await db()
      .updateTable('file_versions')
      .set({ created_at: new Date(Math.floor((now - 3 * DAY) / HOUR) * HOUR - 10 * 60_000) })
      .where('id', '=', list.find((v) => v.number === 4)!.id)
      .execute();
    await db()
      .updateTable('file_versions')
      .set({ created_at: new Date(Math.floor((now - 10 * DAY) / DAY) * DAY - 5 * HOUR) })
      .where('id', '=', list.find((v) => v.number === 5)!.id)
      .execute();
    await db()
      .updateTable('file_versions')
      .set({ created_at: new Date(Math.floor((now - 10 * DAY) / DAY) * DAY - 2 * HOUR) })
      .where('id', '=', list.find((v) => v.number === 6)!.id)
      .execute();
    // v1 is named: kept for ever.
    await ada.call(versionsApi.update, { params: { id: file.id, versionId: list.find((v) => v.number === 1)!.id }, body: { name: 'Original' } });
    const before = await usage(ada);
    const key3 = await blobOf(list.find((v) => v.number === 3)!.id);

    expect(await pruneOldVersions(db(), { now: new Date(now), max: 100 })).toBeGreaterThanOrEqual(2);
    expect((await versions(ada, file.id)).map((v) => v.number)).toEqual([8, 7, 6, 4, 2, 1]);
    expect(await usage(ada)).toBe(before - 4);
    await runJobs();
    expect(await test.app.ctx.storage.stat(key3)).toBeNull();
    const pruned = await db().selectFrom('file_versions').select(['number', 'state']).where('item_id', '=', file.id).where('state', '=', 'pruned').execute();
    expect(pruned.map((p) => p.number).sort()).toEqual([3, 5]);
    // Again at the same time: nothing more. With a maximum of 3: the oldest unnamed go, the named and current stay.
    expect(await pruneOldVersions(db(), { now: new Date(now), max: 100 })).toBe(0);
    await pruneOldVersions(db(), { now: new Date(now), max: 3 });
    expect((await versions(ada, file.id)).map((v) => v.number)).toEqual([8, 7, 1]);
    expect(await usage(ada)).toBe(6);
    // Purging the file afterwards gives back only what is still counted.
    await ada.call(itemsApi.trash, { params: { id: file.id } });
    await ada.call(itemsApi.purge, { params: { id: file.id } });
    expect(await usage(ada)).toBe(0);
  });

  describe('instant re-uploads', () => {
    /** Starts an upload of `bytes` with their SHA-256 and answers the start. */
    const start = async (p: Person, name: string, bytes: Buffer, parentId = p.workspace.homeId) => {
      const res = await p.call(uploadsApi.start, {
        params: { ws: p.workspace.id },
        body: { parentId, name, size: bytes.length, sha256: sha256Hex(bytes) },
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    const answer = (bytes: Buffer, challenge: { nonce: string; ranges: { start: number; end: number }[] }) =>
      proofOf(
        challenge,
        challenge.ranges.map((r) => bytes.subarray(r.start, r.end + 1)),
      );

    it('completes at once, without bytes, when the workspace holds them and the uploader proves it has them; the copy is shared', async () => {
      const ada = await test.given.person();
      const bytes = randomBytes(6 * 1024 * 1024 + 17);
      const first = (await test.given.upload(ada, ada.workspace.homeId, 'big.bin', bytes)).body.item;
      const again = await start(ada, 'same.bin', bytes);
      expect(again.dedup).toBeDefined();
      expect(again.dedup!.ranges.length).toBe(4);
      for (const r of again.dedup!.ranges) expect(r.end - r.start + 1).toBe(64 * 1024);
      const done = await ada.call(uploadsApi.complete, { params: { id: again.id }, body: { proof: answer(bytes, again.dedup!) } });
      expect(done.status).toBe(200);
      expect(done.body.item).toMatchObject({ name: 'same.bin', size: bytes.length });
      const [v] = await versions(ada, done.body.item.id);
      const [original] = await versions(ada, first.id);
      expect(await blobOf(v!.id)).toBe(await blobOf(original!.id));
      expect(v!.sha256).toBe(sha256Hex(bytes));
      // Each item counts its size (PRODUCT.md §9), and the creation is recorded as any upload's.
      expect(await usage(ada)).toBe(2 * bytes.length);
      const recorded = await db().selectFrom('activity_events').select('action').where('item_id', '=', done.body.item.id).execute();
      expect(recorded.map((r) => r.action)).toEqual(['item.created']);
      // Its own storage upload is discarded.
      const own = (await db().selectFrom('uploads').select('blob_key').where('id', '=', again.id).executeTakeFirstOrThrow()).blob_key;
      await runJobs();
      expect(await test.app.ctx.storage.stat(own)).toBeNull();
      expect((await download(ada, done.body.item.id)).equals(bytes)).toBe(true);

      // Purging the first keeps the second whole; purging both deletes the bytes.
      const key = await blobOf(v!.id);
      await ada.call(itemsApi.trash, { params: { id: first.id } });
      await ada.call(itemsApi.purge, { params: { id: first.id } });
      await runJobs();
      expect((await download(ada, done.body.item.id)).equals(bytes)).toBe(true);
      expect(await usage(ada)).toBe(bytes.length);
      // A trashed item's bytes still count as held: a third upload reuses them.
      await ada.call(itemsApi.trash, { params: { id: done.body.item.id } });
      const third = await start(ada, 'third.bin', bytes);
      expect(third.dedup).toBeDefined();
      await ada.call(uploadsApi.abort, { params: { id: third.id } });
      await ada.call(itemsApi.purge, { params: { id: done.body.item.id } });
      await runJobs();
      expect(await test.app.ctx.storage.stat(key)).toBeNull();
      expect(await usage(ada)).toBe(0);
    });

    it('a wrong proof reuses nothing: the offer is withdrawn and the upload completes by sending its bytes', async () => {
      const ada = await test.given.person();
      const bytes = randomBytes(300_000);
      await test.given.upload(ada, ada.workspace.homeId, 'a.bin', bytes);
      const again = await start(ada, 'b.bin', bytes);
      // Knowing the SHA-256 is not enough: an answer made from other bytes fails.
      const forged = answer(randomBytes(bytes.length), again.dedup!);
      const refused = await ada.call(uploadsApi.complete, { params: { id: again.id }, body: { proof: forged } });
      expect(refused).toFail('checksum_mismatch');
      expect(refused.error?.details).toMatchObject({ proof: 'rejected' });
      // One guess only: the right answer now reuses nothing either — the parts are missing.
      expect(await ada.call(uploadsApi.complete, { params: { id: again.id }, body: { proof: answer(bytes, again.dedup!) } })).toFail('invalid_input');
      await putParts(ada, again, bytes);
      const done = await ada.call(uploadsApi.complete, { params: { id: again.id }, body: {} });
      expect(done.status).toBe(200);
      const [v] = await versions(ada, done.body.item.id);
      expect(await blobOf(v!.id)).toBe((await db().selectFrom('uploads').select('blob_key').where('id', '=', again.id).executeTakeFirstOrThrow()).blob_key);
      expect((await download(ada, done.body.item.id)).equals(bytes)).toBe(true);
    });

    it('offers nothing without a SHA-256, for bytes another workspace holds, or for bytes no longer held', async () => {
      const ada = await test.given.person();
      const bea = await test.given.person();
      const bytes = randomBytes(1000);
      const file = (await test.given.upload(ada, ada.workspace.homeId, 'a.bin', bytes)).body.item;
      const plain = await ada.call(uploadsApi.start, {
        params: { ws: ada.workspace.id },
        body: { parentId: ada.workspace.homeId, name: 'b.bin', size: bytes.length },
      });
      expect(plain.body.dedup).toBeUndefined();
      expect((await start(bea, 'a.bin', bytes)).dedup).toBeUndefined();
      // A new version reuses bytes too, and the copy going before completion withdraws the offer.
      const version = await ada.call(versionsApi.start, { params: { id: file.id }, body: { size: bytes.length, sha256: sha256Hex(bytes) } });
      expect(version.body.dedup).toBeDefined();
      const moved = await start(ada, 'd.bin', bytes);
      await ada.call(itemsApi.trash, { params: { id: file.id } });
      await ada.call(itemsApi.purge, { params: { id: file.id } });
      await runJobs();
      expect(await ada.call(uploadsApi.complete, { params: { id: moved.id }, body: { proof: answer(bytes, moved.dedup!) } })).toFail('checksum_mismatch');
    });

    it('offers and takes reuse in batches too, each entry for itself', async () => {
      const ada = await test.given.person();
      const held = randomBytes(3000);
      const fresh = randomBytes(3000);
      await test.given.upload(ada, ada.workspace.homeId, 'held.bin', held);
      const started = await ada.call(uploadsApi.startMany, {
        params: { ws: ada.workspace.id },
        body: {
          uploads: [
            { parentId: ada.workspace.homeId, name: 'again.bin', size: held.length, sha256: sha256Hex(held) },
            { parentId: ada.workspace.homeId, name: 'fresh.bin', size: fresh.length, sha256: sha256Hex(fresh) },
          ],
        },
      });
      const [again, other] = started.body.results.map((r) => ('upload' in r ? r.upload : undefined));
      expect(again!.dedup).toBeDefined();
      expect(other!.dedup).toBeUndefined();
      await putParts(ada, other!, fresh);
      const done = await ada.call(uploadsApi.completeMany, {
        body: { uploads: [{ id: again!.id, proof: answer(held, again!.dedup!) }, { id: other!.id }] },
      });
      expect(done.status).toBe(200);
      const items = done.body.results.map((r) => ('item' in r ? r.item : undefined));
      expect(items.map((i) => i?.name)).toEqual(['again.bin', 'fresh.bin']);
      expect((await download(ada, items[0]!.id)).equals(held)).toBe(true);
      expect((await download(ada, items[1]!.id)).equals(fresh)).toBe(true);
      expect(await usage(ada)).toBe(3 * 3000);
    });

    it('a new version made from held bytes is a version like any other', async () => {
      const ada = await test.given.person();
      const bytes = randomBytes(2000);
      await test.given.upload(ada, ada.workspace.homeId, 'a.bin', bytes);
      const file = (await test.given.upload(ada, ada.workspace.homeId, 'b.bin', randomBytes(5))).body.item;
      const started = await ada.call(versionsApi.start, { params: { id: file.id }, body: { size: bytes.length, sha256: sha256Hex(bytes) } });
      const done = await ada.call(uploadsApi.complete, { params: { id: started.body.id }, body: { proof: answer(bytes, started.body.dedup!) } });
      expect(done.status).toBe(200);
      expect(done.body.item).toMatchObject({ id: file.id, version: 2, size: bytes.length });
      expect((await download(ada, file.id)).equals(bytes)).toBe(true);
      const recorded = await db().selectFrom('activity_events').select(['action', 'data']).where('item_id', '=', file.id).orderBy('id').execute();
      expect(recorded.at(-1)).toMatchObject({ action: 'item.updated', data: { version: 2 } });
    });
  });
});
