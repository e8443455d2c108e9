import { LIMITS, UPLOAD_BATCH_MAX, uuidv7, type TOnConflict, type TStartedUpload } from '@cabinet/contracts';
import { lookup } from 'mime-types';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { rateKey } from '../../lib/client-address.ts';
import { groupCalls, type GroupedCalls } from '../../lib/group-calls.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { judgeAccess, requireItem, suggestFreeName, type ItemAccess } from '../items/index.ts';
import { lockWorkspaceRoom } from '../workspaces/index.ts';
import { challengeOf, makeChallenge } from './dedup.ts';
import type { UploadRow } from '../../db/schema.ts';
import { findContentBlobs, findFolderSlots, insertUploads, insertUploadsWhenRoom, type NewUpload, type UploadForCompletion, type Usage } from './files.repo.ts';
import {
  callerKey,
  eachOutcome,
  isVisitor,
  one,
  ownerOf,
  presentUpload,
  requireLinkRoom,
  requireQuota,
  signUrls,
  targetsOf,
  type Outcome,
  type Uploader,
} from './upload-common.ts';

const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;
const SIGN_WITH_START = 8;
/** Open uploads end as others complete: worth asking again after this long. */
const OPEN_UPLOAD_RETRY_SECONDS = 30;

/** The setting's part size, grown (in whole MiB) until the file fits in 10,000 parts. */
function partSizeFor(size: number, base: number): number {
  const needed = Math.ceil(size / MAX_PARTS);
  return needed <= base ? base : Math.ceil(needed / MIB) * MIB;
}

const mimeOf = (name: string, declared?: string) =>
  declared && declared !== 'application/octet-stream' ? declared : lookup(name) || declared || 'application/octet-stream';

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
  /**
   * The caller's access to the folder a new file goes into, or to the file a new version is of, as their request read it
   * just before (WebDAV's walk of the path): not read again.
   */
  known?: ItemAccess | undefined;
}

/**
 * Opens an upload: checks the folder, the name, the size and the quota, and asks the storage for a multipart upload
 * (a person's before the quota is read, cancelled when the start is refused). Nothing is visible until it completes.
 */
export async function startUpload(ctx: AppContext, actor: Uploader, workspaceIdOrSlug: string, input: StartInput): Promise<TStartedUpload> {
  return presentStarted(ctx, await one(openUploads(ctx, actor, workspaceIdOrSlug, [input])));
}

/**
 * An opened upload's row with what its completion will meet as the start read it (its workspace's usage, a file under its
 * name): a completion right after may take it rather than read it again (upload-through.ts).
 */
export type StartedRow = UploadForCompletion;

/**
 * `startUpload`, answering the upload's row: for bytes that come through Cabinet (files/upload-through.ts), which writes
 * its parts itself (no part's address is signed for it).
 */
export function startUploadRow(ctx: AppContext, actor: Actor, workspaceId: string, input: StartInput): Promise<StartedRow> {
  return one(openUploads(ctx, actor, workspaceId, [input]));
}

/** A new version of a file, uploaded the same way (into the file's folder, under its name). */
export async function startVersionUpload(
  ctx: AppContext,
  actor: Actor,
  itemId: string,
  input: Omit<StartInput, 'parentId' | 'name' | 'onConflict' | 'versionOf'>,
): Promise<TStartedUpload> {
  return presentStarted(
    ctx,
    await one(openUploads(ctx, actor, null, [{ ...input, parentId: itemId, name: 'version', onConflict: 'replace', versionOf: itemId }])),
  );
}

interface StartPlan {
  input: StartInput;
  parentId: string;
  name: string;
  itemId: string | null;
}

/** An opened upload as its caller is told of it: the first parts come signed with it (a small file needs no signing call). */
async function presentStarted({ storage }: AppContext, upload: UploadRow): Promise<TStartedUpload> {
  const first = Array.from({ length: Math.min(upload.part_count, SIGN_WITH_START) }, (_, i) => i + 1);
  const dedup = challengeOf(upload.dedup_challenge);
  return { ...presentUpload(upload), parts: await signUrls(storage, upload, first), ...(dedup ? { dedup } : {}) };
}

type StartGroup = GroupedCalls<{ ctx: AppContext; actor: Actor; workspace: string }, StartInput, Outcome<StartedRow>>;
const startGroups = new WeakMap<AppContext, StartGroup>();

