import { createHash } from 'node:crypto';
import { uuidv7, type TItem, type TOnConflict, type TSignedPart, type TStartedUpload, type TUpload, type TUploadStatus } from '@cabinet/contracts';
import { lookup } from 'mime-types';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { UploadRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import type { StorageDriver, StoredPart } from '../../infra/storage/driver.ts';
import type { Actor } from '../auth/actor.ts';
import { notice, publish } from '../events/events.ts';
import { requireItem } from '../items/items.policy.ts';
import { findActiveSibling, findItem, upsertVisit } from '../items/items.repo.ts';
import { presentItem, suggestFreeName } from '../items/items.service.ts';
import { getWorkspace } from '../workspaces/workspaces.service.ts';
import { addUsage, claimStaleUploads, findActiveUploads, findFolderSlot, findOwnUpload, findOwnUploadForCompletion, insertFile, insertUpload, insertUploadedFile, insertVersion, setUploadState, type Usage } from './files.repo.ts';

const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;
const PART_URL_TTL_SECONDS = 3600;
const SIGN_WITH_START = 8;

/** The setting's part size, grown (in whole MiB) until the file fits in 10,000 parts. */
export function partSizeFor(size: number, base: number): number {
  const needed = Math.ceil(size / MAX_PARTS);
  return needed <= base ? base : Math.ceil(needed / MIB) * MIB;
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

const mimeOf = (name: string, declared?: string) => (declared && declared !== 'application/octet-stream' ? declared : lookup(name) || declared || 'application/octet-stream');

/** Refuses `adding` bytes past the quota, before any work (completion checks again as it counts them). */
function requireQuota(usage: Usage, adding: number): void {
  if (usage.quota_bytes !== null && Number(usage.used_bytes) + adding > Number(usage.quota_bytes)) {
    throw new AppError('quota_exceeded', undefined, { quotaBytes: Number(usage.quota_bytes), usedBytes: Number(usage.used_bytes), neededBytes: adding });
  }
}

interface StartInput {
  parentId: string;
  name: string;
  size: number;
  mimeType?: string | undefined;
  sha256?: string | undefined;
  onConflict: TOnConflict;
}

/**
 * Opens an upload: checks the folder, the name, the size and the quota, then asks the storage
 * for a multipart upload. Nothing is visible until it completes.
 */
export async function startUpload(ctx: AppContext, actor: Actor, workspaceIdOrSlug: string, input: StartInput, versionOf?: string): Promise<TStartedUpload> {
  const { db, env, storage } = ctx;
  if (input.size > env.MAX_FILE_SIZE) throw new AppError('file_too_large', undefined, { maxBytes: env.MAX_FILE_SIZE });
  // No transaction: nothing here is visible, and the checks are made again on completion.
  let parentId = input.parentId;
  let name = input.name;
  let itemId: string | null = null;
  // The target's access row names its workspace: the route's workspace (id or slug) must be it.
  const inWorkspace = (access: { item: { workspace_id: string }; workspaceSlug: string }) =>
    access.item.workspace_id === workspaceIdOrSlug || access.workspaceSlug === workspaceIdOrSlug;
  let workspaceId: string;
  if (versionOf) {
    const file = await requireItem(db, actor, versionOf, 'edit');
    if (!inWorkspace(file)) throw new AppError('not_found');
    workspaceId = file.item.workspace_id;
    if (file.item.kind !== 'file') throw new AppError('invalid_input', 'Only files have versions.');
    parentId = file.item.parent_id!;
    name = file.item.name;
    itemId = file.item.id;
  } else {
    const parent = await requireItem(db, actor, parentId, 'edit');
    if (!inWorkspace(parent)) throw new AppError('not_found');
    workspaceId = parent.item.workspace_id;
    if (parent.item.kind !== 'folder') throw new AppError('invalid_input', 'Files can only be uploaded into a folder.', { fields: [{ path: 'body.parentId', message: 'is not a folder' }] });
  }
  const slot = await findFolderSlot(db, workspaceId, parentId, name);
  if (!versionOf && slot.clash_id) itemId = await resolveConflict(db, actor, input.onConflict, parentId, name, slot.clash_id);
  requireQuota(slot, input.size);
  const partSize = partSizeFor(input.size, env.UPLOAD_PART_SIZE);
  const mimeType = mimeOf(name, input.mimeType);
  const key = `${workspaceId}/${uuidv7()}`;
  const storageUploadId = await storage.createMultipart(key, mimeType);
  const upload = await insertUpload(db, {
    workspace_id: workspaceId,
    parent_id: parentId,
    item_id: itemId,
    name,
    on_conflict: versionOf ? 'replace' : input.onConflict,
    size_bytes: input.size,
    mime_type: mimeType,
    sha256: input.sha256 ?? null,
    part_size: partSize,
    part_count: Math.max(1, Math.ceil(input.size / partSize)),
    blob_key: key,
    storage_upload_id: storageUploadId,
    author_id: actor.user.id,
    expires_at: new Date(Date.now() + env.UPLOAD_EXPIRY_HOURS * 3_600_000),
  });
  // The first parts come signed with the answer: a small file needs no separate signing call.
  const first = Array.from({ length: Math.min(upload.part_count, SIGN_WITH_START) }, (_, i) => i + 1);
  return { ...presentUpload(upload), parts: await signUrls(storage, upload, first) };
}

async function signUrls(storage: StorageDriver, upload: UploadRow, partNumbers: number[]): Promise<TSignedPart[]> {
  const signed: TSignedPart[] = [];
  for (const n of [...new Set(partNumbers)]) {
    const s = await storage.signPart(upload.blob_key, upload.storage_upload_id, n, PART_URL_TTL_SECONDS);
    signed.push({ partNumber: n, method: 'PUT', url: s.url, expiresAt: s.expiresAt.toISOString() });
  }
  return signed;
}

/** A new version of a file, uploaded the same way. */
export async function startVersionUpload(ctx: AppContext, actor: Actor, itemId: string, input: Omit<StartInput, 'parentId' | 'name' | 'onConflict'>): Promise<TStartedUpload> {
  const { item } = await requireItem(ctx.db, actor, itemId, 'edit');
  return startUpload(ctx, actor, item.workspace_id, { ...input, parentId: item.parent_id ?? item.id, name: item.name, onConflict: 'replace' }, item.id);
}

/** A name taken in the folder: refuse with a free name, plan to take a free one, or replace that file. Returns the file to replace. */
async function resolveConflict(db: Db, actor: Actor, onConflict: TOnConflict, parentId: string, name: string, clashId: string): Promise<string | null> {
  if (onConflict === 'keep_both') return null;
  if (onConflict === 'replace') {
    const existing = await requireItem(db, actor, clashId, 'edit');
    if (existing.item.kind === 'file') return existing.item.id;
  }
  throw new AppError('name_conflict', undefined, { suggestedName: await suggestFreeName(db, parentId, name) });
}

/** An upload still taking parts; an ended one is `upload_expired`. */
function requireOpen(upload: UploadRow | undefined): UploadRow {
  if (!upload) throw new AppError('not_found');
  if (upload.state === 'completed') throw new AppError('invalid_input', 'This upload is already complete.');
  if (upload.state !== 'created' && upload.state !== 'uploading') throw new AppError('upload_expired', upload.failure ?? undefined);
  if (upload.expires_at.getTime() < Date.now()) throw new AppError('upload_expired');
  return upload;
}

export async function getUpload(ctx: AppContext, actor: Actor, id: string): Promise<TUploadStatus> {
  const upload = await findOwnUpload(ctx.db, id, actor.user.id);
  if (!upload) throw new AppError('not_found');
  const open = upload.state === 'created' || upload.state === 'uploading';
  const parts = open ? await ctx.storage.listParts(upload.blob_key, upload.storage_upload_id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'upload_expired') return [];
    throw error;
  }) : [];
  return { ...presentUpload(upload), parts };
}

