import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { uuidv7 } from '@cabinet/contracts';
import { AppError } from '../../errors.ts';
import { partLengthRefused } from './storage-errors.ts';
import { fsyncPath } from '../../lib/fsync.ts';
import type { ByteRange, DownloadOptions, SignedRequest, StorageDriver, StoredPart } from './driver.ts';
import { UrlSigner } from './url-signer.ts';

export const LOCAL_PART_PATH = '/storage/parts';
export const LOCAL_BLOB_PATH = '/storage/blob';
const KEY = /^[a-z0-9][a-z0-9/_-]{0,500}$/;
const UPLOAD_ID = /^[0-9a-f-]{36}$/;
/**
 * A part on disk: `<partNumber>.<etag>.<size>[.<sha256>].part`. The name says all a listing needs,
 * so no file is opened to list; the SHA-256 is there when the part is the whole object.
 */
const PART_FILE = /^(\d+)\.([0-9a-f]{32})\.(\d+)(?:\.([0-9a-f]{64}))?\.part$/;
/** Parts this small are read whole to hash them; bigger ones stream. */
const READ_WHOLE_BYTES = 1024 * 1024;

export interface LocalStorage extends StorageDriver {
  readonly kind: 'local';
  readonly signer: UrlSigner;
  /** Removes temporary files a crash may have left behind. */
  removeTemporaryFiles(): Promise<number>;
}

export function isLocalStorage(storage: StorageDriver): storage is LocalStorage {
  return storage.kind === 'local';
}

/**
 * fsyncs of one folder, grouped: a caller gets a sync that started after it asked, and every
 * caller waiting meanwhile shares the next one. Many small files completing together into one
 * folder then cost one folder sync between them, not one each.
 */
function groupedFolderSync(): (dir: string) => Promise<void> {
  const folders = new Map<string, { running: Promise<void>; next: Promise<void> | undefined }>();
  const start = (dir: string): Promise<void> => {
    const running = fsyncPath(dir).finally(() => {
      const entry = folders.get(dir);
      if (entry?.running !== running) return;
      if (entry.next) return;
      folders.delete(dir);
    });
    return running;
  };
  return (dir) => {
    const entry = folders.get(dir);
    if (!entry) {
      const running = start(dir);
      folders.set(dir, { running, next: undefined });
      return running;
    }
    entry.next ??= entry.running
      .catch(() => {})
      .then(() => {
        const next = start(dir);
        folders.set(dir, { running: next, next: undefined });
        return next;
      });
    return entry.next;
  };
}

/**
 * Writes bytes so that the final name either does not exist or holds every byte, synced to
 * disk: a temporary name in the same folder, fsync, rename. The final name may depend on what
 * was written. One file handle does the writing and the syncing: every system call counts when
 * a file is small. The folder itself is synced by whoever needs the new name to last (completion).
 */
async function writeDurably(dir: string, write: (put: (chunk: Uint8Array) => Promise<void>) => Promise<void>, finalName: () => string): Promise<string> {
  const tmp = path.join(dir, `.tmp-${randomBytes(6).toString('hex')}`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(tmp, 'w');
    const file = handle;
    await write(async (chunk) => {
      for (let offset = 0; offset < chunk.length;) offset += (await file.write(chunk, offset)).bytesWritten;
    });
    await file.sync();
    await file.close();
    handle = undefined;
    const final = path.join(dir, finalName());
    await rename(tmp, final);
    return final;
  } catch (error) {
    await handle?.close().catch(() => {});
    await rm(tmp, { force: true });
    if ((error as { code?: string }).code === 'ENOENT') throw new AppError('upload_expired');
    throw error;
  }
}

interface PartFile extends StoredPart {
  file: string;
  sha256: string | undefined;
}

/** The parts in a folder, in order (of a part sent twice, the later sending: ETags are time-ordered), and every name in it. */
async function partsIn(dir: string): Promise<{ parts: PartFile[]; names: string[] }> {
  const latest = new Map<number, PartFile>();
  const names = await readdir(dir);
  for (const file of names) {
    const m = PART_FILE.exec(file);
    if (!m) continue;
    const part = { partNumber: Number(m[1]), etag: m[2]!, size: Number(m[3]), sha256: m[4], file };
    const seen = latest.get(part.partNumber);
    if (!seen || seen.etag < part.etag) latest.set(part.partNumber, part);
  }
  return { parts: [...latest.values()].sort((a, b) => a.partNumber - b.partNumber), names };
}

