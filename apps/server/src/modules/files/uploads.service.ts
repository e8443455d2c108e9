import { createHash } from 'node:crypto';
import {
  LIMITS,
  uuidv7,
  type TItem,
  type TItemRole,
  type TOnConflict,
  type TSignedPart,
  type TStartedUpload,
  type TUpload,
  type TUploadStatus,
} from '@cabinet/contracts';
import { lookup } from 'mime-types';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { ItemRow, UploadRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { rateKey } from '../../lib/client-address.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import type { StorageDriver, StoredPart } from '../../infra/storage/driver.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record, recordCreated, type LinkVisitor } from '../events/index.ts';
import { accessWithRole, findActiveSibling, presentItem, requireItem, requireItems, suggestFreeName, upsertVisit } from '../items/index.ts';
import { addUsage, getWorkspace, lockWorkspaceRoom } from '../workspaces/index.ts';
import {
  claimStaleUploads,
  claimLinkUploads,
  findActiveUploads,
  findFolderSlots,
  findOwnUpload,
  findOwnUploadsForCompletion,
  insertFile,
  insertUploadedFiles,
  insertUploads,
  insertVersion,
  setUploadState,
  type NewUpload,
  type UploadForCompletion,
  type UploadOwner,
  type Usage,
} from './files.repo.ts';

const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;
const PART_URL_TTL_SECONDS = 3600;
const SIGN_WITH_START = 8;
/** Open uploads end as others complete: worth asking again after this long. */
const OPEN_UPLOAD_RETRY_SECONDS = 30;

/**
 * A file request's visitor (ADR 0035): uploads into the link's folder alone — which the link's
 * service checked before the call — never replaces a file, and is recorded as the link. The files
 * belong to the link's maker; the uploads stay the link's own (`UploadOwner`).
 */
export interface LinkUploader extends LinkVisitor {
  /** Who made the link: the files become theirs. */
  ownerId: string;
  folder: ItemRow;
  /** Counts files made through the link, in the transaction that makes them. */
  counted: (db: Db, files: number) => Promise<void>;
}

/** Who uploads: a person (by session or token), or a file request's visitor. */
export type Uploader = Actor | LinkUploader;

const isVisitor = (u: Uploader): u is LinkUploader => u.via === 'link';
const ownerOf = (u: Uploader): UploadOwner => (isVisitor(u) ? { authorId: u.ownerId, linkId: u.linkId } : { authorId: u.user.id, linkId: null });

/** Where an upload goes (a folder, or a file for a new version), and the uploader's role on it (none for a visitor). */
interface Target {
  item: ItemRow;
  role: TItemRole | null;
  workspaceSlug?: string;
}

/** What the uploader may upload to: a person, by their access; a visitor, the link's folder and nothing else. */
async function targetsOf(db: Db, u: Uploader, ids: string[], ability: 'createInside' | 'edit'): Promise<Map<string, Target | AppError>> {
  if (!isVisitor(u)) return requireItems(db, u, ids, ability);
  return new Map(ids.map((id) => [id, ability === 'createInside' && id === u.folder.id ? { item: u.folder, role: null } : new AppError('not_found')]));
}

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

const mimeOf = (name: string, declared?: string) =>
  declared && declared !== 'application/octet-stream' ? declared : lookup(name) || declared || 'application/octet-stream';

/**
 * Refuses `adding` bytes past the quota, before any work (completion checks again as it counts
 * them). At the start the bytes open uploads reserve count as used: each upload reserves its
 * declared size until it completes, is cancelled or expires.
 */
function requireQuota(usage: Usage, adding: number, reserved = 0): void {
  if (usage.quota_bytes !== null && Number(usage.used_bytes) + reserved + adding > Number(usage.quota_bytes)) {
    throw new AppError('quota_exceeded', undefined, {
      quotaBytes: Number(usage.quota_bytes),
      usedBytes: Number(usage.used_bytes),
      reservedBytes: reserved,
      neededBytes: adding,
    });
  }
}

/** Open uploads cost storage until they end: one person (or one address on a link) may have `max` at once. */
function requireOpenSlot(open: number, max: number): void {
  if (open >= max) {
    throw new AppError('rate_limited', `You have ${max} uploads in progress. Finish or cancel some to start more.`, {
      openUploads: open,
      maxOpenUploads: max,
      retryAfter: OPEN_UPLOAD_RETRY_SECONDS,
    });
  }
}

