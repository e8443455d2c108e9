import type { TItem, TOnConflict, TSignedPart } from '@cabinet/contracts';
import { ApiError } from '../../../lib/api-client.ts';
import type { Change } from '../../../lib/changes.ts';
import { PartRejected } from './put-part.ts';

/**
 * The upload queue's decisions, apart from its calls: the states a task goes through and what moves
 * it, which tasks run next, what a failure means, and the totals the panel shows. The upload manager
 * does the I/O and asks this module what follows from it.
 */

export type UploadTaskState =
  'queued' | 'checking' | 'uploading' | 'verifying' | 'paused' | 'conflict' | 'needs-file' | 'done' | 'failed' | 'cancelled' | 'skipped';

export interface UploadTask {
  key: string;
  workspaceId: string;
  /** The folder the person uploaded into. */
  targetId: string;
  /** Folders to recreate below the target (a dropped or picked folder). */
  folderPath: string[];
  name: string;
  size: number;
  file: File | undefined;
  uploadId: string | undefined;
  state: UploadTaskState;
  loaded: number;
  error: string | undefined;
  /** Set while the task waits for a keep both / replace / skip answer. */
  suggestedName: string | undefined;
  onConflict: TOnConflict;
  itemId: string | undefined;
  /** Set when the upload is a new version of this file. */
  versionOf: string | undefined;
  /** The file's SHA-256, once hashed before starting (a large file: the workspace may hold it already). */
  sha256: string | undefined;
  /** Bytes hashed so far while checking. */
  checked: number;
  /** Finished without sending its bytes: the workspace already held them (ADR 0042). */
  reused: boolean;
}

export interface UploadTotals {
  active: number;
  loaded: number;
  size: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  secondsLeft: number | undefined;
}

/** Files (or batches of small files) uploading at once. */
export const FILES_AT_ONCE = 3;
/** Parts of one file in flight at once. */
export const PARTS_IN_FLIGHT = 4;
/** Files up to this size (one part) start and complete together, up to BATCH at a time, in one call each. */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;
/**
 * Files larger than this are hashed before they start (in a worker, streaming), so that bytes the
 * workspace already holds are not sent again (ADR 0042). Smaller ones go in batches at once: a
 * check would cost about what sending them does.
 */
export const CHECK_BEFORE_SENDING_BYTES = SMALL_FILE_BYTES;
const BATCH = 8;
/** Parts signed by one call. */
const SIGN_AHEAD = 8;
/** A signed URL with less than this left is signed again before use. */
const SIGNATURE_MARGIN_MS = 60_000;
/** The window the speed is measured over. */
const SPEED_WINDOW_MS = 5000;

/** Sending: the upload is taking the person's bandwidth (pause applies). */
export const isActive = (state: UploadTaskState) => state === 'queued' || state === 'checking' || state === 'uploading' || state === 'verifying';
/** Over for good: nothing more can happen to it (the panel's Close clears it). */
export const isEnded = (state: UploadTaskState) => state === 'done' || state === 'cancelled' || state === 'skipped';

/** A new task; only what differs between the kinds of upload is given. */
export function newTask(
  key: string,
  task: Pick<UploadTask, 'workspaceId' | 'targetId' | 'name' | 'size' | 'file' | 'state'> & Partial<Omit<UploadTask, 'key'>>,
): UploadTask {
  return {
    key,
    folderPath: [],
    uploadId: undefined,
    loaded: 0,
    error: undefined,
    suggestedName: undefined,
    onConflict: 'fail',
    itemId: undefined,
    versionOf: undefined,
    sha256: undefined,
    checked: 0,
    reused: false,
    ...task,
  };
}

/**
 * Whether a task is hashed before it starts, to ask whether the workspace holds its bytes: a large
 * file not yet started (a resumed upload already sends its bytes), through routes that offer it.
 */
export const checksFirst = (task: UploadTask, dedup: boolean) => dedup && !task.uploadId && !!task.file && task.size > CHECK_BEFORE_SENDING_BYTES;

export type ConflictAnswer = TOnConflict | 'skip';

/** What happens to a task: the manager's steps (start, verify, finish, fail) and the person's (the rest). */
export type TaskEvent =
  | { type: 'check' }
  | { type: 'checking'; bytes: number }
  | { type: 'checked'; sha256: string }
  | { type: 'start' }
  | { type: 'verify' }
  | { type: 'finish'; itemId: string | undefined; reused?: boolean }
  | { type: 'fail'; error: unknown; conflictAnswer: ConflictAnswer | undefined }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'cancel' }
  | { type: 'answer'; answer: ConflictAnswer }
  | { type: 'file'; file: File };

