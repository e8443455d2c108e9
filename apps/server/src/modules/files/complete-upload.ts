import { createHash } from 'node:crypto';
import { UPLOAD_BATCH_MAX, type TItem, type TItemRole, type TOnConflict, type TUpload } from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { ItemRow, UploadRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { groupCalls, type GroupedCalls } from '../../lib/group-calls.ts';
import type { StorageDriver, StoredPart } from '../../infra/storage/driver.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record, recordCreated } from '../events/index.ts';
import { accessWithRole, findActiveSibling, judgeAccess, presentItem, requireItem, suggestFreeName, upsertVisit, type ItemAccess } from '../items/index.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import { addUsage } from '../workspaces/index.ts';
import { challengeOf, proofMatches, storedProof } from './dedup.ts';
import {
  clearDedupOffer,
  findOwnUpload,
  holdBlob,
  findOwnUploadsForCompletion,
  insertFile,
  insertUploadedFiles,
  insertVersion,
  setUploadState,
  type NewBytes,
  type UploadForCompletion,
} from './files.repo.ts';
import {
  callerKey,
  eachOutcome,
  endUpload,
  isVisitor,
  linkFull,
  one,
  ownerOf,
  partLength,
  presentUpload,
  requireOpen,
  requireLinkRoom,
  requireQuota,
  targetsOf,
  type LinkUploader,
  type Outcome,
  type Target,
  type Uploader,
} from './upload-common.ts';

interface CompleteInput {
  id: string;
  sha256?: string | undefined;
  onConflict?: TOnConflict | undefined;
  /** The answer to the start's dedup challenge (ADR 0042). */
  proof?: string | undefined;
  /**
   * The caller's access to the new file's folder, or to the file a new version is of, as their request read it a moment
   * before (WebDAV's PUT, whose bytes came at once): not read again.
   */
  known?: ItemAccess | undefined;
  /** What a WebDAV client said of the bytes, kept with the new version. */
  client?: { modifiedAt?: Date | undefined; checksums: string } | undefined;
  /**
   * The upload as its start answered it, a moment before (WebDAV's PUT, whose bytes came at once): not read again. What it
   * says may have changed since (a file made under its name, the workspace's usage): the statement making the file checks
   * both again, and leaves such an upload to complete the careful way.
   */
  started?: UploadForCompletion | undefined;
}
type Completed = { upload: TUpload; item: TItem };
/** What completing answers: a visitor is told of their upload alone, not of the file, whose name may not be the one they gave. */
type Finished = { upload: TUpload; item: TItem | null };
/** An upload whose bytes are joined and checked: what remains is to make its file appear. */
interface Verified {
  upload: UploadForCompletion;
  /** The folder of a new file; the file itself for a new version. */
  parent: ItemRow;
  role: TItemRole | null;
  onConflict: TOnConflict;
  file: NewBytes;
  /** The bytes are the workspace's copy (`file.blobKey`), proved held by the uploader: none were sent. */
  reused?: boolean;
}

/**
 * Joins the parts, checks the bytes (size and SHA-256) and, in one transaction, makes the file
 * (or its new version) appear and counts it against the quota. Safe to call again after a
 * dropped connection or a crash: a finished upload answers with its file, and bytes already
 * joined are checked again rather than joined twice.
 */
export function completeUpload(ctx: AppContext, actor: Actor, id: string, input: Omit<CompleteInput, 'id'>): Promise<Completed> {
  return one(completeUploads(ctx, actor, [{ ...input, id }]));
}

/** Completes a file request's upload: into the link's folder, under a free name when its own is taken; the answer is the upload alone. */
export async function completeLinkUpload(ctx: AppContext, visitor: LinkUploader, id: string, input: { sha256?: string | undefined }): Promise<TUpload> {
  return (await one(completeAll(ctx, visitor, [{ ...input, id, onConflict: 'keep_both' }]))).upload;
}

type CompleteGroup = GroupedCalls<{ ctx: AppContext; actor: Actor }, CompleteInput, Outcome<Finished>>;
const completeGroups = new WeakMap<AppContext, CompleteGroup>();

/**
 * A person's uploads completed: each answers with its file (only a visitor's answer lacks it).
 * Their completions arriving while another of theirs runs go together as the next batch (ADR
 * 0048): one transaction and one sync of each destination folder for all of them. Two completions
 * of one upload never share a batch: the second answers as a second request did.
 */
export async function completeUploads(ctx: AppContext, actor: Actor, inputs: CompleteInput[]): Promise<Outcome<Completed>[]> {
  let group = completeGroups.get(ctx);
  if (!group) {
    group = groupCalls((a, batch) => completeAll(a.ctx, a.actor, batch), { max: UPLOAD_BATCH_MAX, apart: (input) => input.id });
    completeGroups.set(ctx, group);
  }
  return (await group(callerKey(actor), { ctx, actor }, inputs)) as Outcome<Completed>[];
}

/**
 * Completes several uploads: the uploads, their folders' access and the names in two queries,
 * the bytes joined and checked a few at a time, and the new files made in one statement; an
 * upload that needs more (a replacement, a name taken meanwhile) completes on its own.
 */
async function completeAll(ctx: AppContext, actor: Uploader, inputs: CompleteInput[]): Promise<Outcome<Finished>[]> {
  const { db } = ctx;
  const owner = ownerOf(actor);
  const given = new Map(inputs.flatMap((i) => (i.started?.id === i.id ? [[i.id, i.started] as const] : [])));
  const read = inputs.filter((i) => !given.has(i.id)).map((i) => i.id);
  const found = new Map([...given, ...(read.length ? await findOwnUploadsForCompletion(db, read, owner) : [])]);
  // What each upload needs: to create in its folder, or, for a new version, to edit its file (which
  // may be shared on its own, its folder not).
  const uploads = [...found.values()];
  // An access given with an input is that upload's folder's (a new file) or file's (a new version), judged as a read one would be.
  const givenTargets = new Map(
    inputs.flatMap((i) => {
      const u = found.get(i.id);
      return u && i.known && i.known.item.id === (u.item_id ?? u.parent_id) ? [[u.id, judgeAccess(i.known, u.item_id ? 'edit' : 'createInside')] as const] : [];
    }),
  );
  const folders = await targetsOf(
    db,
    actor,
    uploads.flatMap((u) => (!u.item_id && u.parent_id && !givenTargets.has(u.id) ? [u.parent_id] : [])),
    'createInside',
  );
  const files = await targetsOf(
    db,
    actor,
    uploads.flatMap((u) => (u.item_id && !givenTargets.has(u.id) ? [u.item_id] : [])),
    'edit',
  );
  const targetOf = (u: UploadForCompletion | undefined) =>
    u && givenTargets.has(u.id) ? givenTargets.get(u.id) : u?.item_id ? files.get(u.item_id) : u?.parent_id ? folders.get(u.parent_id) : undefined;
  // A file request with a cap on its total takes what its files so far leave (its open uploads were counted when they started).
  const linkRoom = isVisitor(actor) && actor.maxBytes !== null ? actor.maxBytes - (await actor.uploadedBytes(db)) : undefined;
  const outcomes = await eachOutcome(inputs, 8, async (input, index): Promise<Finished | Verified> => {
    if (inputs.findIndex((i) => i.id === input.id) !== index) throw new AppError('invalid_input', 'This upload is already earlier in the batch.');
    const upload = found.get(input.id);
    const finished = upload && (await finishedUpload(db, actor, upload));
    if (finished) return finished;
    try {
      return await verifyUpload(ctx, requireOpen(upload), input, targetOf(upload), linkRoom);
    } catch (error) {
      // A call completing the same upload at once took its parts from under this one: answer its file.
      const now = upload && (await findOwnUpload(db, upload.id, owner));
      const completed = now && (await finishedUpload(db, actor, now));
      if (completed) return completed;
      throw error;
    }
  });

  // The common case, new files under free names, is one statement; anything else completes on its own.
  const simple = outcomes.filter((o): o is Verified => isVerified(o) && !o.upload.item_id && !o.upload.clash_id);
  const made = simple.length ? await makeNewFiles(db, actor, simple) : undefined;
  const results = await eachOutcome(outcomes, 1, async (outcome) => {
    if (outcome instanceof AppError) throw outcome;
    if (!isVerified(outcome)) return outcome;
    const item = made?.get(outcome.upload.id);
    if (item)
      return {
        upload: presentUpload({ ...outcome.upload, state: 'completed', result_item_id: item.id }),
        item: isVisitor(actor) ? null : presentItem(item, accessWithRole(actor, item, outcome.role!)),
      };
    return makeFile(db, actor, outcome);
  });
  // The bytes this batch's completions brought in (not bytes the workspace held already, nor uploads finished before).
  let bytes = 0;
  results.forEach((result, i) => {
    const outcome = outcomes[i];
    if (!(result instanceof AppError) && outcome && isVerified(outcome) && !outcome.reused) bytes += outcome.file.size;
  });
  if (bytes > 0) ctx.metrics.uploaded(bytes);
  return results;
}

const isVerified = (o: Outcome<Finished | Verified>): o is Verified => !(o instanceof AppError) && 'parent' in o;

/**
 * A completed upload's answer, the same for every call that completes it: the upload and its file
 * (undefined while it is open, or when the file is no longer visible).
 */
async function finishedUpload(db: Db, actor: Uploader, upload: UploadRow): Promise<Finished | undefined> {
  if (upload.state !== 'completed' || !upload.result_item_id) return undefined;
  if (isVisitor(actor)) return { upload: presentUpload(upload), item: null };
  const access = await requireItem(db, actor, upload.result_item_id, 'view').catch(() => undefined);
  if (!access) return undefined;
  // The file as it was made, as the first completion answered it: its preview is for the listings, and changes meanwhile.
  const item = presentItem(access.item, access);
  delete item.preview;
  return { upload: presentUpload(upload), item };
}

/**
 * The upload's parts joined into its object — or the object an earlier call joined, when the
 * storage no longer knows the upload (a retry after a crash, or a call completing it at the same time).
 */
async function joinParts(storage: StorageDriver, upload: UploadRow): Promise<{ size: number; sha256?: string | undefined }> {
  const joinedBefore = async (error: unknown) => {
    const object = await storage.stat(upload.blob_key);
    if (!object) throw error;
    return object;
  };
  const parts = await storage.listParts(upload.blob_key, upload.storage_upload_id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'upload_expired') return null;
    throw error;
  });
  if (!parts) return joinedBefore(new AppError('upload_expired'));
  checkParts(upload, parts);
  return storage.completeMultipart(upload.blob_key, upload.storage_upload_id, parts).catch(joinedBefore);
}