/** A link's visitor starts at most so many uploads an hour from one address: a script cannot keep the workspace's room reserved. */
function requireStartsLeft(started: number): void {
  if (started >= LIMITS.linkUploadStartsPerHour) {
    throw new AppError('rate_limited', 'Too many uploads from here through this link. Wait a while before uploading more.', { retryAfter: 3600 });
  }
}

interface StartInput {
  parentId: string;
  name: string;
  size: number;
  mimeType?: string | undefined;
  sha256?: string | undefined;
  onConflict: TOnConflict;
  /** The file this upload is a new version of (its folder and name are then the file's). */
  versionOf?: string | undefined;
}

/** Each entry of a batch answers for itself: its result, or the error its own call would have thrown. */
export type Outcome<T> = T | AppError;

/** The single call is a batch of one. */
async function one<T>(outcomes: Promise<Outcome<T>[]>): Promise<T> {
  const [outcome] = await outcomes;
  if (outcome instanceof AppError) throw outcome;
  return outcome!;
}

/** Runs `fn` over items, `width` at a time; an AppError becomes that entry's outcome, anything else fails the call. */
async function eachOutcome<I, T>(items: I[], width: number, fn: (item: I, index: number) => Promise<T>): Promise<Outcome<T>[]> {
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

/**
 * Opens an upload: checks the folder, the name, the size and the quota, then asks the storage
 * for a multipart upload. Nothing is visible until it completes.
 */
export function startUpload(ctx: AppContext, actor: Uploader, workspaceIdOrSlug: string, input: StartInput): Promise<TStartedUpload> {
  return one(startUploads(ctx, actor, workspaceIdOrSlug, [input]));
}

/** A new version of a file, uploaded the same way (into the file's folder, under its name). */
export function startVersionUpload(
  ctx: AppContext,
  actor: Actor,
  itemId: string,
  input: Omit<StartInput, 'parentId' | 'name' | 'onConflict' | 'versionOf'>,
): Promise<TStartedUpload> {
  return one(startUploads(ctx, actor, null, [{ ...input, parentId: itemId, name: 'version', onConflict: 'replace', versionOf: itemId }]));
}

interface StartPlan {
  input: StartInput;
  parentId: string;
  name: string;
  itemId: string | null;
}

/**
 * Opens several uploads into one workspace (the route's; null: the targets' own, for a new
 * version) with a handful of statements whatever their number:
 * the folders' access in one query, the names and the quota in one, the rows in one. The quota
 * and open-upload checks and the rows that reserve bytes share a transaction holding the workspace's
 * row: starts running at once would each see the others' room as free (completion checks again).
 */
export async function startUploads(
  ctx: AppContext,
  actor: Uploader,
  workspaceIdOrSlug: string | null,
  inputs: StartInput[],
): Promise<Outcome<TStartedUpload>[]> {
  const { db, env, storage } = ctx;
  const owner = ownerOf(actor);
  const visitor = isVisitor(actor);
  // A visitor's limits count by address, an IPv6 one by its /64: its single addresses are theirs to change.
  const address = visitor ? rateKey(actor.ip) : null;
  // A new file goes into a folder (or a document) the caller may create in; a new version needs the file itself editable.
  const parents = await targetsOf(
    db,
    actor,
    inputs.flatMap((i) => (i.versionOf ? [] : [i.parentId])),
    'createInside',
  );
  const files = await targetsOf(
    db,
    actor,
    inputs.flatMap((i) => (i.versionOf ? [i.versionOf] : [])),
    'edit',
  );
  let workspaceId: string | undefined;
  const plans: Outcome<StartPlan>[] = inputs.map((input) => {
    if (input.size > env.MAX_FILE_SIZE) return new AppError('file_too_large', undefined, { maxBytes: env.MAX_FILE_SIZE });
    const target = input.versionOf ? files.get(input.versionOf)! : parents.get(input.parentId)!;
    if (target instanceof AppError) return target;
    // The target's access row names its workspace: the route's workspace (id or slug), when it names one, must be it.
    if (workspaceIdOrSlug !== null && target.item.workspace_id !== workspaceIdOrSlug && target.workspaceSlug !== workspaceIdOrSlug)
      return new AppError('not_found');
    workspaceId = target.item.workspace_id;
    if (input.versionOf) {
      if (target.item.kind !== 'file') return new AppError('invalid_input', 'Only files have versions.');
      return { input, parentId: target.item.parent_id!, name: target.item.name, itemId: target.item.id };
    }
    // A file uploaded into a document is its attachment (an image in it, say): it shares the document's access, trash and fate.
    return { input, parentId: input.parentId, name: input.name, itemId: null };
  });
  const live = plans.filter((p): p is StartPlan => !(p instanceof AppError));
  const { opened, rows } = await inTransaction(db, async (tx) => {
    if (workspaceId && live.length) {
      await lockWorkspaceRoom(tx, workspaceId);
      const { usage, openUploads, recentStarts, clashIds } = await findFolderSlots(
        tx,
        workspaceId,
        { ...owner, ip: address },
        live.map((p) => ({ parentId: p.parentId, name: p.name })),
      );
      let adding = 0;
      let opening = 0;
      for (const [i, plan] of live.entries()) {
        try {
          requireOpenSlot(openUploads + opening, visitor ? LIMITS.linkOpenUploads : env.MAX_OPEN_UPLOADS);
          if (visitor) requireStartsLeft(recentStarts + opening);
          if (!plan.input.versionOf && clashIds[i])
            plan.itemId = await resolveConflict(tx, actor, plan.input.onConflict, plan.parentId, plan.name, clashIds[i]!);
          requireQuota(usage, adding + plan.input.size, usage.reserved_bytes);
          adding += plan.input.size;
          opening++;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          plans[plans.indexOf(plan)] = error;
        }
      }
    }
    const opened = await eachOutcome(plans, 16, async (plan): Promise<NewUpload> => {
      if (plan instanceof AppError) throw plan;
      const partSize = partSizeFor(plan.input.size, env.UPLOAD_PART_SIZE);
      const mimeType = mimeOf(plan.name, plan.input.mimeType);
      const key = `${workspaceId}/${uuidv7()}`;
      return {
        workspace_id: workspaceId!,
        parent_id: plan.parentId,
        item_id: plan.itemId,
        name: plan.name,
        on_conflict: plan.input.versionOf ? ('replace' as const) : plan.input.onConflict,
        size_bytes: plan.input.size,
        mime_type: mimeType,
        sha256: plan.input.sha256 ?? null,
        part_size: partSize,
        part_count: Math.max(1, Math.ceil(plan.input.size / partSize)),
        blob_key: key,
        storage_upload_id: await storage.createMultipart(key, mimeType),
        author_id: owner.authorId,
        link_id: owner.linkId,
        link_ip: address,
        expires_at: new Date(Date.now() + env.UPLOAD_EXPIRY_HOURS * 3_600_000),
      };
    });
    return {
      opened,
      rows: await insertUploads(
        tx,
        opened.filter((o): o is NewUpload => !(o instanceof AppError)),
      ),
    };
  });
  let r = 0;
  return Promise.all(
    opened.map(async (o) => {
      if (o instanceof AppError) return o;
      const upload = rows[r++]!;
      // The first parts come signed with the answer: a small file needs no separate signing call.
      const first = Array.from({ length: Math.min(upload.part_count, SIGN_WITH_START) }, (_, i) => i + 1);
      return { ...presentUpload(upload), parts: await signUrls(storage, upload, first) };
    }),
  );
}

/** The length part `n` must have: the part size, the last part what remains. */
function partLength(upload: UploadRow, n: number): number {
  const partSize = Number(upload.part_size);
  return n < upload.part_count ? partSize : Number(upload.size_bytes) - partSize * (upload.part_count - 1);
}

async function signUrls(storage: StorageDriver, upload: UploadRow, partNumbers: number[]): Promise<TSignedPart[]> {
  const signed: TSignedPart[] = [];
  for (const n of [...new Set(partNumbers)]) {
    const s = await storage.signPart(upload.blob_key, upload.storage_upload_id, n, partLength(upload, n), PART_URL_TTL_SECONDS, {
      onlyPart: upload.part_count === 1,
    });
    signed.push({ partNumber: n, method: 'PUT', url: s.url, expiresAt: s.expiresAt.toISOString() });
  }
  return signed;
}

/** A name taken in the folder: refuse with a free name, plan to take a free one, or replace that file. Returns the file to replace. */
async function resolveConflict(db: Db, actor: Uploader, onConflict: TOnConflict, parentId: string, name: string, clashId: string): Promise<string | null> {
  if (onConflict === 'keep_both') return null;
  // A visitor replaces nothing (their uploads keep both, ADR 0035).
  if (onConflict === 'replace' && !isVisitor(actor)) {
    const existing = await requireItem(db, actor, clashId, 'edit');
    if (existing.item.kind === 'file') return existing.item.id;
  }
  throw new AppError('name_conflict', undefined, { suggestedName: await suggestFreeName(db, parentId, name) });
}

/** An upload still taking parts; an ended one is `upload_expired`. */
function requireOpen<U extends UploadRow>(upload: U | undefined): U {
  if (!upload) throw new AppError('not_found');
  if (upload.state === 'completed') throw new AppError('invalid_input', 'This upload is already complete.');
  if (upload.state !== 'created' && upload.state !== 'uploading') throw new AppError('upload_expired', upload.failure ?? undefined);
  if (upload.expires_at.getTime() < Date.now()) throw new AppError('upload_expired');
  return upload;
}

export async function getUpload(ctx: AppContext, actor: Uploader, id: string): Promise<TUploadStatus> {
  const upload = await findOwnUpload(ctx.db, id, ownerOf(actor));
  if (!upload) throw new AppError('not_found');
  const open = upload.state === 'created' || upload.state === 'uploading';
  const parts = open
    ? await ctx.storage.listParts(upload.blob_key, upload.storage_upload_id).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'upload_expired') return [];
        throw error;
      })
    : [];
  return { ...presentUpload(upload), parts };
}

