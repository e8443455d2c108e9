/** What the upload use cases share: who uploads and where they may, an upload's answer, batches, parts and the end of an upload. */
import type { TItemRole, TSignedPart, TUpload } from '@cabinet/contracts';
import type { Db } from '../../db/client.ts';
import type { ItemRow, UploadRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import type { StorageDriver } from '../../infra/storage/driver.ts';
import type { Actor } from '../../infra/http/actor.ts';
import type { LinkVisitor } from '../events/index.ts';
import { findPlaces, requireItems } from '../items/index.ts';
import { setUploadState, type UploadOwner, type Usage } from './files.repo.ts';

const PART_URL_TTL_SECONDS = 3600;

/**
 * A file request's visitor (ADR 0035): uploads into the link's folder — which the link's service
 * checked before the call — or a folder under it, never replaces a file, and is recorded as the
 * link. The files belong to the link's maker; the uploads stay the link's own (`UploadOwner`).
 */
export interface LinkUploader extends LinkVisitor {
  /** Who made the link: the files become theirs. */
  ownerId: string;
  folder: ItemRow;
  /** The most the link's files may hold together, in bytes; null: no cap but the workspace's quota. */
  maxBytes: number | null;
  /** The bytes of the files made through the link so far. */
  uploadedBytes: (db: Db) => Promise<number>;
  /** Counts files made through the link and their bytes, in the transaction that makes them; false (nothing counted) past its cap. */
  counted: (db: Db, files: number, bytes: number) => Promise<boolean>;
}

/** Who uploads: a person (by session or token), or a file request's visitor. */
export type Uploader = Actor | LinkUploader;

export const isVisitor = (u: Uploader): u is LinkUploader => u.via === 'link';

/**
 * Calls of one person that may run as one batch: the same person through the same session or
 * token, from the same address, browser and tab — everything an answer or the activity record
 * takes from the caller is the same for them.
 */
export const callerKey = (a: Actor): string => JSON.stringify([a.user.id, a.via, a.sessionId, a.tokenId, a.scopes, a.ip, a.userAgent, a.clientId]);
export const ownerOf = (u: Uploader): UploadOwner => (isVisitor(u) ? { authorId: u.ownerId, linkId: u.linkId } : { authorId: u.user.id, linkId: null });

/** Where an upload goes (a folder, or a file for a new version), and the uploader's role on it (none for a visitor). */
export interface Target {
  item: ItemRow;
  role: TItemRole | null;
  workspaceSlug?: string;
}

/** What the uploader may upload to: a person, by their access; a visitor, the link's folder and the folders in it, and nothing else. */
export async function targetsOf(db: Db, u: Uploader, ids: string[], ability: 'createInside' | 'edit'): Promise<Map<string, Target | AppError>> {
  if (!isVisitor(u)) return requireItems(db, u, ids, ability);
  if (ability !== 'createInside') return new Map(ids.map((id) => [id, new AppError('not_found')]));
  const folders = await visitorFolders(db, u, ids);
  return new Map(ids.map((id) => [id, mapOutcome(folders.get(id)!, (f) => ({ item: f.item, role: null }))]));
}

const mapOutcome = <T, U>(o: Outcome<T>, fn: (t: T) => U): Outcome<U> => (o instanceof AppError ? o : fn(o));

/**
 * The folders a file request's visitor may put things in: the link's folder and the active folders
 * under it (those made through the link among them), each with its depth in the tree. Anything else
 * does not exist for them (`not_found`).
 */
export async function visitorFolders(db: Db, u: LinkUploader, ids: string[]): Promise<Map<string, Outcome<{ item: ItemRow; depth: number }>>> {
  const places = await findPlaces(db, [...new Set(ids)]);
  return new Map(
    ids.map((id) => {
      const p = places.get(id);
      const inside = p && p.item.kind === 'folder' && p.item.state === 'active' && !p.trashedAbove && p.chain.includes(u.folder.id);
      return [id, inside ? { item: p.item, depth: p.chain.length } : new AppError('not_found')];
    }),
  );
}

/** A file request's cap on its total reached: `remaining`, what the link still takes. */
export const linkFull = (remaining: number) =>
  new AppError('quota_exceeded', 'This file request takes no more than that: its total would pass the limit its maker set.', {
    limit: 'link',
    remainingBytes: Math.max(0, remaining),
  });

/** A file request's cap on its total: `room`, what the link still takes, past which a file is refused. */
export function requireLinkRoom(room: number, adding: number): void {
  if (adding > room) throw linkFull(room);
}

export function presentUpload(u: UploadRow): TUpload {
  return {
    id: u.id,
    workspaceId: u.workspace_id,
    parentId: u.parent_id ?? u.workspace_id,
    itemId: u.item_id,
    name: u.name,
    size: Number(u.size_bytes),
    mimeType: u.mime_type,
    sha256: u.sha256,
    onConflict: u.on_conflict,
    partSize: Number(u.part_size),
    partCount: u.part_count,
    state: u.state,
    expiresAt: u.expires_at.toISOString(),
    createdAt: u.created_at.toISOString(),
    resultItemId: u.result_item_id,
  };
}

/**
 * Refuses `adding` bytes past the quota, before any work (completion checks again as it counts
 * them). At the start the bytes open uploads reserve count as used: each upload reserves its
 * declared size until it completes, is cancelled or expires.
 */
export function requireQuota(usage: Usage, adding: number, reserved = 0): void {
  if (usage.quota_bytes !== null && Number(usage.used_bytes) + reserved + adding > Number(usage.quota_bytes)) {
    throw new AppError('quota_exceeded', undefined, {
      quotaBytes: Number(usage.quota_bytes),
      usedBytes: Number(usage.used_bytes),
      reservedBytes: reserved,
      neededBytes: adding,
    });
  }
}

/** Each entry of a batch answers for itself: its result, or the error its own call would have thrown. */
export type Outcome<T> = T | AppError;

/** The single call is a batch of one. */
export async function one<T>(outcomes: Promise<Outcome<T>[]>): Promise<T> {
  const [outcome] = await outcomes;
  if (outcome instanceof AppError) throw outcome;
  return outcome!;
}

/** Runs `fn` over items, `width` at a time; an AppError becomes that entry's outcome, anything else fails the call. */
export async function eachOutcome<I, T>(items: I[], width: number, fn: (item: I, index: number) => Promise<T>): Promise<Outcome<T>[]> {
  const out: Outcome<T>[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) {
        try {
          out[i] = await fn(items[i]!, i);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          out[i] = error;
        }
      }
    }),
  );
  return out;
}