/**
 * The change an event makes to a task, or undefined when it does not apply in the task's state
 * (then nothing happens). A finish or a failure is the server's word and applies whatever the state.
 */
export function transition(task: UploadTask, event: TaskEvent): Partial<UploadTask> | undefined {
  const { state } = task;
  switch (event.type) {
    case 'check':
      // Hashed once: a task paused while checking and resumed starts where the hash left it.
      return state === 'queued' && !task.sha256 ? { state: 'checking', checked: 0, error: undefined } : undefined;
    case 'checking':
      return state === 'checking' ? { checked: Math.min(task.size, event.bytes) } : undefined;
    case 'checked':
      return state === 'checking' ? { state: 'queued', sha256: event.sha256, checked: task.size } : undefined;
    case 'start':
      // A task paused or cancelled before its turn came does not start.
      return state === 'queued' || state === 'uploading' ? { state: 'uploading', error: undefined } : undefined;
    case 'verify':
      return state === 'uploading' ? { state: 'verifying' } : undefined;
    case 'finish':
      return { state: 'done', itemId: event.itemId, loaded: task.size, reused: !!event.reused };
    case 'fail':
      return failure(event.error, event.conflictAnswer);
    case 'pause':
      return isActive(state) ? { state: 'paused' } : undefined;
    case 'resume':
      // Retrying a failure is resuming it; a task that lost its file (a reload) waits for it again.
      return state === 'paused' || state === 'failed' ? { state: task.file ? 'queued' : 'needs-file', error: undefined } : undefined;
    case 'cancel':
      return isEnded(state) ? undefined : { state: 'cancelled' };
    case 'answer':
      return state === 'conflict' ? answered(event.answer) : undefined;
    case 'file':
      return state === 'needs-file' ? { file: event.file, state: 'queued', error: undefined } : undefined;
  }
}

/** A conflict answered: skipped, or queued again to start with that answer. */
function answered(answer: ConflictAnswer): Partial<UploadTask> {
  return answer === 'skip' ? { state: 'skipped', suggestedName: undefined } : { state: 'queued', onConflict: answer, suggestedName: undefined };
}

/**
 * A name conflict waits for an answer (or takes the one the person gave for all); anything else
 * fails the task with a message for people. Changed or expired bytes start afresh when retried.
 */
function failure(error: unknown, conflictAnswer: ConflictAnswer | undefined): Partial<UploadTask> {
  const code = error instanceof ApiError ? error.code : undefined;
  if (code === 'name_conflict') {
    if (conflictAnswer) return answered(conflictAnswer);
    return { state: 'conflict', suggestedName: String((error as ApiError).details?.suggestedName ?? '') };
  }
  if (code === 'checksum_mismatch')
    return { state: 'failed', uploadId: undefined, sha256: undefined, error: 'The file changed while it was uploading, so it was not saved. Upload it again.' };
  if (code === 'upload_expired') return { state: 'failed', uploadId: undefined, sha256: undefined, error: 'This upload expired. Upload the file again.' };
  return { state: 'failed', error: error instanceof Error ? error.message : String(error) };
}

/** The tasks an answer applies to: the one asked about, or, for all, every task waiting for an answer. */
export function conflictTargets(tasks: readonly UploadTask[], key: string, forAll: boolean): UploadTask[] {
  return tasks.filter((t) => (forAll ? t.state === 'conflict' : t.key === key));
}

/** How a task that something waits for (an attachment) ended: its file, or why there is none; undefined while it goes on. */
export function settlement(task: UploadTask): { itemId: string } | { error: string } | undefined {
  if (task.state === 'done' && task.itemId) return { itemId: task.itemId };
  if (task.state === 'failed') return { error: task.error ?? 'The upload failed.' };
  if (task.state === 'cancelled' || task.state === 'skipped') return { error: 'The upload was cancelled.' };
  return undefined;
}

/** Small new files go in batches (when the uploader's routes take them); a batch takes one of the FILES_AT_ONCE places, like one big file. */
export const isBatchable = (t: UploadTask, batches: boolean) => batches && !t.uploadId && !t.versionOf && t.size <= SMALL_FILE_BYTES;

/**
 * What runs next: the first queued task not running, with — when it is a small new file — the
 * queued small files of its workspace after it, up to a batch. Undefined when nothing waits.
 */
export function nextRun(
  tasks: readonly UploadTask[],
  running: (key: string) => boolean,
  batches: boolean,
): { tasks: UploadTask[]; batch: boolean } | undefined {
  const waiting = (t: UploadTask) => t.state === 'queued' && !running(t.key);
  const next = tasks.find(waiting);
  if (!next) return undefined;
  if (!isBatchable(next, batches)) return { tasks: [next], batch: false };
  return { tasks: tasks.filter((t) => waiting(t) && isBatchable(t, batches) && t.workspaceId === next.workspaceId).slice(0, BATCH), batch: true };
}

