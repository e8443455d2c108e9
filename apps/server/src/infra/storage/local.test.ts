import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, existsSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { localStorage } from './local.ts';

it('removes what an interrupted write left under temporary names, and nothing else', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-local-'));
  try {
    const storage = localStorage(root, 'http://localhost', 'secret');
    const uploadId = await storage.createMultipart('ws/one', 'text/plain');
    const part = await storage.writePart('ws/one', uploadId, 1, 4, Readable.from([Buffer.from('kept')]));
    const [uploadDir] = readdirSync(path.join(root, 'multipart'));
    const leftover = path.join(root, 'multipart', uploadDir!, '.tmp-0123456789ab');
    mkdirSync(path.join(root, 'objects', 'ws'), { recursive: true });
    const leftoverObject = path.join(root, 'objects', 'ws', '.tmp-ba9876543210');
    writeFileSync(leftover, 'half a part');
    writeFileSync(leftoverObject, 'half a file');
    expect(await storage.removeTemporaryFiles()).toBe(2);
    expect(existsSync(leftover) || existsSync(leftoverObject)).toBe(false);
    expect(await storage.listParts('ws/one', uploadId)).toEqual([part]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('refuses keys that could leave the storage folder', async () => {
  const storage = localStorage('/tmp/nowhere', 'http://localhost', 'secret');
  await expect(storage.stat('../etc/passwd')).rejects.toThrow();
  await expect(storage.createMultipart('/abs', 'x')).rejects.toThrow();
});

it('completes a one-part object from the SHA-256 taken on the way in, and a several-part one by reading its parts', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-local-'));
  try {
    const storage = localStorage(root, 'http://localhost', 'secret');
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const one = Buffer.from('the whole object');
    const oneId = await storage.createMultipart('ws/one', 'text/plain');
    const part = await storage.writePart('ws/one', oneId, 1, one.length, Readable.from([one.subarray(0, 5), one.subarray(5)]), { hash: true });
    expect(await storage.completeMultipart('ws/one', oneId, [part])).toEqual({ size: one.length, sha256: sha(one) });

    const two = [Buffer.from('first half, '), Buffer.from('second half')];
    const twoId = await storage.createMultipart('ws/two', 'text/plain');
    const parts = [
      await storage.writePart('ws/two', twoId, 1, two[0]!.length, Readable.from([two[0]!])),
      await storage.writePart('ws/two', twoId, 2, two[1]!.length, Readable.from([two[1]!])),
    ];
    expect(await storage.completeMultipart('ws/two', twoId, parts)).toEqual({ size: 23, sha256: sha(Buffer.concat(two)) });
    const read: Buffer[] = [];
    for await (const chunk of await storage.read('ws/one')) read.push(chunk as Buffer);
    expect(Buffer.concat(read)).toEqual(one);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('stops reading a part at the first byte past its length, keeping nothing of it; a short part is refused too', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-local-'));
  try {
    const storage = localStorage(root, 'http://localhost', 'secret');
    const uploadId = await storage.createMultipart('ws/one', 'text/plain');
    let sent = 0;
    // A body that would never end: 1 MiB after 1 MiB.
    async function* endless() {
      for (;;) {
        sent++;
        yield Buffer.alloc(1024 * 1024, 1);
      }
    }
    await expect(storage.writePart('ws/one', uploadId, 1, 1, Readable.from(endless()))).rejects.toMatchObject({
      code: 'invalid_input',
      details: { partSize: 1 },
    });
    // A stream reads one chunk ahead of its reader.
    expect(sent).toBeLessThanOrEqual(2);
    await expect(storage.writePart('ws/one', uploadId, 1, 10, Readable.from([Buffer.from('short')]))).rejects.toMatchObject({ code: 'invalid_input' });
    const [uploadDir] = readdirSync(path.join(root, 'multipart'));
    expect(readdirSync(path.join(root, 'multipart', uploadDir!))).toEqual([]);
    expect(await storage.listParts('ws/one', uploadId)).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
