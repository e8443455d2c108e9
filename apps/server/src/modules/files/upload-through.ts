import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TItem } from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import type { ItemAccess } from '../items/index.ts';
import { abortUpload } from './abort-upload.ts';
import { completeUpload } from './complete-upload.ts';
import { inTransaction } from '../../db/client.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import { dropEmptyFirstVersion } from './files.repo.ts';
import { startUploadRow } from './start-upload.ts';
import { partLength } from './upload-common.ts';

/** A digest of the bytes the client computed, checked as they come: `algorithm` one node:crypto knows, `hex` its value. */
export interface ClientChecksum {
  algorithm: 'sha1' | 'md5' | 'sha256';
  hex: string;
}

/** The digests kept with each version whose bytes come through (SHA-256 aside, which every version has), as clients name them. */
const KEPT = { sha1: 'SHA1', md5: 'MD5' } as const;

interface ThroughInput {
  parentId: string;
  name: string;
  /** The body's length, as declared before it comes. */
  size: number;
  mimeType?: string | undefined;
  /** When the file was last changed, as the client says: kept with the new version and shown as its modification time. */
  modifiedAt?: Date | undefined;
  /** The client's digest of the bytes: a body that does not match it finishes nothing. */
  checksum?: ClientChecksum | undefined;
  /** A name already a file's: a new version of it (the default), or refused (`name_conflict`). */
  onConflict?: 'replace' | 'fail';
  /** The file of that name, as the caller found it: a new version of it (its folder and name are then the file's). */
  versionOf?: string | undefined;
}

/**
 * A file whose bytes come through Cabinet in one request (a WebDAV client's PUT), on the uploads' own lifecycle: the
 * upload is started (the folder, the name, the size and the quota checked, a file of that name replaced by a new
 * version), the body cut into the upload's parts and each written to storage as it arrives, then completed (joined,
 * hashed, the file made to appear, the jobs after an upload queued), its SHA-1 and MD5 kept with it. A body that ends
 * short or does not match the client's checksum, a storage that fails or a caller gone cancels the upload: nothing of it appears, nor when
 * `beforeComplete` throws (the caller's right to finish, looked at again once the bytes are in). `replaced`: the name
 * was a file's, which has a new version.
 *
 * `known`: the caller's access to the folder (or to the file `versionOf`), as their request read it just before
 * (WebDAV's walk of the path), which the start takes rather than reading it again; so does the completion when
 * `beforeComplete` answers true (the bytes came at once: nothing read at the start is older than the request), and
 * reads it again otherwise. The completion takes the upload's row as the start answered it on the same condition.
 */
export async function uploadThrough(
  ctx: AppContext,
  actor: Actor,
  workspaceId: string,
  input: ThroughInput,
  body: AsyncIterable<Buffer>,
  o: { known?: ItemAccess | undefined; beforeComplete?: () => Promise<boolean> } = {},
): Promise<{ item: TItem; replaced: boolean }> {
  const { modifiedAt, checksum, onConflict = 'replace', ...start } = input;
  const upload = await startUploadRow(ctx, actor, workspaceId, { ...start, onConflict, known: o.known });
  try {
    // SHA-1 and MD5 of every body, kept with the version for clients that compare files by them (rclone, ownCloud's).
    const digests = new Map((['sha1', 'md5', ...(checksum ? [checksum.algorithm] : [])] as const).map((a) => [a, createHash(a)]));
    const take = slicer(body, (chunk) => digests.forEach((h) => h.update(chunk)));
    for (let n = 1; n <= upload.part_count; n++) {
      await ctx.storage.writePart(upload.blob_key, upload.storage_upload_id, n, partLength(upload, n), Readable.from(take(partLength(upload, n))), {
        hash: upload.part_count === 1,
      });
    }
    await take.ended();
    const hex = new Map([...digests].map(([a, h]) => [a, h.digest('hex')]));
    if (checksum && hex.get(checksum.algorithm) !== checksum.hex.toLowerCase()) {
      throw new AppError('invalid_input', `The bytes that came do not match the checksum sent with them (${checksum.algorithm.toUpperCase()}).`);
    }
    // What let the caller start (a token, say, or the folder's access) may have been taken away while the bytes came.
    const asStarted = (await o.beforeComplete?.()) ?? false;
    const checksums = Object.entries(KEPT)
      .map(([a, label]) => `${label}:${hex.get(a as keyof typeof KEPT)}`)
      .join(' ');
    // Kept with the new version by the completion's own statement.
    const client = { modifiedAt, checksums };
    const { item } = await completeUpload(ctx, actor, upload.id, asStarted ? { known: o.known, started: upload, client } : { client });
    // Made empty and then filled at once by the same person (Finder's way): one version, not an empty one before it. A
    // file the caller found with bytes in it had no such version last.
    const hadBytes = o.known?.item.id === upload.item_id && Number(o.known?.item.size_bytes) > 0;
    if (upload.item_id && !hadBytes) {
      await inTransaction(ctx.db, async (tx) => {
        const key = await dropEmptyFirstVersion(tx, upload.item_id!, actor.user.id);
        if (key) await enqueue(tx, 'blob.delete', { key });
      });
    }
    return { item, replaced: upload.item_id !== null };
  } catch (error) {
    await abortUpload(ctx, actor, upload.id).catch(() => {});
    throw error;
  }
}

/**
 * A body taken part by part: each call yields the next `length` bytes (fewer when the body ends first); `ended` makes
 * sure nothing follows the last part. A body that breaks off (the caller gone) or runs past its length is the caller's
 * fault, not storage's: an AppError.
 */
function slicer(body: AsyncIterable<Buffer>, seen?: (chunk: Buffer) => void): ((length: number) => AsyncGenerator<Buffer>) & { ended(): Promise<void> } {
  const source = body[Symbol.asyncIterator]();
  let left: Buffer | undefined;
  const next = async () => {
    try {
      return await source.next();
    } catch {
      throw new AppError('invalid_input', 'The request ended before all of its body came.');
    }
  };
  const take = async function* (length: number) {
    let need = length;
    while (need > 0) {
      let chunk = left;
      left = undefined;
      if (!chunk) {
        const got = await next();
        if (got.done) return;
        chunk = got.value;
      }
      if (chunk.byteLength > need) {
        left = chunk.subarray(need);
        chunk = chunk.subarray(0, need);
      }
      need -= chunk.byteLength;
      seen?.(chunk);
      yield chunk;
    }
  };
  return Object.assign(take, {
    async ended() {
      if (left?.byteLength || !(await next()).done) throw new AppError('invalid_input', 'The body is longer than the length it was declared to have.');
    },
  });
}