export async function listUploads(ctx: AppContext, actor: Actor, workspaceIdOrSlug: string): Promise<TUpload[]> {
  const workspace = await getWorkspace(ctx.db, actor.user, workspaceIdOrSlug);
  return (await findActiveUploads(ctx.db, actor.user.id, workspace.id)).map(presentUpload);
}

/** Short-lived URLs to PUT parts to; each signing keeps the upload alive for another expiry period. */
export async function signParts(ctx: AppContext, actor: Uploader, id: string, partNumbers: number[]): Promise<TSignedPart[]> {
  const upload = requireOpen(await findOwnUpload(ctx.db, id, ownerOf(actor)));
  const outOfRange = partNumbers.filter((n) => n > upload.part_count);
  if (outOfRange.length) {
    throw new AppError('invalid_input', `This upload has parts 1 to ${upload.part_count}.`, {
      fields: [{ path: 'body.partNumbers', message: `${outOfRange.join(', ')} out of range` }],
    });
  }
  // Activity keeps the upload alive; refreshing its expiry once a minute is plenty.
  const expiresAt = new Date(Date.now() + ctx.env.UPLOAD_EXPIRY_HOURS * 3_600_000);
  if (upload.state !== 'uploading' || expiresAt.getTime() - upload.expires_at.getTime() > 60_000)
    await setUploadState(ctx.db, upload.id, { state: 'uploading', expiresAt });
  return signUrls(ctx.storage, upload, partNumbers);
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
async function failUpload(db: Db, upload: UploadRow, failure: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    await setUploadState(tx, upload.id, { state: 'failed', failure });
    await enqueue(tx, 'upload.discard', { key: upload.blob_key, uploadId: upload.storage_upload_id });
  });
}