/** Feeds a part's bytes to a hash: a small part in one read, a big one streamed. */
async function hashPart(hash: Hash, file: string, size: number): Promise<void> {
  if (size > READ_WHOLE_BYTES) {
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
    return;
  }
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    hash.update(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The bytes `start`…`end` (inclusive) of an object, read part after part. */
async function* readParts(dir: string, parts: PartFile[], start: number, end: number): AsyncGenerator<Buffer> {
  let offset = 0;
  for (const part of parts) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + part.size - 1);
    if (from <= to)
      yield* createReadStream(path.join(dir, part.file), { start: from - offset, end: to - offset, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
    offset += part.size;
    if (offset > end) return;
  }
}

/** A part's length is fixed when its URL is signed, as S3 fixes it in a presigned URL's signature. */
const notFound = (error: unknown) => (error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR';

/**
 * `contentUrl`: the origin that serves the bytes people uploaded (USER_CONTENT_URL), when it is
 * not the app's own; parts are still sent to the app's.
 */
export function localStorage(root: string, publicUrl: string, secret: string, contentUrl?: string): LocalStorage {
  const objects = path.join(root, 'objects');
  const multipart = path.join(root, 'multipart');
  const signer = new UrlSigner(publicUrl, secret);
  const contentSigner = contentUrl ? new UrlSigner(contentUrl, secret) : signer;
  const syncFolder = groupedFolderSync();
  /** Folders known to exist, so a small upload does not ask for them again. */
  const made = new Set<string>();

  const ensureFolder = async (dir: string) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
  const pathOf = (key: string) => {
    if (!KEY.test(key) || key.includes('..')) throw new AppError('invalid_input', 'Not a storage key.');
    return path.join(objects, key);
  };
  /** An upload's folder is named by its id and its key, so an id never reaches another key's parts. */
  const uploadDir = (key: string, uploadId: string) => {
    pathOf(key);
    if (!UPLOAD_ID.test(uploadId)) throw new AppError('upload_expired');
    return path.join(multipart, `${uploadId}.${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
  };
  const partsOfUpload = (dir: string) =>
    partsIn(dir).catch((error: unknown) => {
      throw notFound(error) ? new AppError('upload_expired') : error;
    });
  /** A complete object's parts, or null: an object's folder appears only once it is complete. */
  const partsOfObject = (key: string) =>
    partsIn(pathOf(key)).then(
      (listing) => listing.parts,
      (error: unknown) => (notFound(error) ? null : Promise.reject(error)),
    );

  return {
    kind: 'local',
    browserOrigin: contentUrl ? new URL(contentUrl).origin : undefined,
    signer,

    async check() {
      await mkdir(objects, { recursive: true });
      const probe = path.join(objects, `.probe-${process.pid}`);
      await writeFile(probe, 'ok');
      await rm(probe, { force: true });
    },

    async createMultipart(key) {
      const uploadId = uuidv7();
      await ensureFolder(multipart);
      await mkdir(uploadDir(key, uploadId));
      return uploadId;
    },

    async signPart(key, uploadId, partNumber, size, ttlSeconds, options): Promise<SignedRequest> {
      const { url, expiresAt } = signer.sign(
        `${LOCAL_PART_PATH}/${uploadId}/${partNumber}`,
        { k: key, l: String(size), ...(options?.onlyPart ? { w: '1' } : {}) },
        ttlSeconds,
      );
      return { method: 'PUT', url, expiresAt };
    },

    async writePart(key, uploadId, partNumber, length, body, options) {
      // The ETag only has to tell one sending of a part from another, and which came later: a UUIDv7's hex.
      const etag = uuidv7().replace(/-/g, '');
      // A part that is the whole object is hashed on its way to disk: completing it then reads nothing.
      const hash = options?.hash ? createHash('sha256') : undefined;
      let size = 0;
      // A part sent again is written beside the earlier one, which then goes (as S3 replaces a part):
      // sendings must not pile up past the declared size. Listing and completing take the later.
      const dir = uploadDir(key, uploadId);
      await writeDurably(
        dir,
        async (put) => {
          for await (const chunk of body as AsyncIterable<Buffer>) {
            size += chunk.length;
            // Leaving the loop destroys the body, so not one byte more is read.
            if (size > length) throw partLengthRefused(length);
            hash?.update(chunk);
            await put(chunk);
          }
          if (size !== length) throw partLengthRefused(length);
        },
        () => `${partNumber}.${etag}.${size}${hash ? `.${hash.digest('hex')}` : ''}.part`,
      );
      // Gone meanwhile (completed or cancelled): nothing left to replace.
      for (const file of await readdir(dir).catch(() => [])) {
        const m = PART_FILE.exec(file);
        if (m && Number(m[1]) === partNumber && m[2]! < etag) await rm(path.join(dir, file), { force: true });
      }
      return { partNumber, etag, size };
    },

    async listParts(key, uploadId) {
      return (await partsOfUpload(uploadDir(key, uploadId))).parts.map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
    },

    async completeMultipart(key, uploadId, wanted) {
      // A call completing the same upload at once may move the parts away mid-way: the upload is then gone here.
      try {
        const dir = uploadDir(key, uploadId);
        const listing = await partsOfUpload(dir);
        const have = new Map(listing.parts.map((p) => [p.partNumber, p]));
        const chosen: PartFile[] = [];
        for (const p of wanted) {
          const part = have.get(p.partNumber);
          if (!part || part.etag !== p.etag.replace(/"/g, ''))
            throw new AppError('invalid_input', `Part ${p.partNumber} is missing or differs.`, { partNumber: p.partNumber });
          chosen.push(part);
        }
        // The parts are already on disk, synced: the object is those parts, so joining them costs
        // one read (for the SHA-256, from the page cache) instead of a second write.
        let sha256 = chosen.length === 1 ? chosen[0]!.sha256 : undefined;
        if (!sha256) {
          const hash = createHash('sha256');
          for (const part of chosen) await hashPart(hash, path.join(dir, part.file), part.size);
          sha256 = hash.digest('hex');
        }
        // Earlier sendings of a part, parts not asked for and temporary files do not go with the object.
        const kept = new Set(chosen.map((p) => p.file));
        for (const name of listing.names) if (!kept.has(name)) await rm(path.join(dir, name), { force: true });
        // The parts' names must last before the folder moves into place, and the move before the
        // caller records the object.
        await fsyncPath(dir);
        const final = pathOf(key);
        const parent = path.dirname(final);
        await ensureFolder(parent);
        await rename(dir, final).catch(async (error: unknown) => {
          if (!notFound(error)) throw error;
          made.delete(parent);
          await ensureFolder(parent);
          await rename(dir, final);
        });
        await syncFolder(parent);
        return { size: chosen.reduce((sum, p) => sum + p.size, 0), sha256 };
      } catch (error) {
        throw notFound(error) ? new AppError('upload_expired') : error;
      }
    },

    async abortMultipart(key, uploadId) {
      await rm(uploadDir(key, uploadId), { recursive: true, force: true });
    },

    async put(key, bytes) {
      // An object is a folder of parts that appears by one rename once complete (completeMultipart):
      // a write cut short leaves only a folder under multipart/, which expiry removes.
      const uploadId = await this.createMultipart(key, 'application/octet-stream');
      try {
        const part = await this.writePart(key, uploadId, 1, bytes.byteLength, Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]));
        await rm(pathOf(key), { recursive: true, force: true });
        await this.completeMultipart(key, uploadId, [part]);
      } catch (error) {
        await this.abortMultipart(key, uploadId);
        throw error;
      }
    },

    async writeObject(key, body, size, contentType, accept) {
      const hash = createHash('sha256');
      const hashed = Readable.from(
        (async function* () {
          for await (const chunk of body as AsyncIterable<Buffer>) {
            hash.update(chunk);
            yield chunk;
          }
        })(),
      );
      const mismatch = () => new AppError('checksum_mismatch', `The bytes read for ${key} are not the ones recorded.`);
      const uploadId = await this.createMultipart(key, contentType);
      try {
        let part: StoredPart;
        try {
          part = await this.writePart(key, uploadId, 1, size, hashed);
        } catch (error) {
          // More or fewer bytes than recorded: not the bytes recorded.
          throw error instanceof AppError && error.code === 'invalid_input' ? mismatch() : error;
        }
        if (part.size !== size || !accept(hash.digest('hex'))) throw mismatch();
        // An object of another size there before (a thumbnail made again since) gives way: this one is checked.
        await rm(pathOf(key), { recursive: true, force: true });
        await this.completeMultipart(key, uploadId, [part]);
      } catch (error) {
        await this.abortMultipart(key, uploadId).catch(() => {});
        throw error;
      }
    },

    async signDownload(key, o: DownloadOptions) {
      pathOf(key);
      return contentSigner.sign(LOCAL_BLOB_PATH, { k: key, n: o.filename, t: o.contentType, d: o.disposition }, o.ttlSeconds).url;
    },

    async read(key, range?: ByteRange) {
      const parts = await partsOfObject(key);
      if (!parts) throw new AppError('not_found');
      const size = parts.reduce((sum, p) => sum + p.size, 0);
      return Readable.from(readParts(pathOf(key), parts, range?.start ?? 0, range?.end ?? size - 1));
    },

    async stat(key) {
      const parts = await partsOfObject(key);
      return parts ? { size: parts.reduce((sum, p) => sum + p.size, 0) } : null;
    },

    async delete(key) {
      await rm(pathOf(key), { recursive: true, force: true });
    },

    async *list() {
      // An object is a folder holding its parts (a folder of folders is a prefix); its key, the path to it.
      const walk = async function* (dir: string): AsyncGenerator<{ key: string; size: number; modifiedAt: Date }> {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        const parts = entries.filter((e) => e.isFile() && PART_FILE.test(e.name));
        if (parts.length && dir !== objects) {
          const { parts: latest } = await partsIn(dir);
          const { mtime } = await stat(dir);
          yield { key: path.relative(objects, dir).split(path.sep).join('/'), size: latest.reduce((sum, p) => sum + p.size, 0), modifiedAt: mtime };
          return;
        }
        for (const e of entries) if (e.isDirectory()) yield* walk(path.join(dir, e.name));
      };
      yield* walk(objects);
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
