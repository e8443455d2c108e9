import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { itemsApi, LIMITS, linksApi, publicLinksApi, uploadsApi, type TCreateLinkRequest } from '@cabinet/contracts';
import { sha256Hex, type Person } from '../../testing/given.ts';
import { linkVisitor, type LinkVisitorClient } from '../../testing/link-visitor.ts';
import { storageDrivers, storageSettings } from '../../testing/test-s3.ts';
import { invalidFields } from '../../testing/route-call.ts';
import { freePort, useTestApp } from '../../testing/test-app.ts';

const MiB = 1024 * 1024;

const tokenOf = (url: string) => url.split('/s/')[1]!;

/** File requests (ADR 0035): made on folders; visitors upload into them with the app's protocol and see nothing in them. */
describe.each(storageDrivers())('file requests on %s', (_name, driver) => {
  const test = useTestApp(async () => {
    const port = await freePort();
    // Behind a proxy, so each visitor's address can be told apart (X-Forwarded-For).
    return {
      ...(await storageSettings(driver, port)),
      PORT: String(port),
      LOG_LEVEL: 'error',
      TRUST_PROXY: 'true',
      UPLOAD_PART_SIZE: '5MiB',
      MAX_FILE_SIZE: '32MiB',
    };
  });

  const visitor = (ip?: string) => linkVisitor(test.app.url, ip);
  const children = async (p: Person, folderId: string) => (await p.call(itemsApi.children, { params: { ws: p.workspace.id, id: folderId } })).body.items;
  const linkOf = async (p: Person, itemId: string, linkId: string) =>
    (await p.call(linksApi.list, { params: { id: itemId } })).body.items.find((l) => l.id === linkId);

  async function request(owner: Person, folderId: string, body: Omit<TCreateLinkRequest, 'kind'> = {}) {
    const res = await owner.call(linksApi.create, { params: { id: folderId }, body: { kind: 'file_request', ...body } });
    if (res.status !== 201 || !res.body.url) throw new Error(`no file request: ${JSON.stringify(res.error)}`);
    return { ...res.body, token: tokenOf(res.body.url) };
  }

  /** A visitor's upload start to finish: start, sign, PUT each part where the URL says (the bucket, or Cabinet), complete. */
  async function visitorUpload(v: LinkVisitorClient, token: string, name: string, bytes: Uint8Array) {
    const start = await v.call(publicLinksApi.startUpload, { params: { token }, body: { name, size: bytes.length, sha256: sha256Hex(bytes) } });
    if (start.status !== 201) return { start, complete: undefined };
    await putVisitorParts(v, token, start.body, bytes);
    return { start, complete: await v.call(publicLinksApi.completeUpload, { params: { token, uploadId: start.body.id }, body: {} }) };
  }

  async function putVisitorParts(v: LinkVisitorClient, token: string, upload: { id: string; partSize: number; partCount: number }, bytes: Uint8Array) {
    const signed = await v.call(publicLinksApi.signParts, {
      params: { token, uploadId: upload.id },
      body: {
        partNumbers: Array.from({ length: upload.partCount }, (_, i) => i + 1),
      },
    });
    expect(signed.status).toBe(200);
    for (const part of signed.body.parts) {
      const res = await fetch(part.url, { method: 'PUT', body: bytes.subarray((part.partNumber - 1) * upload.partSize, part.partNumber * upload.partSize) });
      expect(res.ok).toBe(true);
    }
  }

  it('is made on a folder only, by whoever may share it, within the policy; it never allows downloads', async () => {
    const owner = await test.given.person('Olive');
    const member = await test.given.person();
    await test.given.membership(member, owner.workspace.id, 'member');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Submissions');
    const file = (await test.given.upload(owner, owner.workspace.rootId, 'brief.txt', new TextEncoder().encode('hi'))).body.item;
    const doc = await test.given.document(owner, owner.workspace.rootId, 'Notes');

    const made = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'file_request', password: 'drop it here' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'file_request', itemId: folder.id, downloadAllowed: false, hasPassword: true, views: 0, downloads: 0, uploads: 0 });
    for (const id of [file.id, doc.id]) {
      const refused = await owner.call(linksApi.create, { params: { id }, body: { kind: 'file_request' } });
      expect(refused).toFail('invalid_input');
      expect(invalidFields(refused)).toEqual([{ path: 'body.kind', message: 'a file request is made on a folder' }]);
    }
    const downloads = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'file_request', downloadAllowed: true } });
    expect(invalidFields(downloads)[0]?.path).toBe('body.downloadAllowed');
    expect((await owner.call(linksApi.update, { params: { id: folder.id, linkId: made.body.id }, body: { downloadAllowed: true } })).status).toBe(400);
    // A member edits in the shared root but does not manage it.
    expect((await member.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'file_request' } })).status).toBe(403);
    // The workspace's policy holds as for view links.
    await owner.call(linksApi.updatePolicy, { params: { ws: owner.workspace.id }, body: { passwordRequired: true } });
    expect(invalidFields(await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'file_request' } }))[0]?.path).toBe('body.password');
    await owner.call(linksApi.updatePolicy, { params: { ws: owner.workspace.id }, body: { linksAllowed: false } });
    expect((await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'file_request', password: 'long enough' } })).status).toBe(403);
    await owner.call(linksApi.updatePolicy, { params: { ws: owner.workspace.id }, body: { linksAllowed: true, passwordRequired: false } });

    const created = await test.app.ctx.db
      .selectFrom('activity_events')
      .select('data')
      .where('item_id', '=', folder.id)
      .where('action', '=', 'link.created')
      .executeTakeFirstOrThrow();
    expect(created.data).toMatchObject({ kind: 'file_request', downloadAllowed: false, hasPassword: true });
  });

  it('takes a visitor’s upload in parts after its password: the file lands in the folder, the maker’s, recorded as the link and counted once', async () => {
    const owner = await test.given.person('Olive Owner');
    const folder = await test.given.folder(owner, owner.workspace.homeId, 'Applications');
    await test.given.upload(owner, folder.id, 'private.txt', new TextEncoder().encode('not for visitors'));
    const link = await request(owner, folder.id, { password: 'drop it here' });
    const v = visitor();

    // The password first, for everything.
    expect(await v.call(publicLinksApi.open, { params: { token: link.token } })).toFail('link_password_required');
    expect(await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'cv.pdf', size: 3 } })).toFail('link_password_required');
    expect((await v.call(publicLinksApi.unlock, { params: { token: link.token }, body: { password: 'drop it here' } })).status).toBe(204);
    const opened = await v.call(publicLinksApi.open, { params: { token: link.token } });
    expect(opened.body).toEqual({
      kind: 'file_request',
      item: { id: folder.id, kind: 'folder', name: 'Applications', size: 0, mimeType: null, updatedAt: expect.any(String) },
      downloadAllowed: false,
      expiresAt: null,
      requestedBy: 'Olive Owner',
      maxFileSize: 32 * MiB,
    });

    // Three parts, straight to the storage; the answers say nothing of the workspace or the file made.
    const bytes = randomBytes(11 * MiB + 7);
    const start = await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'portfolio.zip', size: bytes.length } });
    expect(start.status).toBe(201);
    expect(start.headers.get('cache-control')).toBe('private, no-store');
    expect(start.body).toMatchObject({
      name: 'portfolio.zip',
      size: bytes.length,
      partSize: 5 * MiB,
      partCount: 3,
      state: 'created',
      mimeType: 'application/zip',
    });
    expect(Object.keys(start.body).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'mimeType', 'name', 'partCount', 'partSize', 'parts', 'size', 'state']);
    await putVisitorParts(v, link.token, start.body, bytes);
    const status = await v.call(publicLinksApi.upload, { params: { token: link.token, uploadId: start.body.id } });
    expect(status.body.parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([1, 2, 3]);
    expect(await children(owner, folder.id)).toHaveLength(1);

    // The upload is the link's own: not in its maker's unfinished uploads, not theirs to finish.
    expect((await owner.call(uploadsApi.unfinished, { params: { ws: owner.workspace.id } })).body.items).toEqual([]);
    expect((await owner.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} })).status).toBe(404);

    const done = await v.call(publicLinksApi.completeUpload, { params: { token: link.token, uploadId: start.body.id }, body: { sha256: sha256Hex(bytes) } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ upload: expect.objectContaining({ id: start.body.id, name: 'portfolio.zip', state: 'completed' }) });
    expect(done.body.upload).not.toHaveProperty('resultItemId');
    // Completing again answers the same.
    expect((await v.call(publicLinksApi.completeUpload, { params: { token: link.token, uploadId: start.body.id }, body: {} })).body).toEqual(done.body);

    const files = await children(owner, folder.id);
    const made = files.find((f) => f.name === 'portfolio.zip')!;
    expect(made).toMatchObject({ size: bytes.length, ownerId: owner.id });
    // Nobody visited it on the maker's behalf (until they open it below).
    expect(await test.app.ctx.db.selectFrom('item_visits').select('user_id').where('item_id', '=', made.id).execute()).toEqual([]);
    // Fetched: a person's call would follow the redirect itself, and read the bytes as text.
    const redirect = await fetch(`${test.app.url}/api/v1/items/${made.id}/content`, {
      headers: { authorization: `Bearer ${owner.token}` },
      redirect: 'manual',
    });
    expect(Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer()).equals(bytes)).toBe(true);
    const rows = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'actor_kind', 'actor_user_id', 'actor_link_id', 'ip'])
      .where('item_id', '=', made.id)
      .execute();
    expect(rows).toEqual([{ action: 'item.created', actor_kind: 'link', actor_user_id: null, actor_link_id: link.id, ip: '203.0.113.7' }]);
    expect(await linkOf(owner, folder.id, link.id)).toMatchObject({ uploads: 1, views: 1 });
  });

  it('shows nothing of the folder and lets nothing be downloaded', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Inbox');
    const secret = (await test.given.upload(owner, folder.id, 'salaries.csv', new TextEncoder().encode('a,b'))).body.item;
    const doc = await test.given.document(owner, folder.id, 'Plan');
    const link = await request(owner, folder.id);
    const v = visitor();
    const token = link.token;
    for (const [what, attempt] of [
      ['the folder', () => v.call(publicLinksApi.item, { params: { token, itemId: folder.id } })],
      ['a file in it', () => v.call(publicLinksApi.item, { params: { token, itemId: secret.id } })],
      ['the folder as a zip', () => v.call(publicLinksApi.content, { params: { token, itemId: folder.id } })],
      ["a file's download", () => v.call(publicLinksApi.content, { params: { token, itemId: secret.id }, query: { download: '1' } })],
      ["a file's bytes", () => v.call(publicLinksApi.content, { params: { token, itemId: secret.id } })],
      ['a document', () => v.call(publicLinksApi.document, { params: { token, itemId: doc.id } })],
    ] as const) {
      expect(await attempt(), what).toFail('forbidden');
    }
    expect(await linkOf(owner, folder.id, link.id)).toMatchObject({ downloads: 0 });
    // And a view link takes no upload.
    const view = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } });
    expect(view.body.url).toBeTypeOf('string');
    expect((await v.call(publicLinksApi.startUpload, { params: { token: tokenOf(view.body.url!) }, body: { name: 'x.txt', size: 1 } })).status).toBe(403);
  });

  it('binds each upload to its link: another link’s visitor, or a person, cannot reach it', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Drop A');
    const other = await test.given.folder(owner, owner.workspace.rootId, 'Drop B');
    const a = await request(owner, folder.id);
    const b = await request(owner, other.id);
    const v = visitor();
    const bytes = new TextEncoder().encode('mine');
    const started = (await v.call(publicLinksApi.startUpload, { params: { token: a.token }, body: { name: 'a.txt', size: bytes.length } })).body;
    const own = (await owner.call(uploadsApi.start, { params: { ws: owner.workspace.id }, body: { parentId: other.id, name: 'own.txt', size: 3 } })).body;
    for (const [token, id] of [
      [b.token, started.id],
      [a.token, own.id],
    ] as const) {
      expect((await v.call(publicLinksApi.upload, { params: { token, uploadId: id } })).status).toBe(404);
      expect((await v.call(publicLinksApi.signParts, { params: { token, uploadId: id }, body: { partNumbers: [1] } })).status).toBe(404);
      expect((await v.call(publicLinksApi.completeUpload, { params: { token, uploadId: id }, body: {} })).status).toBe(404);
      expect((await v.call(publicLinksApi.abortUpload, { params: { token, uploadId: id } })).status).toBe(404);
    }
    expect((await owner.call(uploadsApi.get, { params: { id: started.id } })).status).toBe(404);
    expect((await owner.call(uploadsApi.abort, { params: { id: started.id } })).status).toBe(404);
    // Its own visitor may cancel it.
    expect((await v.call(publicLinksApi.abortUpload, { params: { token: a.token, uploadId: started.id } })).status).toBe(204);
    expect(await v.call(publicLinksApi.signParts, { params: { token: a.token, uploadId: started.id }, body: { partNumbers: [1] } })).toFail('upload_expired');
  });

  it('refuses uploads the moment the link ends: revoked mid-way, nothing is written; expired, nothing starts; its folder in the trash, not found', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Late');
    const link = await request(owner, folder.id);
    const v = visitor();
    const bytes = randomBytes(1000);
    const start = await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'late.bin', size: bytes.length } });
    await putVisitorParts(v, link.token, start.body, bytes);
    expect((await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: link.id } })).status).toBe(204);
    const refused = await v.call(publicLinksApi.completeUpload, { params: { token: link.token, uploadId: start.body.id }, body: {} });
    expect(refused).toFail('link_expired');
    expect(refused.error?.details).toMatchObject({ reason: 'revoked' });
    expect(await children(owner, folder.id)).toEqual([]);
    // Its open uploads ended with it: their room is free and their bytes are on their way out.
    const row = await test.app.ctx.db.selectFrom('uploads').select(['state', 'blob_key']).where('id', '=', start.body.id).executeTakeFirstOrThrow();
    expect(row.state).toBe('aborted');
    const discards = await test.app.ctx.db.selectFrom('jobs').select('payload').where('kind', '=', 'upload.discard').execute();
    expect(discards.map((j) => (j.payload as { key: string }).key)).toContain(row.blob_key);
    expect(await linkOf(owner, folder.id, link.id)).toMatchObject({ uploads: 0 });

    const expiring = await request(owner, folder.id);
    await test.app.ctx.db
      .updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    const expired = await v.call(publicLinksApi.startUpload, { params: { token: expiring.token }, body: { name: 'x.bin', size: 1 } });
    expect(expired).toFail('link_expired');
    expect(expired.error?.details).toMatchObject({ reason: 'expired' });

    const trashed = await request(owner, folder.id);
    expect((await owner.call(itemsApi.trash, { params: { id: folder.id } })).status).toBe(200);
    expect((await v.call(publicLinksApi.startUpload, { params: { token: trashed.token }, body: { name: 'x.bin', size: 1 } })).status).toBe(404);
    expect((await owner.call(itemsApi.restore, { params: { id: folder.id } })).status).toBe(200);
    expect((await v.call(publicLinksApi.startUpload, { params: { token: trashed.token }, body: { name: 'x.bin', size: 1 } })).status).toBe(201);
  });

  it('never replaces and never tells: a name already in the folder gets a free one, and the visitor’s answers are the same either way', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Reports');
    const original = new TextEncoder().encode('the original');
    await test.given.upload(owner, folder.id, 'report.pdf', original);
    const link = await request(owner, folder.id);
    const v = visitor();
    const bytes = new TextEncoder().encode('a visitor’s report');
    const taken = await visitorUpload(v, link.token, 'Report.pdf', bytes);
    const free = await visitorUpload(v, link.token, 'summary.pdf', bytes);
    expect(taken.start.status).toBe(201);
    expect(taken.complete!.status).toBe(200);
    const shape = (r: { body: Record<string, unknown> }) => Object.keys(r.body).sort();
    expect(shape(taken.start)).toEqual(shape(free.start));
    expect(taken.complete!.body.upload).toMatchObject({ name: 'Report.pdf', state: 'completed' });
    expect(Object.keys(taken.complete!.body.upload).sort()).toEqual(Object.keys(free.complete!.body.upload).sort());

    const names = (await children(owner, folder.id)).map((f) => f.name).sort();
    expect(names).toEqual(['report.pdf', 'Report (2).pdf', 'summary.pdf'].sort());
    const kept = (await children(owner, folder.id)).find((f) => f.name === 'report.pdf')!;
    expect(kept.size).toBe(original.length);
    expect(await linkOf(owner, folder.id, link.id)).toMatchObject({ uploads: 2 });
  });

  it('keeps within the quota and the size limit, and bounds what one address may hold open without touching anyone else', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Big');
    const link = await request(owner, folder.id);
    const v = visitor('198.51.100.1');
    const tooBig = await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'huge.iso', size: 33 * MiB } });
    expect(tooBig).toFail('file_too_large');

    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 5000 }).where('id', '=', owner.workspace.id).execute();
    const over = await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'big.bin', size: 6000 } });
    expect(over).toFail('quota_exceeded');
    // Nothing of the workspace's room is told: used bytes would follow others' uploads into the folder.
    expect(over.error?.details ?? {}).toEqual({});
    // Room taken meanwhile: completion checks again and writes nothing.
    const bytes = randomBytes(3000);
    const start = await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'fits.bin', size: bytes.length } });
    await putVisitorParts(v, link.token, start.body, bytes);
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 2000 }).where('id', '=', owner.workspace.id).execute();
    const full = await v.call(publicLinksApi.completeUpload, { params: { token: link.token, uploadId: start.body.id }, body: {} });
    expect(full).toFail('quota_exceeded');
    expect(full.error?.details ?? {}).toEqual({});
    expect(await children(owner, folder.id)).toEqual([]);
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: null }).where('id', '=', owner.workspace.id).execute();

    // One address holds at most so many open uploads on a link; another address, and the maker, still upload.
    for (let i = 0; i < LIMITS.linkOpenUploads; i++)
      expect((await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: `f${i}.txt`, size: 1 } })).status).toBe(201);
    const limited = await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'one-more.txt', size: 1 } });
    expect(limited).toFail('rate_limited');
    expect(
      (await visitor('198.51.100.2').call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'other.txt', size: 1 } })).status,
    ).toBe(201);
    // An IPv6 address counts by its /64: the next address in it is the same visitor; the next /64 is someone else.
    for (let i = 0; i < LIMITS.linkOpenUploads; i++)
      expect(
        (await visitor('2001:db8:1:1::1').call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: `v6-${i}.txt`, size: 1 } })).status,
      ).toBe(201);
    expect(
      (await visitor('2001:db8:1:1::2').call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'v6-next.txt', size: 1 } })).status,
    ).toBe(429);
    expect(
      (await visitor('2001:db8:1:2::1').call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'v6-other.txt', size: 1 } })).status,
    ).toBe(201);
    expect((await test.given.upload(owner, folder.id, 'owner.txt', new TextEncoder().encode('x'))).status).toBe(200);
  });

  it('keeps a file request within the total its maker set: refused at the start past what is left, open uploads counted, and at completion when the cap was lowered meanwhile', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Capped');
    const view = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', maxBytes: 1000 } });
    expect(invalidFields(view)[0]?.path).toBe('body.maxBytes');
    const link = await request(owner, folder.id, { maxBytes: 1000 });
    expect(link).toMatchObject({ maxBytes: 1000, uploadedBytes: 0 });
    const v = visitor();
    const remaining = async () => (await v.call(publicLinksApi.open, { params: { token: link.token } })).body.remainingBytes;
    const start = (name: string, size: number, from = v) => from.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name, size } });
    expect(await remaining()).toBe(1000);

    expect((await visitorUpload(v, link.token, 'first.bin', randomBytes(600))).complete?.status).toBe(200);
    expect(await remaining()).toBe(400);
    expect(await linkOf(owner, folder.id, link.id)).toMatchObject({ uploads: 1, uploadedBytes: 600, maxBytes: 1000 });

    // Past what is left: refused before anything is sent, saying what is left.
    const over = await start('over.bin', 401);
    expect(over.status).toBe(507);
    expect(over).toFail('quota_exceeded');
    expect(over.error?.details).toEqual({ limit: 'link', remainingBytes: 400 });
    // An open upload holds its room, whoever started it.
    const open = await start('open.bin', 300);
    expect(open.status).toBe(201);
    expect(await start('more.bin', 101, visitor('198.51.100.9'))).toFail('quota_exceeded');

    // The cap lowered while the upload was open: its completion is refused, nothing is made, and the upload ends.
    await putVisitorParts(v, link.token, open.body, randomBytes(300));
    const lowered = await owner.call(linksApi.update, { params: { id: folder.id, linkId: link.id }, body: { maxBytes: 800 } });
    expect(lowered.body).toMatchObject({ maxBytes: 800 });
    const refused = await v.call(publicLinksApi.completeUpload, { params: { token: link.token, uploadId: open.body.id }, body: {} });
    expect(refused.status).toBe(507);
    expect(refused.error?.details).toEqual({ limit: 'link', remainingBytes: 200 });
    expect((await children(owner, folder.id)).map((c) => c.name)).toEqual(['first.bin']);
    expect((await v.call(publicLinksApi.upload, { params: { token: link.token, uploadId: open.body.id } })).body.state).toBe('failed');
    expect(await linkOf(owner, folder.id, link.id)).toMatchObject({ uploads: 1, uploadedBytes: 600 });

    // Without a cap, the workspace's quota alone holds.
    await owner.call(linksApi.update, { params: { id: folder.id, linkId: link.id }, body: { maxBytes: null } });
    expect(await remaining()).toBeUndefined();
    expect((await visitorUpload(v, link.token, 'last.bin', randomBytes(500))).complete?.status).toBe(200);
    expect(await linkOf(owner, folder.id, link.id)).toMatchObject({ uploads: 2, uploadedBytes: 1100, maxBytes: null });
  });

  it('takes a folder: its folders are made inside the request’s folder, always new ones, and its files uploaded into them; nowhere else', async () => {
    const owner = await test.given.person('Olive');
    const folder = await test.given.folder(owner, owner.workspace.homeId, 'Submissions');
    // Someone's folder of that name is there already: what the visitor sends does not mix with it.
    await test.given.folder(owner, folder.id, 'Album');
    const outside = await test.given.folder(owner, owner.workspace.homeId, 'Private');
    const link = await request(owner, folder.id);
    const v = visitor();
    const createFolder = (name: string, parentId?: string) =>
      v.call(publicLinksApi.createFolder, { params: { token: link.token }, body: { name, ...(parentId ? { parentId } : {}) } });

    const album = await createFolder('Album');
    expect(album.status).toBe(201);
    // Its id alone: not the name it was stored under.
    expect(Object.keys(album.body)).toEqual(['id']);
    const day = await createFolder('Day 1', album.body.id);
    expect(day.status).toBe(201);
    const bytes = randomBytes(100);
    const start = await v.call(publicLinksApi.startUpload, {
      params: { token: link.token },
      body: { name: 'photo.jpg', size: bytes.length, sha256: sha256Hex(bytes), parentId: day.body.id },
    });
    expect(start.status).toBe(201);
    await putVisitorParts(v, link.token, start.body, bytes);
    expect((await v.call(publicLinksApi.completeUpload, { params: { token: link.token, uploadId: start.body.id }, body: {} })).status).toBe(200);

    // The owner finds the tree inside the request's folder, the maker's, beside the folder that was there.
    const top = await children(owner, folder.id);
    expect(top.map((c) => c.name)).toEqual(['Album', 'Album (2)']);
    expect(top.find((c) => c.id === album.body.id)).toMatchObject({ name: 'Album (2)', kind: 'folder', ownerId: owner.id });
    expect((await children(owner, album.body.id)).map((c) => c.name)).toEqual(['Day 1']);
    const [photo] = await children(owner, day.body.id);
    expect(photo).toMatchObject({ name: 'photo.jpg', size: 100 });
    const recorded = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'item_id', 'actor_kind'])
      .where('actor_link_id', '=', link.id)
      .where('action', '=', 'item.created')
      .orderBy('id')
      .execute();
    expect(recorded).toEqual([album.body.id, day.body.id, photo!.id].map((id) => ({ action: 'item.created', item_id: id, actor_kind: 'link' })));

    // Nowhere but inside the request's folder, and names as for anyone (PRODUCT.md §5).
    expect(await createFolder('Elsewhere', outside.id)).toFail('not_found');
    expect(await createFolder('In a file', photo!.id)).toFail('not_found');
    expect(await v.call(publicLinksApi.startUpload, { params: { token: link.token }, body: { name: 'x.txt', size: 1, parentId: outside.id } })).toFail(
      'not_found',
    );
    expect(invalidFields(await createFolder('..'))[0]?.path).toBe('body.name');
    expect(invalidFields(await createFolder('a/b'))[0]?.path).toBe('body.name');
    expect((await children(owner, outside.id)).map((c) => c.name)).toEqual([]);
    // A view link makes no folders.
    const view = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } });
    const viewFolder = await visitor().call(publicLinksApi.createFolder, { params: { token: tokenOf(view.body.url!) }, body: { name: 'Nope' } });
    expect(viewFolder).toFail('forbidden');
  });

  it('refuses a visitor’s upload call from another site', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Cross');
    const link = await request(owner, folder.id);
    const res = await visitor().call(
      publicLinksApi.startUpload,
      { params: { token: link.token }, body: { name: 'x.txt', size: 1 } },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(res.status).toBe(403);
  });
});