export async function listUploads(ctx: AppContext, actor: Actor, workspaceIdOrSlug: string): Promise<TUpload[]> {
  const workspace = await getWorkspace(ctx.db, actor.user, workspaceIdOrSlug);
  return (await findActiveUploads(ctx.db, actor.user.id, workspace.id)).map(presentUpload);
}

/** Short-lived URLs to PUT parts to; each signing keeps the upload alive for another expiry period. */
export async function signParts(ctx: AppContext, actor: Actor, id: string, partNumbers: number[]): Promise<TSignedPart[]> {
  const upload = requireOpen(await findOwnUpload(ctx.db, id, actor.user.id));
  const outOfRange = partNumbers.filter((n) => n > upload.part_count);
  if (outOfRange.length) {
    throw new AppError('invalid_input', `This upload has parts 1 to ${upload.part_count}.`, { fields: [{ path: 'body.partNumbers', message: `${outOfRange.join(', ')} out of range` }] });
  }
  // Activity keeps the upload alive; refreshing its expiry once a minute is plenty.
  const expiresAt = new Date(Date.now() + ctx.env.UPLOAD_EXPIRY_HOURS * 3_600_000);
  if (upload.state !== 'uploading' || expiresAt.getTime() - upload.expires_at.getTime() > 60_000) await setUploadState(ctx.db, upload.id, { state: 'uploading', expiresAt });
  return signUrls(ctx.storage, upload, partNumbers);
}