/** Bytes the storage already holds of an upload. */
export const heldBytes = (parts: readonly { size: number }[]) => parts.reduce((sum, p) => sum + p.size, 0);

/** The parts still to send, in order. */
export function missingParts(partCount: number, held: readonly { partNumber: number }[]): number[] {
  const have = new Set(held.map((p) => p.partNumber));
  return Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !have.has(n));
}

/** Where part `n` lies in the file (the last part may be shorter). */
export function partBounds(n: number, partSize: number, fileSize: number): { start: number; end: number } {
  const start = (n - 1) * partSize;
  return { start, end: Math.min(fileSize, start + partSize) };
}

/** A signed URL still good to use now. */
export const isFresh = (part: TSignedPart, now: number) => new Date(part.expiresAt).getTime() - now > SIGNATURE_MARGIN_MS;

/** The parts to sign with part `n`: it and the next ones queued, a call's worth. */
export const signBatch = (n: number, queued: readonly number[]) => [n, ...queued.slice(0, SIGN_AHEAD - 1)];

/** Worth trying again: the network or the server is away for a moment. */
export const isTransient = (error: unknown) =>
  error instanceof ApiError && (error.status === 0 || error.status === 503 || error.status === 429 || error.status >= 500);

/** How long to wait before attempt `attempt + 1`: doubling from a second, at most 30 s. */
export const retryDelayMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));

/**
 * What a part that did not go up calls for: its URL signed again (expired or refused), the upload
 * ended (the storage no longer knows it), or the same part again after a wait (network, storage away).
 */
export function partFailure(error: unknown): 'sign-again' | 'expired' | 'retry' {
  if (error instanceof PartRejected && (error.status === 403 || error.status === 400)) return 'sign-again';
  if (error instanceof PartRejected && (error.status === 404 || error.status === 410)) return 'expired';
  return 'retry';
}

/** A task's bytes sent: the parts done and those in flight, never more than the file. */
export function loadedOf(task: UploadTask, doneBytes: number, inFlight: Iterable<number>): number {
  let sending = 0;
  for (const loaded of inFlight) sending += loaded;
  return Math.min(task.size, doneBytes + sending);
}

/** A measure of the bytes sent by all tasks at a moment; the speed is read from these. */
export interface Sample {
  at: number;
  loaded: number;
}

/** The samples recent enough to measure the speed over. */
export const recentSamples = (samples: readonly Sample[], now: number) => samples.filter((s) => now - s.at < SPEED_WINDOW_MS);

/**
 * The panel's figures: files sending, bytes sent of all not cancelled or skipped, the speed over
 * the last few seconds (once half a second is measured) and the time left at that speed.
 */
export function totalsOf(tasks: readonly UploadTask[], samples: readonly Sample[], now: number): UploadTotals {
  const counted = tasks.filter((t) => t.state !== 'cancelled' && t.state !== 'skipped');
  const loaded = counted.reduce((sum, t) => sum + t.loaded, 0);
  const size = counted.reduce((sum, t) => sum + t.size, 0);
  const first = recentSamples(samples, now)[0];
  const speed = first && now - first.at > 500 ? Math.max(0, ((loaded - first.loaded) * 1000) / (now - first.at)) : 0;
  return {
    active: tasks.filter((t) => isActive(t.state)).length,
    loaded,
    size,
    speed,
    secondsLeft: speed > 0 ? Math.ceil((size - loaded) / speed) : undefined,
  };
}

/** What starting a new upload asks, once its folders exist (`parentId`, the deepest). */
export function startRequestOf(task: UploadTask, parentId: string) {
  return {
    parentId,
    name: task.name,
    size: task.size,
    ...(task.file?.type ? { mimeType: task.file.type } : {}),
    ...(task.sha256 ? { sha256: task.sha256 } : {}),
    onConflict: task.onConflict,
  };
}

/** The bytes a dedup challenge asks for, in its order: ranges of the file (ends inclusive). */
export const challengeSlices = (challenge: { ranges: readonly { start: number; end: number }[] }) =>
  challenge.ranges.map((r) => ({ start: r.start, end: r.end + 1 }));

/** The change a finished upload makes for the page's caches: a new file, or a new version of one (a replacement too). */
export function finishedChange(task: UploadTask, item: TItem): Change {
  return { type: task.versionOf || task.onConflict === 'replace' ? 'item.updated' : 'item.created', itemId: item.id, parentIds: [item.parentId], item };
}