/**
 * Opens several uploads into one workspace (the route's; null: the targets' own, for a new
 * version). A person's starts into one workspace that arrive while another of theirs runs go
 * together as the next batch (ADR 0048): many files each started by a call of its own cost the
 * statements of one batch between them.
 */
export async function startUploads(
  ctx: AppContext,
  actor: Uploader,
  workspaceIdOrSlug: string | null,
  inputs: StartInput[],
): Promise<Outcome<TStartedUpload>[]> {
  return Promise.all((await openUploads(ctx, actor, workspaceIdOrSlug, inputs)).map((o) => (o instanceof AppError ? o : presentStarted(ctx, o))));
}

function openUploads(ctx: AppContext, actor: Uploader, workspaceIdOrSlug: string | null, inputs: StartInput[]): Promise<Outcome<StartedRow>[]> {
  if (isVisitor(actor) || workspaceIdOrSlug === null) return startUploadsNow(ctx, actor, workspaceIdOrSlug, inputs);
  let group = startGroups.get(ctx);
  if (!group) {
    group = groupCalls((a, batch) => startUploadsNow(a.ctx, a.actor, a.workspace, batch), { max: UPLOAD_BATCH_MAX });
    startGroups.set(ctx, group);
  }
  return group(`${callerKey(actor)}\n${workspaceIdOrSlug}`, { ctx, actor, workspace: workspaceIdOrSlug }, inputs);
}

/**
 * Opens uploads at once, with a handful of statements whatever their number: the folders' access in one query, then a
 * person's uploads that plainly fit in one statement that checks and writes them all (ADR 0076). Otherwise (a link's
 * visitor, a bound or the quota reached, a name to replace or refuse) the careful way: the names and the quota in one
 * query, the rows in one, in a transaction holding the workspace's row (starts running at once would otherwise each
 * see the others' room as free; the completion checks again).
 */
