import { itemsApi, uploadsApi, versionsApi, workspacesApi } from '@cabinet/contracts';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createJobRunner } from '../../jobs.ts';
import { putParts, sha256Hex, type Person } from '../../testing/given.ts';
import { storageDrivers, storageSettings } from '../../testing/test-s3.ts';
import { freePort, useTestApp } from '../../testing/test-app.ts';

const MiB = 1024 * 1024;

/** The entry names a zip's central directory lists (zip64 included), as an unzip tool reads them. */
function zipEntryNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  if (offset === 0xffffffff || count === 0xffff) {
    const end64 = Number(zip.readBigUInt64LE(zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07])) + 8));
    count = Number(zip.readBigUInt64LE(end64 + 32));
    offset = Number(zip.readBigUInt64LE(end64 + 48));
  }
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(offset + 28);
    names.push(zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return names;
}

/** The upload protocol of PRODUCT.md §7 end to end, on every storage driver. */
describe.each(storageDrivers())('uploads on %s', (_name, driver) => {
  const test = useTestApp(async () => {
    const port = await freePort();
    return { ...(await storageSettings(driver, port)), PORT: String(port), UPLOAD_PART_SIZE: '5MiB', MAX_FILE_SIZE: '64MiB', MAX_OPEN_UPLOADS: '12' };
  });

  const children = async (p: Person, folderId: string) => (await p.call(itemsApi.children, { params: { ws: p.workspace.id, id: folderId } })).body.items;
  const usage = async (p: Person) => {
    const { usedBytes } = (await p.call(workspacesApi.get, { params: { ws: p.workspace.id } })).body;
    expect(usedBytes).toBeTypeOf('number');
    return usedBytes!;
  };
  /**
   * Follows the content redirect to the signed URL, as a browser does. Fetched here: a person's call would follow the
   * redirect itself, and read the bytes as text.
   */
  const fetchContent = async (p: Person, itemId: string, init: RequestInit = {}, query = '') => {
    const redirect = await fetch(`${test.app.url}/api/v1/items/${itemId}/content${query}`, {
      headers: { authorization: `Bearer ${p.token}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    return fetch(redirect.headers.get('location')!, init);
  };
  const runJobs = () => createJobRunner(test.app.ctx).runDue();

  it('uploads a file in parts; it appears only when complete, with its bytes, size, type and SHA-256, counted against the quota', async () => {
    const ada = await test.given.person();
    const bytes = randomBytes(11 * MiB + 123);
    const start = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: { parentId: ada.workspace.homeId, name: 'video.mp4', size: bytes.length },
    });
    expect(start.status).toBe(201);
    expect(start.body).toMatchObject({ name: 'video.mp4', size: bytes.length, partSize: 5 * MiB, partCount: 3, state: 'created', mimeType: 'video/mp4' });
    // The first parts come signed with the start.
    expect(start.body.parts.map((p) => p.partNumber)).toEqual([1, 2, 3]);

    // Parts in any order; nothing is visible yet.
    await putParts(ada, start.body, bytes, [3, 1]);
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
    const status = await ada.call(uploadsApi.get, { params: { id: start.body.id } });
    expect(status.body.state).toBe('uploading');
    expect(status.body.parts.map((p) => [p.partNumber, p.size])).toEqual([
      [1, 5 * MiB],
      [3, MiB + 123],
    ]);

    // Completing with a part missing says which, and leaves the upload open.
    const early = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(early).toFail('invalid_input');
    expect(early.error?.details).toMatchObject({ missingParts: [2] });

    await putParts(ada, start.body, bytes, [2]);
    const before = await usage(ada);
    const done = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: { sha256: sha256Hex(bytes) } });
    expect(done.status).toBe(200);
    expect(done.body.upload.state).toBe('completed');
    expect(done.body.item).toMatchObject({
      kind: 'file',
      name: 'video.mp4',
      size: bytes.length,
      mimeType: 'video/mp4',
      parentId: ada.workspace.homeId,
      ownerId: ada.id,
      role: 'manager',
    });
    expect(await usage(ada)).toBe(before + bytes.length);
    expect((await children(ada, ada.workspace.homeId)).map((i) => i.name)).toEqual(['video.mp4']);

    const versions = await ada.call(versionsApi.list, { params: { id: done.body.item.id } });
    expect(versions.body.items).toEqual([expect.objectContaining({ number: 1, size: bytes.length, sha256: sha256Hex(bytes), current: true })]);

    const got = await fetchContent(ada, done.body.item.id);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    const range = await fetchContent(ada, done.body.item.id, { headers: { range: 'bytes=100-199' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    // Completing again (a retry after a dropped answer) answers with the same file.
    const again = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.item.id).toBe(done.body.item.id);
  });

  it('uploads an empty file', async () => {
    const ada = await test.given.person();
    const done = await test.given.upload(ada, ada.workspace.homeId, 'empty.txt', new Uint8Array(0));
    expect(done.status).toBe(200);
    expect(done.body.item).toMatchObject({ size: 0, mimeType: 'text/plain' });
    const got = await fetchContent(ada, done.body.item.id);
    expect((await got.arrayBuffer()).byteLength).toBe(0);
  });

  it('refuses bytes that do not match the SHA-256: no file, quota unchanged, the upload failed', async () => {
    const ada = await test.given.person();
    const bytes = randomBytes(1000);
    const start = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: {
        parentId: ada.workspace.homeId,
        name: 'a.bin',
        size: 1000,
        sha256: sha256Hex(randomBytes(10)),
      },
    });
    await putParts(ada, start.body, bytes);
    const before = await usage(ada);
    const done = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(done).toFail('checksum_mismatch');
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
    expect(await usage(ada)).toBe(before);
    expect((await ada.call(uploadsApi.get, { params: { id: start.body.id } })).body.state).toBe('failed');
    expect(await ada.call(uploadsApi.signParts, { params: { id: start.body.id }, body: { partNumbers: [1] } })).toFail('upload_expired');
    await runJobs();
    const row = await test.app.ctx.db.selectFrom('uploads').selectAll().where('id', '=', start.body.id).executeTakeFirstOrThrow();
    expect(await test.app.ctx.storage.stat(row.blob_key)).toBeNull();
  });

  it('refuses a part of any other length than signed as it arrives: an upload of 1 byte takes no more', async () => {
    // Local disk answers invalid_input; a bucket refuses the signature, which covers the length.
    const refused = driver.STORAGE_DRIVER === 's3' ? 403 : 400;
    const ada = await test.given.person();
    const tiny = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'one.bin', size: 1 } });
    expect(tiny.body.parts).toHaveLength(1);
    const over = await fetch(tiny.body.parts[0]!.url, { method: 'PUT', body: randomBytes(8 * MiB) });
    expect(over.status).toBe(refused);
    expect((await ada.call(uploadsApi.get, { params: { id: tiny.body.id } })).body.parts).toEqual([]);

    // Short parts too, the last one included; the right lengths then complete.
    const bytes = randomBytes(6 * MiB);
    const start = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: { parentId: ada.workspace.homeId, name: 'six.bin', size: bytes.length },
    });
    expect(start.body.parts).toHaveLength(2);
    const [first, last] = start.body.parts;
    expect((await fetch(first!.url, { method: 'PUT', body: bytes.subarray(0, 4 * MiB) })).status).toBe(refused);
    expect((await fetch(last!.url, { method: 'PUT', body: randomBytes(MiB + 1) })).status).toBe(refused);
    expect((await ada.call(uploadsApi.get, { params: { id: start.body.id } })).body.parts).toEqual([]);
    await putParts(ada, start.body, bytes);
    const done = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: { sha256: sha256Hex(bytes) } });
    expect(done.status).toBe(200);
    expect(done.body.item.size).toBe(bytes.length);
  });

  it('keeps one sending of a part sent again: resending cannot pile up bytes beyond the declared size', async () => {
    const ada = await test.given.person();
    const bytes = randomBytes(MiB);
    const start = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: { parentId: ada.workspace.homeId, name: 'again.bin', size: bytes.length },
    });
    expect(start.body.parts).toHaveLength(1);
    for (let i = 0; i < 5; i++) expect((await fetch(start.body.parts[0]!.url, { method: 'PUT', body: bytes })).status).toBe(200);
    const row = await test.app.ctx.db.selectFrom('uploads').selectAll().where('id', '=', start.body.id).executeTakeFirstOrThrow();
    expect(await test.app.ctx.storage.listParts(row.blob_key, row.storage_upload_id)).toEqual([expect.objectContaining({ partNumber: 1, size: bytes.length })]);
    if (driver.STORAGE_DRIVER === 'local') {
      // On local disk, what the folder holds: one sending, nothing kept beside it.
      const multipart = path.join(test.app.dataDir, 'blobs', 'multipart');
      const [dir] = readdirSync(multipart).filter((name) => name.startsWith(`${row.storage_upload_id}.`));
      const stored = readdirSync(path.join(multipart, dir!)).reduce((sum, name) => sum + statSync(path.join(multipart, dir!, name)).size, 0);
      expect(stored).toBe(bytes.length);
    }
    expect((await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: { sha256: sha256Hex(bytes) } })).status).toBe(200);
  });

  it('refuses files over MAX_FILE_SIZE, parts out of range, and names that break the rules', async () => {
    const ada = await test.given.person();
    const big = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: { parentId: ada.workspace.homeId, name: 'big.iso', size: 64 * MiB + 1 },
    });
    expect(big).toFail('file_too_large');
    const bad = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'a/b', size: 1 } });
    expect(bad).toFail('invalid_input');
    const start = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'x.bin', size: 10 } });
    const out = await ada.call(uploadsApi.signParts, { params: { id: start.body.id }, body: { partNumbers: [2] } });
    expect(out).toFail('invalid_input');
  });

  it('starts and completes many small files in two calls, each entry answering for itself in order', async () => {
    const ada = await test.given.person();
    const bob = await test.given.person();
    await test.given.upload(ada, ada.workspace.homeId, 'taken.txt', Buffer.from('old'));
    const files = ['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((name) => ({ name, bytes: randomBytes(1000 + name.charCodeAt(0)) }));
    const started = await ada.call(uploadsApi.startMany, {
      params: { ws: ada.workspace.id },
      body: {
        uploads: [
          ...files.map((f) => ({ parentId: ada.workspace.homeId, name: f.name, size: f.bytes.length })),
          { parentId: bob.workspace.homeId, name: 'sneaky.txt', size: 1 },
          { parentId: ada.workspace.homeId, name: 'TAKEN.txt', size: 3 },
          { parentId: ada.workspace.homeId, name: 'taken.txt', size: 3, onConflict: 'keep_both' },
        ],
      },
    });
    expect(started.status).toBe(200);
    const { results } = started.body;
    expect(results.map((r) => ('upload' in r ? r.upload.name : r.error.code))).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
      'd.txt',
      'not_found',
      'name_conflict',
      'taken.txt',
    ]);
    expect(results[5]).toMatchObject({ error: { details: { suggestedName: 'TAKEN (2).txt' } } });
    const uploads = results.flatMap((r) => ('upload' in r ? [r.upload] : []));
    // Every part came signed with the start: the bytes go straight up.
    for (const [i, u] of uploads.slice(0, 4).entries()) {
      expect(u.parts).toHaveLength(1);
      const res = await fetch(u.parts[0]!.url, { method: 'PUT', body: files[i]!.bytes });
      expect(res.status).toBe(200);
    }
    await putParts(ada, uploads[4]!, Buffer.from('new'));
    const before = await usage(ada);

    const done = await ada.call(uploadsApi.completeMany, {
      body: {
        uploads: [
          ...uploads.slice(0, 4).map((u, i) => ({ id: u.id, sha256: i === 2 ? sha256Hex(Buffer.from('not these bytes')) : sha256Hex(files[i]!.bytes) })),
          { id: uploads[4]!.id },
          { id: '01234567-89ab-7def-8123-456789abcdef' },
        ],
      },
    });
    expect(done.status).toBe(200);
    const outcome = done.body.results.map((r) => ('item' in r ? r.item.name : r.error.code));
    expect(outcome).toEqual(['a.txt', 'b.txt', 'checksum_mismatch', 'd.txt', 'taken (2).txt', 'not_found']);
    expect(await usage(ada)).toBe(before + files[0]!.bytes.length + files[1]!.bytes.length + files[3]!.bytes.length + 3);
    expect((await children(ada, ada.workspace.homeId)).map((i) => i.name).sort()).toEqual(['a.txt', 'b.txt', 'd.txt', 'taken (2).txt', 'taken.txt']);
    const b = (await children(ada, ada.workspace.homeId)).find((i) => i.name === 'b.txt')!;
    const got = await fetchContent(ada, b.id);
    expect(Buffer.from(await got.arrayBuffer()).equals(files[1]!.bytes)).toBe(true);

    // Completing again answers with the same files; an upload named twice in one call answers once.
    const again = await ada.call(uploadsApi.completeMany, { body: { uploads: [{ id: uploads[0]!.id }, { id: uploads[0]!.id }] } });
    expect(again.body.results).toMatchObject([{ item: { name: 'a.txt' } }, { error: { code: 'invalid_input' } }]);
    expect((await bob.call(uploadsApi.completeMany, { body: { uploads: [{ id: uploads[1]!.id }] } })).body.results).toMatchObject([
      { error: { code: 'not_found' } },
    ]);
  });

  it('checks the quota when an upload starts and again when it completes', async () => {
    const ada = await test.given.person();
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 5000 }).where('id', '=', ada.workspace.id).execute();
    // The storage's multipart is asked for before the quota is read (ADR 0076): a start refused cancels it.
    const asked = vi.spyOn(test.app.ctx.storage, 'createMultipart');
    const over = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'big.bin', size: 5001 } });
    expect(over).toFail('quota_exceeded');
    const made = await Promise.all(asked.mock.calls.map(async ([key], i) => ({ key, id: await asked.mock.results[i]!.value })));
    asked.mockRestore();
    expect(made).toHaveLength(1);
    await vi.waitFor(() => expect(test.app.ctx.storage.listParts(made[0]!.key, made[0]!.id)).rejects.toMatchObject({ code: 'upload_expired' }));

    const bytes = randomBytes(3000);
    const start = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: { parentId: ada.workspace.homeId, name: 'fits.bin', size: 3000 },
    });
    expect(start.status).toBe(201);
    await putParts(ada, start.body, bytes);
    expect((await test.given.upload(ada, ada.workspace.homeId, 'other.bin', randomBytes(1500))).status).toBe(200);
    // Meanwhile an admin lowers the quota below what the upload needs.
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 4000 }).where('id', '=', ada.workspace.id).execute();
    const done = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(done.status).toBe(507);
    expect(await usage(ada)).toBe(1500);
    expect((await children(ada, ada.workspace.homeId)).map((i) => i.name)).toEqual(['other.bin']);
  });

  it('counts the bytes open uploads reserve against the quota until they complete, are cancelled or expire', async () => {
    const ada = await test.given.person();
    const bob = await test.given.person();
    await test.given.membership(bob, ada.workspace.id, 'member');
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 1000 }).where('id', '=', ada.workspace.id).execute();
    const open = (p: Person, name: string, size: number) =>
      p.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.rootId, name, size } });

    const first = await open(ada, 'first.bin', 600);
    expect(first.status).toBe(201);
    // Anyone's upload into the workspace counts, not only the uploader's own.
    const second = await open(bob, 'second.bin', 600);
    expect(second).toFail('quota_exceeded');
    expect(second.error?.details).toMatchObject({ quotaBytes: 1000, usedBytes: 0, reservedBytes: 600, neededBytes: 600 });
    const batch = await bob.call(uploadsApi.startMany, {
      params: { ws: ada.workspace.id },
      body: {
        uploads: [200, 200, 1].map((size, i) => ({ parentId: ada.workspace.rootId, name: `${i}.bin`, size })),
      },
    });
    expect(batch.body.results.map((r) => ('error' in r ? r.error.code : 'started'))).toEqual(['started', 'started', 'quota_exceeded']);
    const batchStarted = batch.body.results.flatMap((r) => ('upload' in r ? [r.upload] : []));
    for (const u of batchStarted) expect((await bob.call(uploadsApi.abort, { params: { id: u.id } })).status).toBe(204);

    // Cancelling releases the reservation.
    expect((await ada.call(uploadsApi.abort, { params: { id: first.body.id } })).status).toBe(204);
    const third = await open(bob, 'third.bin', 600);
    expect(third.status).toBe(201);
    // Completing turns it into used bytes: counted once.
    await putParts(bob, third.body, randomBytes(600));
    expect((await bob.call(uploadsApi.complete, { params: { id: third.body.id }, body: {} })).status).toBe(200);
    expect(await usage(ada)).toBe(600);
    expect((await open(ada, 'rest.bin', 401)).status).toBe(507);
    const rest = await open(ada, 'rest.bin', 400);
    expect(rest.status).toBe(201);
    // An upload past its expiry reserves nothing, even before the expiry job ends it.
    expect((await open(ada, 'late.bin', 1)).status).toBe(507);
    await test.app.ctx.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', rest.body.id)
      .execute();
    expect((await open(ada, 'late.bin', 400)).status).toBe(201);
  });

  it('reserves room once when starts arrive at the same moment: together they take no more than the quota or the open-upload bound', async () => {
    const ada = await test.given.person();
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 1000 }).where('id', '=', ada.workspace.id).execute();
    const start = (name: string, size: number) =>
      ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name, size } });
    const big = await Promise.all(Array.from({ length: 8 }, (_, i) => start(`big-${i}.bin`, 600)));
    expect(big.map((r) => r.status).sort()).toEqual([201, ...Array(7).fill(507)]);
    for (const r of big) if (r.status === 201) expect((await ada.call(uploadsApi.abort, { params: { id: r.body.id } })).status).toBe(204);

    const small = await Promise.all(Array.from({ length: 20 }, (_, i) => start(`small-${i}.bin`, 1)));
    expect(small.filter((r) => r.status === 201)).toHaveLength(12);
    expect(small.filter((r) => r.status === 429)).toHaveLength(8);
    for (const r of small) if (r.status === 201) expect((await ada.call(uploadsApi.abort, { params: { id: r.body.id } })).status).toBe(204);
  });

  it('bounds the uploads one person has open at once, answering rate_limited until some end', async () => {
    const ada = await test.given.person();
    const start = (name: string) => ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name, size: 10 } });
    const batch = await ada.call(uploadsApi.startMany, {
      params: { ws: ada.workspace.id },
      body: {
        uploads: Array.from({ length: 14 }, (_, i) => ({ parentId: ada.workspace.homeId, name: `${i}.bin`, size: 10 })),
      },
    });
    const { results } = batch.body;
    expect(results.map((r) => ('upload' in r ? 'started' : r.error.code))).toEqual([...Array(12).fill('started'), 'rate_limited', 'rate_limited']);
    expect(results[12]).toMatchObject({ error: { details: { openUploads: 12, maxOpenUploads: 12 } } });
    const over = await start('over.bin');
    expect(over).toFail('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // In another workspace too: the bound is the person's.
    const bob = await test.given.person();
    await test.given.membership(ada, bob.workspace.id, 'member');
    expect(
      (await ada.call(uploadsApi.start, { params: { ws: bob.workspace.id }, body: { parentId: bob.workspace.rootId, name: 'x.bin', size: 1 } })).status,
    ).toBe(429);

    const [done, cancelled] = results.map((r) => ('upload' in r ? r.upload : undefined));
    await putParts(ada, done!, randomBytes(10));
    expect((await ada.call(uploadsApi.complete, { params: { id: done!.id }, body: {} })).status).toBe(200);
    expect((await start('after-complete.bin')).status).toBe(201);
    expect((await ada.call(uploadsApi.abort, { params: { id: cancelled!.id } })).status).toBe(204);
    expect((await start('after-cancel.bin')).status).toBe(201);
    expect((await start('one-too-many.bin')).status).toBe(429);
  });

  it('answers every completion of one upload called at once with the same finished file, made once', async () => {
    const ada = await test.given.person();
    for (const bytes of [randomBytes(11 * MiB), randomBytes(3000)]) {
      const start = await ada.call(uploadsApi.start, {
        params: { ws: ada.workspace.id },
        body: {
          parentId: ada.workspace.homeId,
          name: `at-once-${bytes.length}.bin`,
          size: bytes.length,
        },
      });
      await putParts(ada, start.body, bytes);
      const before = await usage(ada);
      const [single, many] = await Promise.all([
        Promise.all(Array.from({ length: 4 }, () => ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} }))),
        ada.call(uploadsApi.completeMany, { body: { uploads: [{ id: start.body.id }] } }),
      ]);
      expect(single.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      for (const a of single) expect(a.body).toEqual(single[0]!.body);
      expect(many.body.results[0]).toEqual(single[0]!.body);
      expect(single[0]!.body.item).toMatchObject({ size: bytes.length, name: start.body.name });
      expect(await usage(ada)).toBe(before + bytes.length);
      expect((await children(ada, ada.workspace.homeId)).filter((i) => i.name === start.body.name)).toHaveLength(1);
      const got = await fetchContent(ada, single[0]!.body.item.id);
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('offers keep both, replace (a new version) or skip when the name is taken', async () => {
    const ada = await test.given.person();
    const first = await test.given.upload(ada, ada.workspace.homeId, 'Report.pdf', Buffer.from('one'));
    const clash = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'report.pdf', size: 3 } });
    expect(clash).toFail('name_conflict');
    expect(clash.error?.details).toMatchObject({ suggestedName: 'report (2).pdf' });

    const both = await test.given.upload(ada, ada.workspace.homeId, 'report.pdf', Buffer.from('two'), { onConflict: 'keep_both' });
    expect(both.body.item.name).toBe('report (2).pdf');

    const replaced = await test.given.upload(ada, ada.workspace.homeId, 'Report.pdf', Buffer.from('three'), { onConflict: 'replace' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.item).toMatchObject({ id: first.body.item.id, size: 5, version: 2 });
    const versions = (await ada.call(versionsApi.list, { params: { id: first.body.item.id } })).body.items;
    expect(versions.map((v) => [v.number, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const old = await fetchContent(ada, first.body.item.id, {}, `?version=${versions[1]!.id}`);
    expect(await old.text()).toBe('one');
    expect(await (await fetchContent(ada, first.body.item.id)).text()).toBe('three');
    expect(await usage(ada)).toBe(3 + 3 + 5);

    // A new version through /items/:id/versions.
    const start = await ada.call(versionsApi.start, { params: { id: first.body.item.id }, body: { size: 4 } });
    expect(start.status).toBe(201);
    await putParts(ada, start.body, Buffer.from('four'));
    const v3 = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(v3.body.item).toMatchObject({ id: first.body.item.id, size: 4, version: 3 });

    // Someone the file alone is shared with, as editor, adds a version too: their folder access does not matter.
    const bea = await test.given.person();
    await test.given.membership(bea, ada.workspace.id, 'guest');
    await test.given.grant(first.body.item.id, { user: bea }, 'editor');
    const theirs = await bea.call(versionsApi.start, { params: { id: first.body.item.id }, body: { size: 5 } });
    expect(theirs.status).toBe(201);
    await putParts(bea, theirs.body, Buffer.from('fifth'));
    const v4 = await bea.call(uploadsApi.complete, { params: { id: theirs.body.id }, body: {} });
    expect(v4.status).toBe(200);
    expect(v4.body.item).toMatchObject({ id: first.body.item.id, size: 5, version: 4, role: 'editor' });
    const recorded = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'data'])
      .where('item_id', '=', first.body.item.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ action: 'item.updated', data: { version: 4, parentIds: [ada.workspace.homeId] } });
  });

  it('takes a different answer to a name conflict that arose while uploading', async () => {
    const ada = await test.given.person();
    const start = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'notes.txt', size: 5 } });
    await putParts(ada, start.body, Buffer.from('later'));
    await test.given.upload(ada, ada.workspace.homeId, 'notes.txt', Buffer.from('first'));
    const clash = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    expect(clash).toFail('name_conflict');
    const kept = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: { onConflict: 'keep_both' } });
    expect(kept.body.item.name).toBe('notes (2).txt');
  });

  it('cancels an upload: it cannot take parts any more and its parts are removed', async () => {
    const ada = await test.given.person();
    const start = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'c.bin', size: 10 } });
    await putParts(ada, start.body, randomBytes(10));
    expect((await ada.call(uploadsApi.unfinished, { params: { ws: ada.workspace.id } })).body.items.map((u) => u.id)).toEqual([start.body.id]);
    expect((await ada.call(uploadsApi.abort, { params: { id: start.body.id } })).status).toBe(204);
    expect(await ada.call(uploadsApi.signParts, { params: { id: start.body.id }, body: { partNumbers: [1] } })).toFail('upload_expired');
    expect((await ada.call(uploadsApi.unfinished, { params: { ws: ada.workspace.id } })).body.items).toEqual([]);
    await runJobs();
    const row = await test.app.ctx.db.selectFrom('uploads').selectAll().where('id', '=', start.body.id).executeTakeFirstOrThrow();
    await expect(test.app.ctx.storage.listParts(row.blob_key, row.storage_upload_id)).rejects.toMatchObject({ code: 'upload_expired' });
  });

  it('expires an upload left alone past its expiry, removing its parts', async () => {
    const ada = await test.given.person();
    const start = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name: 'stale.bin', size: 10 } });
    await putParts(ada, start.body, randomBytes(10));
    await test.app.ctx.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', start.body.id)
      .execute();
    expect(await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} })).toFail('upload_expired');
    const { expireStaleUploads } = await import('./expire-uploads.ts');
    expect(await expireStaleUploads(test.app.ctx.db)).toBeGreaterThanOrEqual(1);
    await runJobs();
    expect((await ada.call(uploadsApi.get, { params: { id: start.body.id } })).body).toMatchObject({ state: 'expired', parts: [] });
    // A week after it ended, the upload is forgotten.
    const { deleteEndedUploads } = await import('./files.repo.ts');
    await test.app.ctx.db
      .updateTable('uploads')
      .set({ updated_at: new Date(Date.now() - 8 * 86_400_000) })
      .where('id', '=', start.body.id)
      .execute();
    expect(await deleteEndedUploads(test.app.ctx.db, new Date(Date.now() - 7 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect((await ada.call(uploadsApi.get, { params: { id: start.body.id } })).status).toBe(404);
  });

  it("keeps uploads private: another person's upload does not exist for them", async () => {
    const ada = await test.given.person();
    const bob = await test.given.person();
    await test.given.membership(bob, ada.workspace.id, 'member');
    const start = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.rootId, name: 'mine.bin', size: 10 } });
    const id = start.body.id;
    for (const [route, attempt] of [
      [uploadsApi.get, () => bob.call(uploadsApi.get, { params: { id } })],
      [uploadsApi.signParts, () => bob.call(uploadsApi.signParts, { params: { id }, body: { partNumbers: [1] } })],
      [uploadsApi.complete, () => bob.call(uploadsApi.complete, { params: { id }, body: {} })],
      [uploadsApi.abort, () => bob.call(uploadsApi.abort, { params: { id } })],
    ] as const) {
      expect((await attempt()).status, `${route.method} ${route.path}`).toBe(404);
    }
    // And nobody uploads into a folder they cannot edit.
    const viewer = await test.given.person();
    await test.given.membership(viewer, ada.workspace.id, 'guest');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Read only');
    await test.given.grant(folder.id, { user: viewer }, 'viewer');
    expect((await viewer.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: folder.id, name: 'x', size: 1 } })).status).toBe(403);
    // The folder's access a WebDAV request hands its upload (ADR 0071) is never taken from a request's body.
    const forged = {
      item: { id: folder.id, kind: 'folder', state: 'active', parent_id: ada.workspace.rootId },
      role: 'manager',
      trashedAbove: false,
      abilities: { createInside: true },
    };
    const one = await viewer.raw('POST', `/workspaces/${ada.workspace.id}/uploads`, { parentId: folder.id, name: 'x', size: 1, folder: forged });
    expect(one.status).toBe(403);
    const batch = await viewer.raw('POST', `/workspaces/${ada.workspace.id}/uploads/batch`, {
      uploads: [{ parentId: folder.id, name: 'x', size: 1, onConflict: 'keep_both', folder: forged }],
    });
    expect(batch.body.results[0].error.code).toBe('forbidden');
  });

  it('serves downloads as attachments unless the type is safe to show, never sniffed', async () => {
    const ada = await test.given.person();
    const html = await test.given.upload(ada, ada.workspace.homeId, '<img src=x onerror=alert(1)>.html', Buffer.from('<script>alert(1)</script>'));
    expect(html.status).toBe(200);
    const svg = await test.given.upload(
      ada,
      ada.workspace.homeId,
      'logo.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    const png = await test.given.upload(ada, ada.workspace.homeId, 'pixel.png', Buffer.from('89504e470d0a1a0a', 'hex'));
    for (const item of [html.body.item, svg.body.item]) {
      const res = await fetchContent(ada, item.id);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
      if (driver.STORAGE_DRIVER === 'local') {
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      }
    }
    expect((await fetchContent(ada, png.body.item.id)).headers.get('content-disposition')).toMatch(/^inline/);
    expect((await fetchContent(ada, png.body.item.id, {}, '?download=1')).headers.get('content-disposition')).toMatch(/^attachment/);
    // HEAD has its own signed URL (no declaration calls a route with HEAD).
    const head = await fetch(`${test.app.url}/api/v1/items/${png.body.item.id}/content`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${ada.token}` },
      redirect: 'manual',
    });
    expect(head.status).toBe(302);
    const target = await fetch(head.headers.get('location')!, { method: 'HEAD' });
    expect(target.status).toBe(200);
    expect(target.headers.get('content-length')).toBe('8');
  });

  it('copies files and folders without copying bytes; deleting the original for good keeps the copy whole', async () => {
    const ada = await test.given.person();
    const folder = await test.given.folder(ada, ada.workspace.homeId, 'Album');
    const inner = await test.given.folder(ada, folder.id, 'Inner');
    const bytes = randomBytes(4000);
    const file = await test.given.upload(ada, inner.id, 'photo.jpg', bytes);
    const copy = await ada.call(itemsApi.copy, { params: { id: folder.id }, body: { parentId: ada.workspace.homeId } });
    expect(copy.status).toBe(201);
    expect(copy.body.name).toBe('Album (2)');
    const copiedInner = (await children(ada, copy.body.id))[0]!;
    const copiedFile = (await children(ada, copiedInner.id))[0]!;
    expect(copiedFile).toMatchObject({ name: 'photo.jpg', size: 4000 });
    expect(copiedFile.id).not.toBe(file.body.item.id);
    expect(await usage(ada)).toBe(8000);
    expect(await ada.call(itemsApi.copy, { params: { id: folder.id }, body: { parentId: inner.id } })).toFail('cycle');

    await ada.call(itemsApi.trash, { params: { id: folder.id } });
    expect((await ada.call(itemsApi.purge, { params: { id: folder.id } })).status).toBe(204);
    await runJobs();
    expect(await usage(ada)).toBe(4000);
    const got = await fetchContent(ada, copiedFile.id);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);

    // Deleting the copy too removes the bytes from storage.
    const key = (await test.app.ctx.db.selectFrom('file_versions').select('blob_key').where('item_id', '=', copiedFile.id).executeTakeFirstOrThrow()).blob_key;
    await ada.call(itemsApi.trash, { params: { id: copy.body.id } });
    await ada.call(itemsApi.purge, { params: { id: copy.body.id } });
    await runJobs();
    expect(await test.app.ctx.storage.stat(key)).toBeNull();
    expect(await usage(ada)).toBe(0);
  });

  it('names zip entries so that they unzip inside the folder chosen, each once, whatever the items are called', async () => {
    const ada = await test.given.person();
    const folder = await test.given.folder(ada, ada.workspace.homeId, 'Drop');
    const evil = await test.given.folder(ada, folder.id, 'C:\\');
    await test.given.upload(ada, evil.id, '..\\..\\x.bat', Buffer.from('@echo off'));
    await test.given.upload(ada, folder.id, 'C:', Buffer.from('drive'));
    await test.given.upload(ada, folder.id, 'C_', Buffer.from('plain'));
    await test.given.upload(ada, folder.id, 'a\\b.txt', Buffer.from('one'));
    await test.given.upload(ada, folder.id, 'a_b.txt', Buffer.from('two'));
    const old = await test.given.upload(ada, folder.id, 'old name', Buffer.from('three'));
    // Names stored before control characters were refused.
    await test.app.ctx.db.updateTable('items').set({ name: '\u009b2J\u0007bell' }).where('id', '=', old.body.item.id).execute();
    // Zips are fetched: an answer read as text would not keep their bytes.
    const res = await fetch(`${test.app.url}/api/v1/items/${folder.id}/content`, { headers: { authorization: `Bearer ${ada.token}` } });
    expect(res.status).toBe(200);
    const names = zipEntryNames(Buffer.from(await res.arrayBuffer()));
    expect(names.sort()).toEqual(['C__/', 'C__/.._.._x.bat', 'C_', 'C_ (2)', 'a_b.txt', 'a_b (2).txt', '_2J_bell'].sort());
    // eslint-disable-next-line no-control-regex -- no entry may hold a control character
    for (const name of names) expect(name).not.toMatch(/^\/|\\|:|(^|\/)\.\.(\/|$)|[\u0000-\u001f\u007f-\u009f]/);

    const several = await fetch(`${test.app.url}/api/v1/workspaces/${ada.workspace.id}/zip?ids=${folder.id},${evil.id}`, {
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(zipEntryNames(Buffer.from(await several.arrayBuffer()))).toEqual(expect.arrayContaining(['Drop/C__/.._.._x.bat', 'C__/.._.._x.bat']));
  });

  it('downloads a folder, and several items, as a zip whose length is known up front', async () => {
    const ada = await test.given.person();
    const folder = await test.given.folder(ada, ada.workspace.homeId, 'Trip');
    const sub = await test.given.folder(ada, folder.id, 'Day 1');
    const a = Buffer.from('first file bytes');
    const b = randomBytes(3000);
    await test.given.upload(ada, folder.id, 'notes.txt', a);
    const photo = await test.given.upload(ada, sub.id, 'photo.jpg', b);
    // Zips are fetched: an answer read as text would not keep their bytes.
    const res = await fetch(`${test.app.url}/api/v1/items/${folder.id}/content`, { headers: { authorization: `Bearer ${ada.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('Trip.zip');
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip.length).toBe(Number(res.headers.get('content-length')));
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.includes(a)).toBe(true);
    expect(zip.includes(b)).toBe(true);
    expect(zip.includes(Buffer.from('Day 1/photo.jpg'))).toBe(true);

    const several = await fetch(`${test.app.url}/api/v1/workspaces/${ada.workspace.id}/zip?ids=${folder.id},${photo.body.item.id}`, {
      headers: { authorization: `Bearer ${ada.token}` },
    });
    const both = Buffer.from(await several.arrayBuffer());
    expect(both.length).toBe(Number(several.headers.get('content-length')));
    expect(both.includes(Buffer.from('Trip/Day 1/photo.jpg'))).toBe(true);
    expect(both.includes(Buffer.from('photo.jpg'))).toBe(true);
  });
});
