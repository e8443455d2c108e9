import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { uuidv7 } from '@cabinet/contracts';
import { AppError } from '../../errors.ts';
import type { ByteRange, DownloadOptions, SignedRequest, StorageDriver, StoredPart } from './driver.ts';
import { UrlSigner } from './url-signer.ts';

export const LOCAL_PART_PATH = '/storage/parts';
export const LOCAL_BLOB_PATH = '/storage/blob';
const MAX_PART_BYTES = 5 * 1024 ** 3;
const KEY = /^[a-z0-9][a-z0-9/_-]{0,500}$/;
const UPLOAD_ID = /^[0-9a-f-]{36}$/;

export interface LocalStorage extends StorageDriver {
  readonly kind: 'local';
  readonly signer: UrlSigner;
  /** Streams one part to disk: written under a temporary name, fsynced, then renamed. */
  writePart(uploadId: string, partNumber: number, body: Readable): Promise<StoredPart>;
  /** Removes temporary files a crash may have left behind. */
  removeTemporaryFiles(): Promise<number>;
}

export function isLocalStorage(storage: StorageDriver): storage is LocalStorage {
  return storage.kind === 'local';
}

async function fsyncPath(p: string): Promise<void> {
  const handle = await open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes bytes so that the final name either does not exist or holds every byte, synced to
 * disk: a temporary name in the same folder, fsync, rename, fsync the folder. The final name
 * may depend on what was written (a part is named by its ETag). One file handle does the
 * writing and the syncing: every system call counts when a file is small.
 */
async function writeDurably(dir: string, write: (put: (chunk: Uint8Array) => Promise<void>) => Promise<void>, finalName: () => string): Promise<string> {
  const tmp = path.join(dir, `.tmp-${randomBytes(6).toString('hex')}`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(tmp, 'w');
    const file = handle;
    await write(async (chunk) => {
      for (let offset = 0; offset < chunk.length; ) offset += (await file.write(chunk, offset)).bytesWritten;
    });
    await file.sync();
    await file.close();
    handle = undefined;
    const final = path.join(dir, finalName());
    await rename(tmp, final);
    await fsyncPath(dir);
    return final;
  } catch (error) {
    await handle?.close().catch(() => {});
    await rm(tmp, { force: true });
    if ((error as { code?: string }).code === 'ENOENT') throw new AppError('upload_expired');
    throw error;
  }
}

/** A stored object: its parts, in order, in the object's folder. */
interface Manifest {
  size: number;
  parts: { file: string; size: number }[];
}
const MANIFEST = 'manifest.json';

/** The manifest of a complete object, or null: an object without one is not complete. */
async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** The bytes `start`…`end` (inclusive) of an object, read part after part. */
async function* readParts(dir: string, manifest: Manifest, start: number, end: number): AsyncGenerator<Buffer> {
  let offset = 0;
  for (const part of manifest.parts) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + part.size - 1);
    if (from <= to) yield* createReadStream(path.join(dir, part.file), { start: from - offset, end: to - offset, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
    offset += part.size;
    if (offset > end) return;
  }
}

export function localStorage(root: string, publicUrl: string, secret: string): LocalStorage {
  const objects = path.join(root, 'objects');
  const multipart = path.join(root, 'multipart');
  const signer = new UrlSigner(publicUrl, secret);

  const pathOf = (key: string) => {
    if (!KEY.test(key) || key.includes('..')) throw new AppError('invalid_input', 'Not a storage key.');
    return path.join(objects, key);
  };
  const uploadDir = (uploadId: string) => {
    if (!UPLOAD_ID.test(uploadId)) throw new AppError('upload_expired');
    return path.join(multipart, uploadId);
  };

  async function uploadKey(uploadId: string): Promise<string> {
    try {
      return (await readFile(path.join(uploadDir(uploadId), 'key'), 'utf8')).trim();
    } catch {
      throw new AppError('upload_expired');
    }
  }

  async function parts(uploadId: string): Promise<StoredPart[]> {
    const dir = uploadDir(uploadId);
    const latest = new Map<number, StoredPart & { mtime: number }>();
    for (const name of await readdir(dir)) {
      const m = /^(\d+)\.([0-9a-f]{32})\.part$/.exec(name);
      if (!m) continue;
      const info = await stat(path.join(dir, name)).catch(() => null);
      if (!info) continue;
      const part = { partNumber: Number(m[1]), etag: m[2]!, size: info.size, mtime: info.mtimeMs };
      const seen = latest.get(part.partNumber);
      if (!seen || seen.mtime <= part.mtime) latest.set(part.partNumber, part);
    }
    return [...latest.values()].sort((a, b) => a.partNumber - b.partNumber).map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
  }

  return {
    kind: 'local',
    browserOrigin: undefined,
    signer,

    async check() {
      await mkdir(objects, { recursive: true });
      const probe = path.join(objects, `.probe-${process.pid}`);
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    },

    async createMultipart(key) {
      pathOf(key);
      const uploadId = uuidv7();
      const dir = uploadDir(uploadId);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'key'), key);
      return uploadId;
    },

    async signPart(key, uploadId, partNumber, ttlSeconds): Promise<SignedRequest> {
      const { url, expiresAt } = signer.sign(`${LOCAL_PART_PATH}/${uploadId}/${partNumber}`, { k: key }, ttlSeconds);
      return { method: 'PUT', url, expiresAt };
    },

    async writePart(uploadId, partNumber, body) {
      const dir = uploadDir(uploadId);
      // The ETag only has to tell one sending of a part from another: random, not a hash of the bytes.
      const etag = randomBytes(16).toString('hex');
      let size = 0;
      // A part sent again is written beside the earlier one; listing and completing take the newest.
      await writeDurably(
        dir,
        async (put) => {
          for await (const chunk of body as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > MAX_PART_BYTES) throw new AppError('invalid_input', 'A part holds at most 5 GiB.');
            await put(chunk);
          }
        },
        () => `${partNumber}.${etag}.part`,
      );
      return { partNumber, etag, size };
    },

    async listParts(key, uploadId) {
      if ((await uploadKey(uploadId)) !== key) throw new AppError('upload_expired');
      return parts(uploadId);
    },

    async completeMultipart(key, uploadId, wanted) {
      if ((await uploadKey(uploadId)) !== key) throw new AppError('upload_expired');
      const have = new Map((await parts(uploadId)).map((p) => [p.partNumber, p]));
      const chosen: { file: string; size: number }[] = [];
      for (const p of wanted) {
        const part = have.get(p.partNumber);
        if (!part || part.etag !== p.etag.replace(/"/g, '')) throw new AppError('invalid_input', `Part ${p.partNumber} is missing or differs.`, { partNumber: p.partNumber });
        chosen.push({ file: `${part.partNumber}.${part.etag}.part`, size: part.size });
      }
      // The parts are already on disk, synced: the object is those parts plus a manifest, so joining
      // them costs one read (for the SHA-256, from the page cache) instead of a second write.
      const dir = uploadDir(uploadId);
      const sha256 = createHash('sha256');
      for (const part of chosen) {
        for await (const chunk of createReadStream(path.join(dir, part.file), { highWaterMark: 1024 * 1024 })) sha256.update(chunk as Buffer);
      }
      const manifest: Manifest = { size: chosen.reduce((sum, p) => sum + p.size, 0), parts: chosen };
      for (const name of await readdir(dir)) {
        if (!chosen.some((p) => p.file === name)) await rm(path.join(dir, name), { force: true });
      }
      await writeDurably(dir, (put) => put(Buffer.from(JSON.stringify(manifest))), () => MANIFEST);
      const final = pathOf(key);
      await mkdir(path.dirname(final), { recursive: true });
      await rename(dir, final);
      await fsyncPath(path.dirname(final));
      return { size: manifest.size, sha256: sha256.digest('hex') };
    },

    async abortMultipart(_key, uploadId) {
      await rm(uploadDir(uploadId), { recursive: true, force: true });
    },

    async signDownload(key, o: DownloadOptions) {
      pathOf(key);
      return signer.sign(LOCAL_BLOB_PATH, { k: key, n: o.filename, t: o.contentType, d: o.disposition }, o.ttlSeconds).url;
    },

    async read(key, range?: ByteRange) {
      const dir = pathOf(key);
      const manifest = await readManifest(dir);
      if (!manifest) throw new AppError('not_found');
      const start = range?.start ?? 0;
      const end = range?.end ?? manifest.size - 1;
      return Readable.from(readParts(dir, manifest, start, end));
    },

    async stat(key) {
      const manifest = await readManifest(pathOf(key));
      return manifest ? { size: manifest.size } : null;
    },

    async delete(key) {
      await rm(pathOf(key), { recursive: true, force: true });
    },

    async removeTemporaryFiles() {
      let removed = 0;
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) await walk(full);
          else if (/^\.tmp-[0-9a-f]{12}$/.test(entry.name)) {
            await rm(full, { force: true });
            removed++;
          }
        }
      };
      await walk(root);
      return removed;
    },
  };
}