/** Every part present with exactly the size the plan gives it; otherwise which ones to send again. */
function checkParts(upload: UploadRow, parts: StoredPart[]): void {
  const size = Number(upload.size_bytes);
  const partSize = Number(upload.part_size);
  const have = new Map(parts.map((p) => [p.partNumber, p]));
  const missing: number[] = [];
  const wrong: number[] = [];
  for (let n = 1; n <= upload.part_count; n++) {
    const part = have.get(n);
    const expected = n < upload.part_count ? partSize : size - partSize * (upload.part_count - 1);
    if (!part) missing.push(n);
    else if (part.size !== expected) wrong.push(n);
  }
  if (missing.length || wrong.length) {
    throw new AppError('invalid_input', missing.length ? `Parts missing: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? '…' : ''}.` : `Parts of the wrong size: ${wrong.join(', ')}.`, {
      missingParts: missing,
      wrongSizeParts: wrong,
    });
  }
}

async function hashObject(storage: StorageDriver, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await storage.read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Ends an upload that cannot complete: its bytes are removed (by a job, so a storage outage does not lose the task). */
async function failUpload(db: Db, upload: UploadRow, failure: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    await setUploadState(tx, upload.id, { state: 'failed', failure });
    await enqueue(tx, 'upload.discard', { key: upload.blob_key, uploadId: upload.storage_upload_id });
  });
}

/**
 * Joins the parts, checks the bytes (size and SHA-256) and, in one transaction, makes the file
 * (or its new version) appear and counts it against the quota. Safe to call again after a
 * dropped connection or a crash: a finished upload answers with its file, and bytes already
 * joined are checked again rather than joined twice.
 */
