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
    const part = await storage.writePart('ws/one', uploadId, 1, Readable.from([Buffer.from('kept')]));
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
