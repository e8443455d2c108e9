import { filesApi, itemsApi, linksApi, publicLinksApi, type TItem } from '@cabinet/contracts';
import { sql } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { WorkerPool } from '../../infra/workers/pool.ts';
import type { Person } from '../../testing/given.ts';
import { sha256Hex } from '../../testing/given.ts';
import { linkVisitor } from '../../testing/link-visitor.ts';
import { storageDrivers, storageSettings } from '../../testing/test-s3.ts';
import { freePort, useTestApp } from '../../testing/test-app.ts';
import { evictPreviews, makeDuePreviews, MAX_ATTEMPTS, previewKey } from './previews.service.ts';
import { claimNext } from './previews.repo.ts';
import { rotatedJpeg, shortVideo, simplePdf, twoColours } from '../../testing/test-images.ts';

describe.each(storageDrivers())('previews on %s', (_name, driver) => {
  const test = useTestApp(async () => {
    const port = await freePort();
    return { ...(await storageSettings(driver, port)), PORT: String(port), LOG_LEVEL: 'silent', TRUST_PROXY: 'true' };
  });

  async function upload(p: Person, parentId: string, name: string, bytes: Uint8Array) {
    const res = await test.given.upload(p, parentId, name, bytes);
    if (res.status !== 200 || !res.body.item) throw new Error(`upload failed: ${JSON.stringify(res.error)}`);
    return res.body.item;
  }

  /**
   * The bytes' previews claimed before they are uploaded, as by a pass that is about to die: written claimed, with the
   * lease and the attempt a claim gives (a pass of an earlier test still running would claim rows written due first).
   * No pass makes them until the claim's lease ends. Answers their SHA-256.
   */
  async function claimedFirst(bytes: Uint8Array): Promise<string> {
    const { db } = test.app.ctx;
    const sha = sha256Hex(bytes);
    const claimed = { sha256: sha, locked_until: sql<Date>`now() + interval '60 seconds'`, attempts: 1 };
    await db
      .insertInto('previews')
      .values([
        { ...claimed, kind: 'thumb-256' },
        { ...claimed, kind: 'thumb-1024' },
      ])
      .execute();
    return sha;
  }

  /** The item as its folder lists it, once its preview is answered (the reader makes it right after the upload). */
  async function listed(p: Person, parentId: string, id: string, o: { until?: (i: TItem) => boolean } = {}): Promise<TItem> {
    const until = o.until ?? ((i) => i.preview?.state !== 'pending');
    for (let tries = 0; ; tries++) {
      const page = await p.call(itemsApi.children, { params: { ws: p.workspace.id, id: parentId }, query: {} });
      const item = page.body.items.find((i) => i.id === id);
      if (item && until(item)) return item;
      if (tries > 120) throw new Error(`preview still ${JSON.stringify(item?.preview)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  const thumbnail = (p: Person, id: string, query: { size?: '256' | '1024'; v?: string; version?: string } = {}) =>
    p.call(filesApi.thumbnail, { params: { id }, query });

  it('makes a photo two WebP previews, lists the item with them, and serves them inert and cached for good', async () => {
    const ada = await test.given.person('Ada');
    const photo = await upload(ada, ada.workspace.homeId, 'turned.jpg', await rotatedJpeg());
    const item = await listed(ada, ada.workspace.homeId, photo.id);
    expect(item.preview).toMatchObject({ state: 'ready', reason: null, width: 100, height: 200 });
    expect(item.preview!.v).toMatch(/^[0-9a-f]{16}$/);
    expect(item.preview!.placeholder).toMatch(/^[A-Za-z0-9+/=]+$/);

    const res = await fetch(`${test.app.url}/api/v1/items/${photo.id}/thumbnail?size=1024&v=${item.preview!.v}`, {
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 100, 200]);

    // Without the hash the address may show other bytes later: cached briefly. Another hash: not these bytes.
    expect((await thumbnail(ada, photo.id)).headers.get('cache-control')).toBe('private, max-age=60');
    expect(await thumbnail(ada, photo.id, { v: '0123456789abcdef' })).toFail('not_found');
    // The item alone carries it too.
    expect((await ada.call(itemsApi.get, { params: { id: photo.id } })).body.preview).toMatchObject({ state: 'ready', v: item.preview!.v });
  });

  it('shows thumbnails to whoever may view the item, a link visitor included, and to nobody else', async () => {
    const owner = await test.given.person('Owner');
    const [guest, stranger] = [await test.given.person('Guest'), await test.given.person('Stranger')];
    await test.given.membership(guest, owner.workspace.id, 'guest');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Photos');
    const photo = await upload(owner, folder.id, 'p.jpg', await twoColours(400, 300).jpeg().toBuffer());
    await listed(owner, folder.id, photo.id);

    expect((await thumbnail(owner, photo.id)).status).toBe(200);
    expect(await thumbnail(guest, photo.id)).toFail('not_found');
    expect(await thumbnail(stranger, photo.id)).toFail('not_found');
    await test.given.grant(folder.id, { user: guest }, 'viewer');
    expect((await thumbnail(guest, photo.id)).status).toBe(200);

    const link = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', downloadAllowed: false } });
    const token = link.body.url!.split('/s/')[1]!;
    const visitor = linkVisitor(test.app.url);
    const seen = await visitor.call(publicLinksApi.thumbnail, { params: { token, itemId: photo.id }, query: { size: '256' } });
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    // Only what is under the link.
    const elsewhere = await upload(owner, owner.workspace.rootId, 'other.jpg', await twoColours(300, 300).jpeg().toBuffer());
    expect(await visitor.call(publicLinksApi.thumbnail, { params: { token, itemId: elsewhere.id }, query: {} })).toFail('not_found');
  });

  it("lists a shared folder's files with their previews to a link's visitor, each thumbnail at the link's address its `v` names", async () => {
    const owner = await test.given.person('Owner');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Press kit');
    const photo = await upload(owner, folder.id, 'logo.png', await twoColours(400, 200).png().toBuffer());
    const notes = await upload(owner, folder.id, 'notes.txt', new TextEncoder().encode('no picture here'));
    await test.given.folder(owner, folder.id, 'Old');
    const listedPhoto = await listed(owner, folder.id, photo.id);
    await listed(owner, folder.id, notes.id);
    const link = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', downloadAllowed: false } });
    const token = link.body.url!.split('/s/')[1]!;
    const visitor = linkVisitor(test.app.url);

    const page = await visitor.call(publicLinksApi.item, { params: { token, itemId: folder.id }, query: {} });
    expect(page.status).toBe(200);
    const byName = new Map(page.body.children.map((c) => [c.name, c]));
    // The same preview as the app's own listing: the state, the bytes' `v`, the placeholder and the picture's size.
    expect(byName.get('logo.png')!.preview).toEqual(listedPhoto.preview);
    expect(byName.get('logo.png')!.preview).toMatchObject({ state: 'ready', v: expect.stringMatching(/^[0-9a-f]{16}$/), placeholder: expect.any(String) });
    expect(byName.get('notes.txt')!.preview).toMatchObject({ state: 'unsupported', v: null, placeholder: null });
    expect(byName.get('Old')!.preview).toBeNull();
    // A page after a cursor carries it too, and a file opened alone.
    const second = await visitor.call(publicLinksApi.item, {
      params: { token, itemId: folder.id },
      query: { limit: 1, cursor: (await visitor.call(publicLinksApi.item, { params: { token, itemId: folder.id }, query: { limit: 1 } })).body.nextCursor! },
    });
    expect(second.body.children.map((c) => [c.name, c.preview?.state])).toEqual([['logo.png', 'ready']]);
    expect((await visitor.call(publicLinksApi.item, { params: { token, itemId: photo.id }, query: {} })).body.item.preview).toEqual(listedPhoto.preview);

    const v = listedPhoto.preview!.v!;
    const thumb = await visitor.call(publicLinksApi.thumbnail, { params: { token, itemId: photo.id }, query: { size: '256', v } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(await visitor.call(publicLinksApi.thumbnail, { params: { token, itemId: photo.id }, query: { size: '256', v: '0123456789abcdef' } })).toFail(
      'not_found',
    );
  });

  it("makes a PDF's preview from its first page, read by ranges from storage", async () => {
    const ada = await test.given.person('Ada');
    // A page without a picture: search reads its text without OCR (the unit tests read a large one by ranges).
    const pdf = await upload(ada, ada.workspace.homeId, 'plan.pdf', simplePdf(300, 400));
    expect((await listed(ada, ada.workspace.homeId, pdf.id)).preview).toMatchObject({ state: 'ready', width: 192, height: 256 });
    expect((await thumbnail(ada, pdf.id, { size: '1024' })).status).toBe(200);
  });

  it('makes one preview for the same bytes, whichever workspace holds them', async () => {
    const [ada, bob] = [await test.given.person('Ada'), await test.given.person('Bob')];
    const bytes = await twoColours(500, 250).png().toBuffer();
    const a = await upload(ada, ada.workspace.homeId, 'a.png', bytes);
    await listed(ada, ada.workspace.homeId, a.id);
    const b = await upload(bob, bob.workspace.homeId, 'same bytes.png', bytes);
    // Ready at once: nothing is made again.
    const rows = await test.app.ctx.db.selectFrom('previews').selectAll().where('sha256', '=', sha256Hex(bytes)).execute();
    expect(rows.map((r) => [r.kind, r.state]).sort()).toEqual([
      ['thumb-1024', 'ready'],
      ['thumb-256', 'ready'],
    ]);
    const first = await listed(bob, bob.workspace.homeId, b.id);
    expect(first.preview?.state).toBe('ready');
    expect((await thumbnail(bob, b.id)).status).toBe(200);
  });

  it('answers unsupported for what has no preview, whatever its name says, and failed with a reason for a damaged picture', async () => {
    const ada = await test.given.person('Ada');
    const text = await upload(ada, ada.workspace.homeId, 'not really.png', Buffer.from('plain text wearing a picture name'));
    expect((await listed(ada, ada.workspace.homeId, text.id)).preview).toMatchObject({ state: 'unsupported', v: null });
    expect(await thumbnail(ada, text.id)).toFail('not_found');
    // PNG bytes named .pdf: a picture.
    const png = await upload(ada, ada.workspace.homeId, 'lying.pdf', await twoColours(80, 80).png().toBuffer());
    expect((await listed(ada, ada.workspace.homeId, png.id)).preview?.state).toBe('ready');
    const broken = await upload(ada, ada.workspace.homeId, 'broken.jpg', (await rotatedJpeg()).subarray(0, 300));
    expect((await listed(ada, ada.workspace.homeId, broken.id)).preview).toMatchObject({
      state: 'failed',
      reason: 'the picture is damaged or in a format that cannot be read',
    });
    // A folder or a document has none.
    const folder = await test.given.folder(ada, ada.workspace.homeId, 'Folder');
    expect((await listed(ada, ada.workspace.homeId, folder.id, { until: () => true })).preview).toBeNull();
  });

  it("takes a video's frame with ffmpeg, and fails a truncated video with a reason", async () => {
    const ada = await test.given.person('Ada');
    const video = shortVideo();
    const clip = await upload(ada, ada.workspace.homeId, 'clip.mp4', video);
    expect((await listed(ada, ada.workspace.homeId, clip.id)).preview).toMatchObject({ state: 'ready', width: 256, height: 192 });
    const cut = await upload(ada, ada.workspace.homeId, 'cut.mp4', video.subarray(0, 2000));
    expect((await listed(ada, ada.workspace.homeId, cut.id)).preview).toMatchObject({ state: 'failed' });
  });

  it('claims one content at a time, with both its sizes, oldest first', async () => {
    const { db } = test.app.ctx;
    // Rows only (no file holds these bytes, and no change wakes a pass): what a claim takes is all that moves them.
    const shas = ['a', 'b', 'c'].map((c) => c.repeat(64));
    await db
      .insertInto('previews')
      .values(
        shas.flatMap((sha256, i) => (['thumb-256', 'thumb-1024'] as const).map((kind) => ({ sha256, kind, run_after: new Date(Date.now() - 60_000 + i) }))),
      )
      .execute();
    const locked = async () =>
      (
        await db
          .selectFrom('previews')
          .select(['sha256', 'kind'])
          .where('sha256', 'in', shas)
          .where('locked_until', 'is not', null)
          .orderBy('sha256')
          .orderBy('kind')
          .execute()
      ).map((r) => `${r.sha256[0]}:${r.kind}`);
    expect(await claimNext(db, 60_000)).toEqual({ sha256: shas[0], attempts: 1 });
    expect(await locked()).toEqual(['a:thumb-1024', 'a:thumb-256']);
    expect(await claimNext(db, 60_000)).toEqual({ sha256: shas[1], attempts: 1 });
    expect(await claimNext(db, 60_000, shas[0])).toBeUndefined();
    expect(await locked()).toHaveLength(4);
    await db.deleteFrom('previews').where('sha256', 'in', shas).execute();
  });

  it('leaves no ready row when a pass dies between writing and recording, and the retry finishes it', async () => {
    const ada = await test.given.person('Ada');
    const { ctx } = test.app;
    const bytes = await twoColours(321, 123).jpeg().toBuffer();
    const sha = await claimedFirst(bytes);
    const photo = await upload(ada, ada.workspace.homeId, 'dies.jpg', bytes);
    // The pass wrote one object and died: its row is not ready, and nothing is served.
    await ctx.storage.put(previewKey(sha, 'thumb-256'), new Uint8Array([1, 2, 3]), 'image/webp');
    expect((await listed(ada, ada.workspace.homeId, photo.id, { until: () => true })).preview?.state).toBe('pending');
    expect(await thumbnail(ada, photo.id)).toFail('not_found');
    // A pass whose storage fails mid-way leaves the row pending too.
    await ctx.db.updateTable('previews').set({ locked_until: null }).where('sha256', '=', sha).execute();
    let puts = 0;
    const failing = {
      ...ctx.storage,
      put: async (key: string, b: Uint8Array, type: string) => (++puts === 2 ? Promise.reject(new Error('disk gone')) : ctx.storage.put(key, b, type)),
    };
    await makeDuePreviews({ db: ctx.db, storage: failing, previewers: ctx.previewers });
    const after = await ctx.db.selectFrom('previews').select(['kind', 'state']).where('sha256', '=', sha).execute();
    expect(after.every((r) => r.state === 'pending')).toBe(true);
    // Once its lease ends (or its postponement), the next pass writes the same keys over and records them. On a busy
    // machine that pass may itself be put off (the workers' queue full, or the job runner's pass beside it holding the
    // row): it is made due again, with its tries given back, until one has run.
    await expect
      .poll(
        async () => {
          await ctx.db
            .updateTable('previews')
            .set({ locked_until: null, run_after: new Date(), attempts: 0 })
            .where('sha256', '=', sha)
            .where('state', '=', 'pending')
            .execute();
          await makeDuePreviews(ctx);
          // With its reason when it failed, so that a failure here says why.
          const rows = await ctx.db.selectFrom('previews').select(['state', 'error']).where('sha256', '=', sha).execute();
          return rows.map((r) => (r.error ? `${r.state}: ${r.error}` : r.state)).join(', ');
        },
        { timeout: 45_000, interval: 500 },
      )
      .toBe('ready, ready');
    expect((await listed(ada, ada.workspace.homeId, photo.id)).preview?.state).toBe('ready');
    expect((await thumbnail(ada, photo.id)).status).toBe(200);
  });

  it('gives up after a bounded number of tries when the workers cannot run it', async () => {
    const ada = await test.given.person('Ada');
    const { ctx } = test.app;
    const bytes = await twoColours(222, 111).jpeg().toBuffer();
    const sha = await claimedFirst(bytes);
    const photo = await upload(ada, ada.workspace.homeId, 'never.jpg', bytes);
    const closed = new WorkerPool({ threads: 1, queue: 1, memoryMb: 64, timeoutMs: 1000 });
    await closed.close();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await ctx.db.updateTable('previews').set({ locked_until: null, run_after: new Date() }).where('sha256', '=', sha).execute();
      await makeDuePreviews({ db: ctx.db, storage: ctx.storage, previewers: closed });
    }
    expect((await listed(ada, ada.workspace.homeId, photo.id, { until: () => true })).preview).toMatchObject({
      state: 'failed',
      reason: 'its preview could not be made',
    });
  });

  it('evicts the least recently used previews past PREVIEW_CACHE_MAX, and makes one again when it is asked for', async () => {
    const ada = await test.given.person('Ada');
    const { ctx } = test.app;
    const photo = await upload(ada, ada.workspace.homeId, 'evicted.jpg', await twoColours(640, 480).jpeg().toBuffer());
    const before = await listed(ada, ada.workspace.homeId, photo.id);
    const sha = (await ctx.db.selectFrom('file_versions').select('sha256').where('item_id', '=', photo.id).executeTakeFirstOrThrow()).sha256;
    // Everything else is newer: this one is the least recently used.
    await ctx.db
      .updateTable('previews')
      .set({ last_used_at: new Date(0) })
      .where('sha256', '=', sha)
      .execute();
    const total = Number(
      (
        await ctx.db
          .selectFrom('previews')
          .select((eb) => eb.fn.sum('size_bytes').as('t'))
          .where('state', '=', 'ready')
          .executeTakeFirstOrThrow()
      ).t,
    );
    // Within the budget nothing goes; over it, the oldest go until nine tenths of it is left (here: all).
    expect(await evictPreviews(ctx, total)).toBe(0);
    expect(await evictPreviews(ctx, 1)).toBeGreaterThanOrEqual(2);
    expect(await ctx.storage.stat(previewKey(sha, 'thumb-256'))).toBeNull();
    expect(await ctx.storage.stat(previewKey(sha, 'thumb-1024'))).toBeNull();
    // Still listed as having one (it is made again on demand), under the same address.
    expect((await listed(ada, ada.workspace.homeId, photo.id)).preview).toEqual(before.preview);
    const again = await thumbnail(ada, photo.id, { v: before.preview!.v! });
    expect(again.status).toBe(200);
    const rows = await ctx.db.selectFrom('previews').select(['state']).where('sha256', '=', sha).execute();
    expect(rows.map((r) => r.state)).toEqual(['ready', 'ready']);
    expect(await ctx.storage.stat(previewKey(sha, 'thumb-256'))).not.toBeNull();
    // One size evicted alone (its last use older than the other's) is made again too.
    await ctx.db.updateTable('previews').set({ state: 'evicted', blob_key: null }).where('sha256', '=', sha).where('kind', '=', 'thumb-1024').execute();
    expect((await thumbnail(ada, photo.id, { size: '1024', v: before.preview!.v! })).status).toBe(200);
  });
});