async function startUploadsNow(ctx: AppContext, actor: Uploader, workspaceIdOrSlug: string | null, inputs: StartInput[]): Promise<Outcome<StartedRow>[]> {
  const { db, env, storage } = ctx;
  const owner = ownerOf(actor);
  const visitor = isVisitor(actor);
  // A visitor's limits count by address, an IPv6 one by its /64: its single addresses are theirs to change.
  const address = visitor ? rateKey(actor.ip) : null;
  // A new file goes into a folder (or a document) the caller may create in; a new version needs the file itself editable.
  const parents = await targetsOf(
    db,
    actor,
    inputs.flatMap((i) => (i.versionOf || knownTarget(i) ? [] : [i.parentId])),
    'createInside',
  );
  const files = await targetsOf(
    db,
    actor,
    inputs.flatMap((i) => (i.versionOf && !knownTarget(i) ? [i.versionOf] : [])),
    'edit',
  );
  let workspaceId: string | undefined;
  const plans: Outcome<StartPlan>[] = inputs.map((input) => {
    if (input.size > env.MAX_FILE_SIZE) return new AppError('file_too_large', undefined, { maxBytes: env.MAX_FILE_SIZE });
    const known = knownTarget(input);
    const ability = input.versionOf ? 'edit' : 'createInside';
    const target = known ? judgeAccess(known, ability) : input.versionOf ? files.get(input.versionOf)! : parents.get(input.parentId)!;
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
  let live = plans.filter((p): p is StartPlan => !(p instanceof AppError));
  // Bytes the workspace already holds (a person's uploads that give their SHA-256; never a link's
  // visitor, who would learn what the workspace holds): offered for reuse against a proof (ADR 0042).
  const asking = visitor || !workspaceId ? [] : live.filter((p) => p.input.sha256 && p.input.size > 0);
  const held = new Map<StartPlan, string>();
  if (asking.length) {
    const keys = await findContentBlobs(
      db,
      workspaceId!,
      asking.map((p) => ({ sha256: p.input.sha256!, size: p.input.size })),
    );
    asking.forEach((p, i) => keys[i] && held.set(p, keys[i]));
  }
  // Each upload's row as it will be written: its storage's multipart asked for before any row of the database is held.
  const made = new Map<StartPlan, NewUpload>();
  const make = async (plan: StartPlan): Promise<NewUpload> => {
    const partSize = partSizeFor(plan.input.size, env.UPLOAD_PART_SIZE);
    const mimeType = mimeOf(plan.name, plan.input.mimeType);
    const key = `${workspaceId}/${uuidv7()}`;
    const reusable = held.get(plan);
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
      ...(reusable ? { dedup_blob_key: reusable, dedup_challenge: JSON.stringify(makeChallenge(plan.input.size)) } : {}),
    };
  };
  // Multiparts nothing will write to: those of uploads refused, or of a start that failed.
  const cancel = (uploads: Iterable<NewUpload>) => {
    for (const u of uploads) void storage.abortMultipart(u.blob_key, u.storage_upload_id).catch(() => {});
  };
  // A person's uploads that plainly fit (the usual start: room, slots and free names) open in one statement (ADR 0076).
  if (!visitor && live.length) {
    const outcomes = await eachOutcome(live, 16, async (plan) => made.set(plan, await make(plan)).get(plan)!);
    // A multipart storage refused is that upload's answer: not asked for again while the workspace's row is held.
    for (const [i, o] of outcomes.entries()) if (o instanceof AppError) plans[plans.indexOf(live[i]!)] = o;
    live = live.filter((plan) => made.has(plan));
    const rows = await insertUploadsWhenRoom(
      db,
      live.map((plan) => made.get(plan)!),
      env.MAX_OPEN_UPLOADS,
    ).catch((error: unknown) => {
      cancel(made.values());
      throw error;
    });
    if (rows) return plans.map((plan) => (plan instanceof AppError ? plan : rows[live.indexOf(plan)]!));
  }
  // What completing each will meet, as the start read it: its workspace's usage, a file under its name (a clash kept both).
  const seen = new Map<StartPlan, Usage & { clash_id: string | null }>();
  const started = inTransaction(db, async (tx) => {
    if (workspaceId && live.length) {
      await lockWorkspaceRoom(tx, workspaceId);
      const { usage, openUploads, recentStarts, linkReserved, clashIds } = await findFolderSlots(
        tx,
        workspaceId,
        { ...owner, ip: address },
        live.map((p) => ({ parentId: p.parentId, name: p.name })),
      );
      // A file request with a cap takes what its files so far and its open uploads leave (ADR 0035).
      const linkRoom = visitor && actor.maxBytes !== null ? actor.maxBytes - (await actor.uploadedBytes(tx)) - linkReserved : Infinity;
      let adding = 0;
      let opening = 0;
      for (const [i, plan] of live.entries()) {
        try {
          requireOpenSlot(openUploads + opening, visitor ? LIMITS.linkOpenUploads : env.MAX_OPEN_UPLOADS);
          if (visitor) requireStartsLeft(recentStarts + opening);
          if (!plan.input.versionOf && clashIds[i])
            plan.itemId = await resolveConflict(tx, actor, plan.input.onConflict, plan.parentId, plan.name, clashIds[i]!);
          requireLinkRoom(linkRoom, adding + plan.input.size);
          requireQuota(usage, adding + plan.input.size, usage.reserved_bytes);
          seen.set(plan, { quota_bytes: usage.quota_bytes, used_bytes: usage.used_bytes, clash_id: plan.input.versionOf ? null : (clashIds[i] ?? null) });
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
      // Made for the one statement, it takes the file this start now replaces (if any).
      const upload = made.get(plan);
      return upload ? { ...upload, item_id: plan.itemId } : make(plan);
    });
    return {
      opened,
      rows: await insertUploads(
        tx,
        opened.filter((o): o is NewUpload => !(o instanceof AppError)),
      ),
    };
  });
  const { opened, rows } = await started.catch((error: unknown) => {
    cancel(made.values());
    throw error;
  });
  cancel([...made].flatMap(([plan, upload]) => (seen.has(plan) ? [] : [upload])));
  let r = 0;
  // Every upload opened was a live plan, through the checks that read what its completion will meet.
  return opened.map((o, i) => (o instanceof AppError ? o : { ...rows[r++]!, ...seen.get(plans[i] as StartPlan)! }));
}

/** The access the caller gave with a start, when it is the access of the upload's folder (a new file) or file (a new version). */
const knownTarget = (input: StartInput) => (input.known?.item.id === (input.versionOf ?? input.parentId) ? input.known : undefined);

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