export async function completeUpload(ctx: AppContext, actor: Actor, id: string, input: { sha256?: string | undefined; onConflict?: TOnConflict | undefined }): Promise<{ upload: TUpload; item: TItem }> {
  const { db, storage } = ctx;
  const found = await findOwnUploadForCompletion(db, id, actor.user.id);
  if (found?.state === 'completed' && found.result_item_id) {
    const item = await findItem(db, found.result_item_id);
    const access = item ? await requireItem(db, actor, item.id, 'view') : undefined;
    if (access) return { upload: presentUpload(found), item: presentItem(access.item, access.role) };
  }
  const upload = requireOpen(found);
  if (input.sha256 && upload.sha256 && input.sha256 !== upload.sha256) {
    await failUpload(db, upload, 'The SHA-256 given on completion differs from the one given at the start.');
    throw new AppError('checksum_mismatch', 'The SHA-256 given on completion differs from the one given at the start.');
  }
  const onConflict = input.onConflict ?? upload.on_conflict;
  // Settle the name before joining the parts, so a conflict leaves the upload open for another answer.
  if (!upload.parent_id) throw new AppError('not_found', 'The folder this upload was going to is gone.');
  // Checked once, here: a change of access in the milliseconds until the commit below is not worth a second query.
  const { item: parent, role } = await requireItem(db, actor, upload.parent_id, 'edit');
  if (!upload.item_id && found!.clash_id && onConflict === 'fail') throw new AppError('name_conflict', undefined, { suggestedName: await suggestFreeName(db, parent.id, upload.name) });
  try {
    requireQuota(found!, Number(upload.size_bytes));
  } catch (error) {
    await failUpload(db, upload, (error as AppError).message);
    throw error;
  }

  let joined = await storage.stat(upload.blob_key);
  let sha256: string | undefined;
  if (!joined) {
    const parts = await storage.listParts(upload.blob_key, upload.storage_upload_id);
    checkParts(upload, parts);
    const result = await storage.completeMultipart(upload.blob_key, upload.storage_upload_id, parts);
    joined = { size: result.size };
    sha256 = result.sha256;
  }
  sha256 ??= await hashObject(storage, upload.blob_key);
  const expected = input.sha256 ?? upload.sha256;
  if (joined.size !== Number(upload.size_bytes) || (expected && expected !== sha256)) {
    const why = joined.size !== Number(upload.size_bytes) ? `The upload holds ${joined.size} bytes, not the ${Number(upload.size_bytes)} declared.` : 'The bytes received do not match the SHA-256 given.';
    await failUpload(db, upload, why);
    throw new AppError('checksum_mismatch', why);
  }
  const file = { size: joined.size, mimeType: upload.mime_type, blobKey: upload.blob_key, sha256 };

  // The common case, a new file under a free name, is one statement; anything else (a name taken
  // meanwhile, a replacement, an upload ended by another call) takes the careful path below.
  if (!upload.item_id && !found!.clash_id) {
    const made = await inTransaction(db, async (tx) => {
      const result = await insertUploadedFile(tx, {
        uploadId: upload.id,
        workspaceId: upload.workspace_id,
        parentId: parent.id,
        name: upload.name,
        ownerId: actor.user.id,
        ...file,
        announce: (itemId) => notice(upload.workspace_id, { type: 'item.created', itemId, parentIds: [parent.id] }),
      });
      if (result && !result.counted) throw new AppError('quota_exceeded');
      if (!result) throw TAKE_CAREFUL_PATH;
      return result.item;
    }).catch((error: unknown) => (error === TAKE_CAREFUL_PATH ? undefined : Promise.reject(error)));
    if (made) return { upload: presentUpload({ ...upload, state: 'completed', result_item_id: made.id }), item: presentItem(made, role) };
  }

  return inTransaction(db, async (tx) => {
    const locked = requireOpen(await findOwnUpload(tx, id, actor.user.id, { lock: true }));
    let replaceId = locked.item_id;
    let name = locked.name;
    if (!replaceId) {
      const clash = await findActiveSibling(tx, parent.id, name);
      if (clash && onConflict === 'replace') {
        const existing = await requireItem(tx, actor, clash.id, 'edit');
        if (existing.item.kind === 'file') replaceId = existing.item.id;
      }
      // A name taken since the check above (or kept on purpose) gets a free one.
      if (clash && !replaceId) name = await suggestFreeName(tx, parent.id, name);
    }
    const result = replaceId
      ? await insertVersion(tx, (await requireItem(tx, actor, replaceId, 'edit', { lock: true })).item.id, { authorId: actor.user.id, ...file })
      : await insertFile(tx, { workspaceId: locked.workspace_id, parentId: parent.id, name, ownerId: actor.user.id, ...file });
    const done = await setUploadState(tx, locked.id, { state: 'completed', resultItemId: result.item.id });
    await upsertVisit(tx, actor.user.id, result.item.id);
    await publish(tx, locked.workspace_id, { type: replaceId ? 'item.updated' : 'item.created', itemId: result.item.id, parentIds: [parent.id] });
    if (!(await addUsage(tx, locked.workspace_id, joined.size))) throw new AppError('quota_exceeded');
    return { upload: presentUpload(done), item: presentItem(result.item, role) };
  });
}

/** Thrown inside the one-statement completion to roll it back and complete the careful way. */
const TAKE_CAREFUL_PATH = Symbol('take the careful path');

export async function abortUpload(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const upload = await findOwnUpload(ctx.db, id, actor.user.id);
  if (!upload) throw new AppError('not_found');
  if (upload.state === 'completed') throw new AppError('invalid_input', 'This upload is already complete; move the file to the trash instead.');
  if (upload.state !== 'created' && upload.state !== 'uploading') return;
  await inTransaction(ctx.db, async (tx) => {
    await setUploadState(tx, upload.id, { state: 'aborted' });
    await enqueue(tx, 'upload.discard', { key: upload.blob_key, uploadId: upload.storage_upload_id });
  });
}

/** Removes what an ended upload left in storage: its parts and, if it got that far, the joined bytes. */
export async function discardUploadBytes(storage: StorageDriver, payload: Record<string, unknown>): Promise<void> {
  const key = String(payload.key);
  await storage.abortMultipart(key, String(payload.uploadId));
  await storage.delete(key);
}

/** The expiry job: uploads idle past their expiry end as `expired`, and their bytes go. */
export async function expireStaleUploads(db: Db): Promise<number> {
  return inTransaction(db, async (tx) => {
    const stale = await claimStaleUploads(tx, new Date(), 500);
    for (const upload of stale) {
      await setUploadState(tx, upload.id, { state: 'expired' });
      await enqueue(tx, 'upload.discard', { key: upload.blob_key, uploadId: upload.storage_upload_id });
    }
    return stale.length;
  });
}