interface CompleteInput {
  id: string;
  sha256?: string | undefined;
  onConflict?: TOnConflict | undefined;
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
  file: { size: number; mimeType: string; blobKey: string; sha256: string };
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

/** A person's uploads completed: each answers with its file (only a visitor's answer lacks it). */
export async function completeUploads(ctx: AppContext, actor: Actor, inputs: CompleteInput[]): Promise<Outcome<Completed>[]> {
  return (await completeAll(ctx, actor, inputs)) as Outcome<Completed>[];
}

/**
 * Completes several uploads: the uploads, their folders' access and the names in two queries,
 * the bytes joined and checked a few at a time, and the new files made in one statement; an
 * upload that needs more (a replacement, a name taken meanwhile) completes on its own.
 */
async function completeAll(ctx: AppContext, actor: Uploader, inputs: CompleteInput[]): Promise<Outcome<Finished>[]> {
  const { db } = ctx;
  const owner = ownerOf(actor);
  const found = await findOwnUploadsForCompletion(
    db,
    inputs.map((i) => i.id),
    owner,
  );
  // What each upload needs: to create in its folder, or, for a new version, to edit its file (which
  // may be shared on its own, its folder not).
  const uploads = [...found.values()];
  const folders = await targetsOf(
    db,
    actor,
    uploads.flatMap((u) => (!u.item_id && u.parent_id ? [u.parent_id] : [])),
    'createInside',
  );
  const files = await targetsOf(
    db,
    actor,
    uploads.flatMap((u) => (u.item_id ? [u.item_id] : [])),
    'edit',
  );
  const targetOf = (u: UploadForCompletion | undefined) => (u?.item_id ? files.get(u.item_id) : u?.parent_id ? folders.get(u.parent_id) : undefined);
  const outcomes = await eachOutcome(inputs, 8, async (input, index): Promise<Finished | Verified> => {
    if (inputs.findIndex((i) => i.id === input.id) !== index) throw new AppError('invalid_input', 'This upload is already earlier in the batch.');
    const upload = found.get(input.id);
    const finished = upload && (await finishedUpload(db, actor, upload));
    if (finished) return finished;
    try {
      return await verifyUpload(ctx, requireOpen(upload), input, targetOf(upload));
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
  return eachOutcome(outcomes, 1, async (outcome) => {
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
}

const isVerified = (o: Outcome<Finished | Verified>): o is Verified => !(o instanceof AppError) && 'parent' in o;

/** A completed upload's answer, the same for every call that completes it: the upload and its file (undefined while it is open, or when the file is no longer visible). */
async function finishedUpload(db: Db, actor: Uploader, upload: UploadRow): Promise<Finished | undefined> {
  if (upload.state !== 'completed' || !upload.result_item_id) return undefined;
  if (isVisitor(actor)) return { upload: presentUpload(upload), item: null };
  const access = await requireItem(db, actor, upload.result_item_id, 'view').catch(() => undefined);
  return access && { upload: presentUpload(upload), item: presentItem(access.item, access) };
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

/**
 * Settles the name, the quota and the bytes of one open upload: joined once, size and SHA-256
 * checked. `targetAccess` is the caller's access to its folder (a new file) or its file (a new version).
 */
async function verifyUpload(
  ctx: AppContext,
  upload: UploadForCompletion,
  input: CompleteInput,
  targetAccess: Target | AppError | undefined,
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
    requireQuota(upload, Number(upload.size_bytes));
  } catch (error) {
    await failUpload(db, upload, (error as AppError).message);
    throw error;
  }

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
  return { upload, parent, role, onConflict, file: { size: joined.size, mimeType: upload.mime_type, blobKey: upload.blob_key, sha256 } };
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
    const result = await insertUploadedFiles(tx, files, recordCreated('item', actor), { visit: !isVisitor(actor) });
    if (!result.whole || !result.counted) throw TAKE_CAREFUL_PATH;
    if (isVisitor(actor)) await actor.counted(tx, result.items.length);
    return new Map(result.items.map((item, i) => [files[i]!.uploadId, item]));
  }).catch((error: unknown) => (error === TAKE_CAREFUL_PATH ? undefined : Promise.reject(error)));
}

/** Thrown inside the one-statement completion to roll it back and complete the careful way. */
const TAKE_CAREFUL_PATH = Symbol('take the careful path');

/** The careful way: the upload locked, the name settled again, a new file or a new version, usage counted within the quota. */
function makeFile(db: Db, actor: Uploader, v: Verified): Promise<Finished> {
  const owner = ownerOf(actor);
  return inTransaction(db, async (tx) => {
    const row = await findOwnUpload(tx, v.upload.id, owner, { lock: true });
    // Another call completed it while this one joined the bytes: the same answer as that call's.
    const finished = row && (await finishedUpload(tx, actor, row));
    if (finished) return finished;
    const locked = requireOpen(row);
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
    if (isVisitor(actor)) await actor.counted(tx, 1);
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

export async function abortUpload(ctx: AppContext, actor: Uploader, id: string): Promise<void> {
  const upload = await findOwnUpload(ctx.db, id, ownerOf(actor));
  if (!upload) throw new AppError('not_found');
  if (upload.state === 'completed') throw new AppError('invalid_input', 'This upload is already complete; move the file to the trash instead.');
  if (upload.state !== 'created' && upload.state !== 'uploading') return;
  await inTransaction(ctx.db, async (tx) => {
    await setUploadState(tx, upload.id, { state: 'aborted' });
    await enqueue(tx, 'upload.discard', { key: upload.blob_key, uploadId: upload.storage_upload_id });
  });
}

/**
 * Ends the open uploads of a link, in the caller's transaction (the link was revoked): their
 * reserved room is free at once, their bytes go, and none of them can complete any more.
 */
export async function abortLinkUploads(db: Db, linkId: string): Promise<void> {
  for (const upload of await claimLinkUploads(db, linkId)) {
    await setUploadState(db, upload.id, { state: 'aborted' });
    await enqueue(db, 'upload.discard', { key: upload.blob_key, uploadId: upload.storage_upload_id });
  }
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
