import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '@cabinet/contracts';
import { AppError } from '../../errors.ts';
import { storageDrivers, storageSettings } from '../../testing/test-s3.ts';
import { freePort, useTestApp } from '../../testing/test-app.ts';

const MiB = 1024 * 1024;

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** One suite, run against every driver: the protocol the browser uses, over real HTTP. */
describe.each(storageDrivers())('storage on %s', (_name, driver) => {
  const test = useTestApp(async () => {
    const port = await freePort();
    return { ...(await storageSettings(driver, port)), PORT: String(port) };
  });

  async function put(url: string, body: Uint8Array): Promise<Response> {
    return fetch(url, { method: 'PUT', body, headers: { origin: test.app.url } });
  }

  it('is ready', async () => {
    const storage = test.app.ctx.storage;
    await expect(storage.check()).resolves.toBeUndefined();
    expect((await fetch(`${test.app.url}/readyz`)).status).toBe(200);
  });

  it("lets the app's pages read a range of a file's bytes from another origin (the viewer's PDFs and text)", async () => {
    const storage = test.app.ctx.storage;
    const key = `test/${uuidv7()}`;
    const bytes = randomBytes(5000);
    const uploadId = await storage.createMultipart(key, 'application/pdf');
    const signed = await storage.signPart(key, uploadId, 1, bytes.length, 600);
    const etag = (await put(signed.url, bytes)).headers.get('etag')!.replace(/"/g, '');
    await storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag }]);
    const url = await storage.signDownload(key, { ttlSeconds: 60, filename: 'big.pdf', contentType: 'application/pdf', disposition: 'inline' });
    // As a browser sends it from the app's page: with its Origin, and a preflight for the Range header.
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: test.app.url, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
    });
    if (new URL(url, test.app.url).origin !== test.app.url) {
      expect(preflight.headers.get('access-control-allow-origin')).toBe(test.app.url);
      expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('range');
    }
    const ranged = await fetch(new URL(url, test.app.url), { headers: { origin: test.app.url, range: 'bytes=1000-1999' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));
    expect(ranged.headers.get('content-range')).toBe('bytes 1000-1999/5000');
    if (new URL(url, test.app.url).origin !== test.app.url) {
      const exposed = (ranged.headers.get('access-control-expose-headers') ?? '').toLowerCase();
      for (const header of ['content-range', 'accept-ranges', 'content-length']) expect(exposed).toContain(header);
    }
    await storage.delete(key);
  });

  it('takes parts in any order, lists them, joins them, and serves the bytes with ranges', async () => {
    const storage = test.app.ctx.storage;
    const key = `test/${uuidv7()}`;
    const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(1234)];
    const uploadId = await storage.createMultipart(key, 'application/octet-stream');
    const etags: string[] = [];
    for (const i of [2, 0, 1]) {
      const signed = await storage.signPart(key, uploadId, i + 1, parts[i]!.length, 600);
      expect(signed.method).toBe('PUT');
      const res = await put(signed.url, parts[i]!);
      expect(res.status, await res.clone().text()).toBe(200);
      etags[i] = res.headers.get('etag')!.replace(/"/g, '');
    }
    const listed = await storage.listParts(key, uploadId);
    expect(listed.map((p) => [p.partNumber, p.size, p.etag])).toEqual(parts.map((p, i) => [i + 1, p.length, etags[i]]));

    const { size } = await storage.completeMultipart(
      key,
      uploadId,
      etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    );
    const whole = Buffer.concat(parts);
    expect(size).toBe(whole.length);
    expect(await storage.stat(key)).toEqual({ size: whole.length });

    const download = { ttlSeconds: 60, filename: 'données <1>.bin', contentType: 'application/octet-stream', disposition: 'attachment' } as const;
    const url = await storage.signDownload(key, download);
    const full = await fetch(url);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-disposition')).toContain("attachment; filename*=UTF-8''donn%C3%A9es%20%3C1%3E.bin");
    expect(sha(new Uint8Array(await full.arrayBuffer()))).toBe(sha(whole));

    const ranged = await fetch(url, { headers: { range: 'bytes=5242870-5242889' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(whole.subarray(5242870, 5242890));
    const head = await fetch(await storage.signDownload(key, { ...download, method: 'HEAD' }), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(whole.length));

    const streamed: Buffer[] = [];
    for await (const chunk of await storage.read(key, { start: 10, end: 19 })) streamed.push(chunk as Buffer);
    expect(Buffer.concat(streamed)).toEqual(whole.subarray(10, 20));

    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
  });

  it('replaces a part sent twice with the later bytes', async () => {
    const storage = test.app.ctx.storage;
    const key = `test/${uuidv7()}`;
    const uploadId = await storage.createMultipart(key, 'text/plain');
    await put((await storage.signPart(key, uploadId, 1, 5, 60)).url, Buffer.from('first'));
    const second = await put((await storage.signPart(key, uploadId, 1, 7, 60)).url, Buffer.from('second!'));
    const listed = await storage.listParts(key, uploadId);
    expect(listed).toEqual([{ partNumber: 1, size: 7, etag: second.headers.get('etag')!.replace(/"/g, '') }]);
    await storage.abortMultipart(key, uploadId);
  });

  it('forgets an aborted upload', async () => {
    const storage = test.app.ctx.storage;
    const key = `test/${uuidv7()}`;
    const uploadId = await storage.createMultipart(key, 'text/plain');
    await put((await storage.signPart(key, uploadId, 1, 5, 60)).url, Buffer.from('bytes'));
    await storage.abortMultipart(key, uploadId);
    const error = await storage.listParts(key, uploadId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('upload_expired');
    expect(await storage.stat(key)).toBeNull();
  });

  it('puts a small object whole, replaces it, and reads it back', async () => {
    const storage = test.app.ctx.storage;
    const key = `previews/${uuidv7()}`;
    const first = randomBytes(1000);
    await storage.put(key, first, 'image/webp');
    expect(await storage.stat(key)).toEqual({ size: 1000 });
    const second = new Uint8Array(randomBytes(300));
    await storage.put(key, second, 'image/webp');
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
    expect(sha(Buffer.concat(chunks))).toBe(sha(second));
    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
  });

  it('takes a part of exactly the length it was signed for', async () => {
    const storage = test.app.ctx.storage;
    const key = `test/${uuidv7()}`;
    const uploadId = await storage.createMultipart(key, 'text/plain');
    const { url } = await storage.signPart(key, uploadId, 1, 5, 60);
    for (const body of ['too long', 'shor', '']) expect((await put(url, Buffer.from(body))).ok, body).toBe(false);
    expect(await storage.listParts(key, uploadId)).toEqual([]);
    expect((await put(url, Buffer.from('exact'))).status).toBe(200);
    expect((await storage.listParts(key, uploadId)).map((p) => p.size)).toEqual([5]);
    await storage.abortMultipart(key, uploadId);
  });

  it('refuses a tampered or expired signature', async () => {
    const storage = test.app.ctx.storage;
    const key = `test/${uuidv7()}`;
    const uploadId = await storage.createMultipart(key, 'text/plain');
    const signed = new URL((await storage.signPart(key, uploadId, 1, 1, 60)).url);
    const other = new URL(signed);
    other.pathname = other.pathname.replace(/\/1$/, '/2').replace(/partNumber=1/, 'partNumber=2');
    other.searchParams.set('partNumber', other.searchParams.has('partNumber') ? '2' : '');
    if (!other.searchParams.get('partNumber')) other.searchParams.delete('partNumber');
    expect((await put(other.href, Buffer.from('x'))).status).toBe(403);
    const expired = await storage.signPart(key, uploadId, 1, 1, 1);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await put(expired.url, Buffer.from('x'))).status).toBe(403);
    expect(await storage.listParts(key, uploadId)).toEqual([]);
    await storage.abortMultipart(key, uploadId);
  });
});

describe('storage that cannot be reached', () => {
  it('answers storage_unavailable', async () => {
    const { s3Storage } = await import('./s3.ts');
    const storage = s3Storage({
      endpoint: `http://127.0.0.1:${await freePort()}`,
      region: 'us-east-1',
      bucket: 'b',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    const error = await storage.createMultipart('test/x', 'text/plain').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('storage_unavailable');
    await expect(storage.check()).rejects.toThrow();
  });
});

describe('parts sent to local disk without a length', () => {
  const test = useTestApp({ STORAGE_DRIVER: 'local' });

  /**
   * A part of 1 byte signed, then 256 MiB offered to `url` a MiB at a time, chunked (the sender can only tell how much
   * was taken by how much it was asked for): the answer's status (or the error that cut it off) and the MiB taken.
   */
  async function offerEndlessPart(url: (signed: string) => string) {
    const storage = test.app.ctx.storage;
    const key = `test/${uuidv7()}`;
    const uploadId = await storage.createMultipart(key, 'application/octet-stream');
    const signed = await storage.signPart(key, uploadId, 1, 1, 60);
    let offered = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offered === 256) return controller.close();
        offered++;
        controller.enqueue(new Uint8Array(MiB));
      },
    });
    const sent = await fetch(url(signed.url), { method: 'PUT', body, duplex: 'half' } as RequestInit).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    expect(offered).toBeLessThan(64);
    // The connection closes with the answer: nothing waits for the rest of the body, nor holds up a shutdown.
    await expect.poll(() => new Promise<number>((resolve) => test.app.app.server.getConnections((_e, n) => resolve(n)))).toBe(0);
    return { sent, key, uploadId };
  }

  it('are read up to the first byte past the signed length, then the request is cut off and nothing is kept', async () => {
    const storage = test.app.ctx.storage;
    const { sent, key, uploadId } = await offerEndlessPart((url) => url);
    expect(sent === 400 || sent instanceof TypeError, String(sent)).toBe(true);
    expect(await storage.listParts(key, uploadId)).toEqual([]);
    const folder = path.join(test.app.ctx.env.DATA_DIR, 'blobs', 'multipart');
    await expect.poll(async () => (await Promise.all((await readdir(folder)).map((d) => readdir(path.join(folder, d))))).flat()).toEqual([]);
    await storage.abortMultipart(key, uploadId);
  });

  it('are refused unread on a link that is not valid, and the connection closes with the answer', async () => {
    const { sent, key, uploadId } = await offerEndlessPart((url) => {
      const tampered = new URL(url);
      tampered.searchParams.set('l', '2');
      return tampered.href;
    });
    expect(sent === 403 || sent instanceof TypeError, String(sent)).toBe(true);
    await test.app.ctx.storage.abortMultipart(key, uploadId);
  });
});