/** Every part present with exactly the size the plan gives it; otherwise which ones to send again. */
function checkParts(upload: UploadRow, parts: StoredPart[]): void {
  const have = new Map(parts.map((p) => [p.partNumber, p]));
  const missing: number[] = [];
  const wrong: number[] = [];
  for (let n = 1; n <= upload.part_count; n++) {
    const part = have.get(n);
    if (!part) missing.push(n);
    else if (part.size !== partLength(upload, n)) wrong.push(n);
  }
  if (missing.length || wrong.length) {
    throw new AppError(
      'invalid_input',
      missing.length ? `Parts missing: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? '…' : ''}.` : `Parts of the wrong size: ${wrong.join(', ')}.`,
      {
        missingParts: missing,
        wrongSizeParts: wrong,
      },
    );
  }
}

async function hashObject(storage: StorageDriver, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await storage.read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Ends an upload that cannot complete: its bytes are removed (by a job, so a storage outage does not lose the task). */
function failUpload(db: Db, upload: UploadRow, failure: string): Promise<void> {
  return inTransaction(db, (tx) => endUpload(tx, upload, { state: 'failed', failure }));
}

/**
 * Settles the name, the quota and the bytes of one open upload: joined once, size and SHA-256
 * checked. `targetAccess` is the caller's access to its folder (a new file) or its file (a new
 * version); `linkRoom`, what a file request with a cap on its total still takes.
 */
async function verifyUpload(
  ctx: AppContext,
  upload: UploadForCompletion,
  input: CompleteInput,
  targetAccess: Target | AppError | undefined,
  linkRoom?: number,
): Promise<Verified> {
  const { db, storage } = ctx;
  if (input.sha256 && upload.sha256 && input.sha256 !== upload.sha256) {
    await failUpload(db, upload, 'The SHA-256 given on completion differs from the one given at the start.');
    throw new AppError('checksum_mismatch', 'The SHA-256 given on completion differs from the one given at the start.');
  }
  const onConflict = input.onConflict ?? upload.on_conflict;
  // Settle the name before joining the parts, so a conflict leaves the upload open for another answer.
  if (!upload.parent_id || !targetAccess)
    throw new AppError('not_found', upload.item_id ? 'The file this version was for is gone.' : 'The folder this upload was going to is gone.');
  // Checked once, here: a change of access in the milliseconds until the commit is not worth a second query.
  if (targetAccess instanceof AppError) throw targetAccess;
  const { item: parent, role } = targetAccess;
  if (!upload.item_id && upload.clash_id && onConflict === 'fail')
    throw new AppError('name_conflict', undefined, { suggestedName: await suggestFreeName(db, parent.id, upload.name) });
  try {
    if (linkRoom !== undefined) requireLinkRoom(linkRoom, Number(upload.size_bytes));
    requireQuota(upload, Number(upload.size_bytes));
  } catch (error) {
    await failUpload(db, upload, (error as AppError).message);
    throw error;
  }

  const reused = input.proof ? await reuseHeldBytes(ctx, upload, input.proof) : undefined;
  if (reused) return { upload, parent, role, onConflict, file: reused, reused: true };

  const joined = await joinParts(storage, upload);
  const sha256 = joined.sha256 ?? (await hashObject(storage, upload.blob_key));
  const expected = input.sha256 ?? upload.sha256;
  if (joined.size !== Number(upload.size_bytes) || (expected && expected !== sha256)) {
    const why =
      joined.size !== Number(upload.size_bytes)
        ? `The upload holds ${joined.size} bytes, not the ${Number(upload.size_bytes)} declared.`
        : 'The bytes received do not match the SHA-256 given.';
    await failUpload(db, upload, why);
    throw new AppError('checksum_mismatch', why);
  }
  const file = { size: joined.size, mimeType: upload.mime_type, blobKey: upload.blob_key, sha256, ...input.client };
  return { upload, parent, role, onConflict, file };
}

/**
 * The workspace's copy of an upload's bytes, when the upload was offered it and the proof is
 * right. A wrong proof withdraws the offer (one guess per upload) and answers `checksum_mismatch`:
 * the upload stays open, to complete by sending its parts. A proof without an offer changes nothing.
 */
async function reuseHeldBytes(ctx: AppContext, upload: UploadForCompletion, proof: string): Promise<NewBytes | undefined> {
  const challenge = challengeOf(upload.dedup_challenge);
  if (!upload.dedup_blob_key || !challenge || !upload.sha256) return undefined;
  const expected = await storedProof(ctx.storage, upload.dedup_blob_key, challenge).catch((error: unknown) => {
    // The copy went meanwhile: the upload completes by its parts.
    if (error instanceof AppError && error.code === 'storage_unavailable') throw error;
    return undefined;
  });
  if (!expected || !proofMatches(expected, proof)) {
    await clearDedupOffer(ctx.db, upload.id);
    throw new AppError(
      'checksum_mismatch',
      expected ? 'The proof does not match the bytes: send the file itself.' : 'The copy is gone: send the file itself.',
      {
        proof: 'rejected',
      },
    );
  }
  return { size: Number(upload.size_bytes), mimeType: upload.mime_type, blobKey: upload.dedup_blob_key, sha256: upload.sha256 };
}

/**
 * In the transaction that makes a reused upload's file: the workspace's copy is held (a purge or
 * prune of it waits), and the upload's own, unused storage upload is discarded by a job. When no
 * ready version names the copy any more, the offer is withdrawn and the upload must send its bytes.
 */
async function takeReusedBytes(tx: Db, v: Verified): Promise<void> {
  if (!v.reused) return;
  if (!(await holdBlob(tx, v.upload.workspace_id, v.file.blobKey, v.file.sha256, v.file.size))) throw COPY_GONE;
  await enqueue(tx, 'upload.discard', { key: v.upload.blob_key, uploadId: v.upload.storage_upload_id });
}

/** Thrown when the copy an upload reuses went before it was made: the offer is withdrawn, the upload sends its bytes. */
const COPY_GONE = Symbol('the copy is gone');

async function copyGone(db: Db, uploadId: string): Promise<never> {
  await clearDedupOffer(db, uploadId);
  throw new AppError('checksum_mismatch', 'The copy is gone: send the file itself.', { proof: 'rejected' });
}

/** New files for verified uploads, all in one statement; undefined when any of them needs the careful way (then none is made here). */
async function makeNewFiles(db: Db, actor: Uploader, verified: Verified[]): Promise<Map<string, ItemRow> | undefined> {
  const ownerId = ownerOf(actor).authorId;
  const files = verified.map((v) => ({
    uploadId: v.upload.id,
    workspaceId: v.upload.workspace_id,
    parentId: v.parent.id,
    name: v.upload.name,
    ownerId,
    ...v.file,
  }));
  return inTransaction(db, async (tx) => {
    for (const v of verified) if (v.reused && !(await holdBlob(tx, v.upload.workspace_id, v.file.blobKey, v.file.sha256, v.file.size))) throw TAKE_CAREFUL_PATH;
    const result = await insertUploadedFiles(tx, files, recordCreated('item', actor), { visit: !isVisitor(actor) });
    for (const v of verified) if (v.reused) await enqueue(tx, 'upload.discard', { key: v.upload.blob_key, uploadId: v.upload.storage_upload_id });
    if (!result.whole || !result.counted) throw TAKE_CAREFUL_PATH;
    if (isVisitor(actor)) await countThroughLink(tx, actor, result.items.length, sumOf(verified.map((v) => v.file.size)));
    return new Map(result.items.map((item, i) => [files[i]!.uploadId, item]));
  }).catch((error: unknown) => (error === TAKE_CAREFUL_PATH ? undefined : Promise.reject(error)));
}

const sumOf = (sizes: number[]) => sizes.reduce((a, b) => a + b, 0);

/**
 * Counts files made through a file request and their bytes on the link, in their transaction. Past
 * its cap (lowered since the uploads started, or taken by others meanwhile) the transaction is
 * undone: nothing is made, and the upload stays open.
 */
async function countThroughLink(tx: Db, visitor: LinkUploader, files: number, bytes: number): Promise<void> {
  if (!(await visitor.counted(tx, files, bytes))) throw linkFull((visitor.maxBytes ?? 0) - (await visitor.uploadedBytes(tx)));
}

/** Thrown inside the one-statement completion to roll it back and complete the careful way. */
const TAKE_CAREFUL_PATH = Symbol('take the careful path');

/** The careful way: the upload locked, the name settled again, a new file or a new version, usage counted within the quota. */
function makeFile(db: Db, actor: Uploader, v: Verified): Promise<Finished> {
  return makeFileOnce(db, actor, v).catch((error: unknown) => (error === COPY_GONE ? copyGone(db, v.upload.id) : Promise.reject(error)));
}

function makeFileOnce(db: Db, actor: Uploader, v: Verified): Promise<Finished> {
  const owner = ownerOf(actor);
  return inTransaction(db, async (tx) => {
    const row = await findOwnUpload(tx, v.upload.id, owner, { lock: true });
    // Another call completed it while this one joined the bytes: the same answer as that call's.
    const finished = row && (await finishedUpload(tx, actor, row));
    if (finished) return finished;
    const locked = requireOpen(row);
    await takeReusedBytes(tx, v);
    let replaceId = locked.item_id;
    let name = locked.name;
    if (!replaceId) {
      const clash = await findActiveSibling(tx, v.parent.id, name);
      if (clash && v.onConflict === 'replace' && !isVisitor(actor)) {
        const existing = await requireItem(tx, actor, clash.id, 'edit');
        if (existing.item.kind === 'file') replaceId = existing.item.id;
      }
      // A name taken since the check above (or kept on purpose) gets a free one.
      if (clash && !replaceId) name = await suggestFreeName(tx, v.parent.id, name);
    }
    // Only a person's upload replaces (a visitor's never has `replaceId`).
    const result =
      replaceId && !isVisitor(actor)
        ? await insertVersion(tx, (await requireItem(tx, actor, replaceId, 'edit', { lock: true })).item.id, { authorId: owner.authorId, ...v.file })
        : await insertFile(tx, { workspaceId: locked.workspace_id, parentId: v.parent.id, name, ownerId: owner.authorId, ...v.file });
    const done = await setUploadState(tx, locked.id, { state: 'completed', resultItemId: result.item.id });
    if (isVisitor(actor)) await countThroughLink(tx, actor, 1, v.file.size);
    else await upsertVisit(tx, owner.authorId, result.item.id);
    await record(tx, actor, {
      workspaceId: locked.workspace_id,
      action: replaceId ? 'item.updated' : 'item.created',
      itemId: result.item.id,
      parentIds: [result.item.parent_id],
      data: replaceId ? { name: result.item.name, version: result.version.number } : { name: result.item.name, kind: 'file' },
    });
    if (!(await addUsage(tx, locked.workspace_id, v.file.size))) throw new AppError('quota_exceeded');
    return { upload: presentUpload(done), item: isVisitor(actor) ? null : presentItem(result.item, accessWithRole(actor, result.item, v.role!)) };
  });
}