/** The length part `n` must have: the part size, the last part what remains. */
export function partLength(upload: UploadRow, n: number): number {
  const partSize = Number(upload.part_size);
  return n < upload.part_count ? partSize : Number(upload.size_bytes) - partSize * (upload.part_count - 1);
}

/** Short-lived URLs to PUT the given parts to. */
export async function signUrls(storage: StorageDriver, upload: UploadRow, partNumbers: number[]): Promise<TSignedPart[]> {
  const signed: TSignedPart[] = [];
  for (const n of [...new Set(partNumbers)]) {
    const s = await storage.signPart(upload.blob_key, upload.storage_upload_id, n, partLength(upload, n), PART_URL_TTL_SECONDS, {
      onlyPart: upload.part_count === 1,
    });
    signed.push({ partNumber: n, method: 'PUT', url: s.url, expiresAt: s.expiresAt.toISOString() });
  }
  return signed;
}

/** An upload still taking parts; an ended one is `upload_expired`. */
export function requireOpen<U extends UploadRow>(upload: U | undefined): U {
  if (!upload) throw new AppError('not_found');
  if (upload.state === 'completed') throw new AppError('invalid_input', 'This upload is already complete.');
  if (upload.state !== 'created' && upload.state !== 'uploading') throw new AppError('upload_expired', upload.failure ?? undefined);
  if (upload.expires_at.getTime() < Date.now()) throw new AppError('upload_expired');
  return upload;
}

/**
 * Ends an open upload, in the caller's transaction: it can no longer complete, and its bytes are
 * removed by a job (`discardUploadBytes`), so a storage outage does not lose the task.
 */
export async function endUpload(db: Db, upload: UploadRow, end: { state: 'aborted' | 'expired' | 'failed'; failure?: string }): Promise<void> {
  await setUploadState(db, upload.id, end);
  await enqueue(db, 'upload.discard', { key: upload.blob_key, uploadId: upload.storage_upload_id });
}

/** Removes what an ended upload left in storage: its parts and, if it got that far, the joined bytes. */
export async function discardUploadBytes(storage: StorageDriver, payload: Record<string, unknown>): Promise<void> {
  const key = String(payload.key);
  await storage.abortMultipart(key, String(payload.uploadId));
  await storage.delete(key);
}
