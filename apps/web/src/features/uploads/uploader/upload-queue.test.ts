import type { TItem } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { PartRejected } from './put-part.ts';
import {
  challengeSlices,
  CHECK_BEFORE_SENDING_BYTES,
  checksFirst,
  conflictTargets,
  finishedChange,
  heldBytes,
  isActive,
  isBatchable,
  isEnded,
  isFresh,
  isTransient,
  loadedOf,
  missingParts,
  newTask,
  nextRun,
  partBounds,
  partFailure,
  recentSamples,
  retryDelayMs,
  settlement,
  signBatch,
  startRequestOf,
  totalsOf,
  transition,
  type TaskEvent,
  type UploadTask,
  type UploadTaskState,
} from './upload-queue.ts';

const MiB = 1024 * 1024;
const STATES: UploadTaskState[] = [
  'queued',
  'checking',
  'uploading',
  'verifying',
  'paused',
  'conflict',
  'needs-file',
  'done',
  'failed',
  'cancelled',
  'skipped',
];
/** A file; its bytes do not matter here (a task carries its own size). */
const file = (type = '') => new File(['x'], 'f.bin', { type });

let n = 0;
/** A task in `state`, with a file unless said otherwise. */
function task(state: UploadTaskState = 'queued', o: Partial<UploadTask> = {}): UploadTask {
  const size = o.size ?? 100;
  return newTask(`t${++n}`, { workspaceId: 'ws', targetId: 'folder', name: `file-${n}.txt`, size, file: file(), state, ...o });
}

/** The states in which `event` moves a task on. */
const appliesIn = (event: TaskEvent, o: Partial<UploadTask> = {}) => STATES.filter((state) => transition(task(state, o), event) !== undefined);

describe('a task’s states', () => {
  it('starts a new task queued, with nothing sent and no upload yet', () => {
    const t = newTask('k', { workspaceId: 'ws', targetId: 'f', name: 'a.txt', size: 5, file: undefined, state: 'queued' });
    expect(t).toEqual({
      key: 'k',
      workspaceId: 'ws',
      targetId: 'f',
      folderPath: [],
      name: 'a.txt',
      size: 5,
      file: undefined,
      uploadId: undefined,
      state: 'queued',
      loaded: 0,
      error: undefined,
      suggestedName: undefined,
      onConflict: 'fail',
      itemId: undefined,
      versionOf: undefined,
      sha256: undefined,
      checked: 0,
      reused: false,
    });
  });

  it('tells sending from over', () => {
    expect(STATES.filter(isActive)).toEqual(['queued', 'checking', 'uploading', 'verifying']);
    expect(STATES.filter(isEnded)).toEqual(['done', 'cancelled', 'skipped']);
  });

  it('pauses only what is sending', () => {
    expect(appliesIn({ type: 'pause' })).toEqual(['queued', 'checking', 'uploading', 'verifying']);
    expect(transition(task('uploading'), { type: 'pause' })).toEqual({ state: 'paused' });
  });

  it('resumes a paused or failed task: queued again with its file, waiting for it without', () => {
    expect(appliesIn({ type: 'resume' })).toEqual(['paused', 'failed']);
    expect(transition(task('failed', { error: 'Boom' }), { type: 'resume' })).toEqual({ state: 'queued', error: undefined });
    expect(transition(task('paused', { file: undefined }), { type: 'resume' })).toEqual({ state: 'needs-file', error: undefined });
  });

  it('cancels anything not over', () => {
    expect(appliesIn({ type: 'cancel' })).toEqual(['queued', 'checking', 'uploading', 'verifying', 'paused', 'conflict', 'needs-file', 'failed']);
    expect(transition(task('conflict'), { type: 'cancel' })).toEqual({ state: 'cancelled' });
  });

  it('starts a queued task (and an entry of a batch carrying on alone), never one paused or cancelled meanwhile', () => {
    expect(appliesIn({ type: 'start' })).toEqual(['queued', 'uploading']);
    expect(transition(task('queued', { error: 'Old' }), { type: 'start' })).toEqual({ state: 'uploading', error: undefined });
  });

  it('checks the bytes once every part is sent', () => {
    expect(appliesIn({ type: 'verify' })).toEqual(['uploading']);
    expect(transition(task('uploading'), { type: 'verify' })).toEqual({ state: 'verifying' });
  });

  it('is done when the server says so, whatever happened meanwhile, with every byte counted', () => {
    expect(appliesIn({ type: 'finish', itemId: 'i' })).toEqual(STATES);
    expect(transition(task('verifying', { size: 42, loaded: 10 }), { type: 'finish', itemId: 'item-1' })).toEqual({
      state: 'done',
      itemId: 'item-1',
      loaded: 42,
      reused: false,
    });
    // A link's visitor is told of no file.
    expect(transition(task('verifying'), { type: 'finish', itemId: undefined })).toMatchObject({ state: 'done', itemId: undefined });
  });

  it('takes a file again only when it waits for one', () => {
    const f = file();
    expect(appliesIn({ type: 'file', file: f })).toEqual(['needs-file']);
    expect(transition(task('needs-file', { file: undefined, error: 'x' }), { type: 'file', file: f })).toEqual({ file: f, state: 'queued', error: undefined });
  });

  it('takes an answer only when it waits for one: keep both or replace queue it again, skip ends it', () => {
    expect(appliesIn({ type: 'answer', answer: 'keep_both' })).toEqual(['conflict']);
    const waiting = task('conflict', { suggestedName: 'a (2).txt' });
    expect(transition(waiting, { type: 'answer', answer: 'keep_both' })).toEqual({ state: 'queued', onConflict: 'keep_both', suggestedName: undefined });
    expect(transition(waiting, { type: 'answer', answer: 'replace' })).toEqual({ state: 'queued', onConflict: 'replace', suggestedName: undefined });
    expect(transition(waiting, { type: 'answer', answer: 'skip' })).toEqual({ state: 'skipped', suggestedName: undefined });
  });
});

describe('a failure', () => {
  const fail = (error: unknown, conflictAnswer?: 'keep_both' | 'replace' | 'skip') =>
    transition(task('uploading', { uploadId: 'up-1' }), { type: 'fail', error, conflictAnswer });
  const conflict = new ApiError(409, 'name_conflict', 'Taken', { suggestedName: 'notes (2).txt' });

  it('asks about a name taken, offering the free name', () => {
    expect(fail(conflict)).toEqual({ state: 'conflict', suggestedName: 'notes (2).txt' });
    expect(fail(new ApiError(409, 'name_conflict', 'Taken'))).toEqual({ state: 'conflict', suggestedName: '' });
  });

  it('takes the answer given for every conflict without asking', () => {
    expect(fail(conflict, 'keep_both')).toEqual({ state: 'queued', onConflict: 'keep_both', suggestedName: undefined });
    expect(fail(conflict, 'skip')).toEqual({ state: 'skipped', suggestedName: undefined });
  });

  it('starts changed or expired bytes afresh when retried, saying why in words', () => {
    expect(fail(new ApiError(422, 'checksum_mismatch', 'x'))).toEqual({
      state: 'failed',
      uploadId: undefined,
      error: 'The file changed while it was uploading, so it was not saved. Upload it again.',
    });
    expect(fail(new ApiError(410, 'upload_expired', 'x'))).toEqual({
      state: 'failed',
      uploadId: undefined,
      error: 'This upload expired. Upload the file again.',
    });
  });

  it('keeps the upload of any other failure, with its message', () => {
    expect(fail(new ApiError(507, 'quota_exceeded', 'The workspace is full.'))).toEqual({ state: 'failed', error: 'The workspace is full.' });
    expect(fail(new TypeError('Network down'))).toEqual({ state: 'failed', error: 'Network down' });
    expect(fail('odd')).toEqual({ state: 'failed', error: 'odd' });
  });

  it('is retried alone when the network or the server is away for a moment', () => {
    for (const status of [0, 429, 500, 502, 503]) expect(isTransient(new ApiError(status, 'internal', 'x')), String(status)).toBe(true);
    for (const status of [400, 404, 409, 410, 413, 422]) expect(isTransient(new ApiError(status, 'internal', 'x')), String(status)).toBe(false);
    expect(isTransient(new TypeError('x'))).toBe(false);
  });

  it('waits longer each time, doubling from a second up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});

describe('what runs next', () => {
  const none = () => false;

  it('takes the first queued task that is not running, big files one at a time', () => {
    const big = task('queued', { size: 50 * MiB });
    const tasks = [task('paused'), task('done'), big, task('queued', { size: 60 * MiB })];
    expect(nextRun(tasks, none, true)).toEqual({ tasks: [big], batch: false });
    expect(nextRun(tasks, (k) => k === big.key, true)!.tasks).toEqual([tasks[3]]);
    expect(nextRun([task('paused'), task('conflict')], none, true)).toBeUndefined();
  });

  it('sends small new files of one workspace together, eight at most', () => {
    const small = Array.from({ length: 10 }, () => task('queued', { size: 1000 }));
    const elsewhere = task('queued', { size: 10, workspaceId: 'other' });
    const run = nextRun([elsewhere, ...small], none, true)!;
    expect(run).toEqual({ tasks: [elsewhere], batch: true });
    const next = nextRun([...small, elsewhere], none, true)!;
    expect(next.batch).toBe(true);
    expect(next.tasks).toEqual(small.slice(0, 8));
    expect(nextRun(small, (k) => small.slice(0, 8).some((t) => t.key === k), true)!.tasks).toEqual(small.slice(8));
  });

  it('sends one at a time what cannot go in a batch: a resumed upload, a new version, a file past 4 MiB, or no batch routes', () => {
    expect(isBatchable(task('queued', { size: 4 * MiB }), true)).toBe(true);
    expect(isBatchable(task('queued', { size: 4 * MiB + 1 }), true)).toBe(false);
    expect(isBatchable(task('queued', { uploadId: 'u' }), true)).toBe(false);
    expect(isBatchable(task('queued', { versionOf: 'f' }), true)).toBe(false);
    expect(isBatchable(task('queued'), false)).toBe(false);
    const resumed = task('queued', { uploadId: 'u' });
    expect(nextRun([resumed, task('queued')], () => false, true)).toEqual({ tasks: [resumed], batch: false });
  });
});

describe('answers and endings', () => {
  it('answers the one conflict asked about, or every conflict', () => {
    const a = task('conflict');
    const b = task('conflict');
    const c = task('uploading');
    expect(conflictTargets([a, b, c], b.key, false)).toEqual([b]);
    expect(conflictTargets([a, b, c], b.key, true)).toEqual([a, b]);
    expect(conflictTargets([a, b, c], 'gone', false)).toEqual([]);
  });

  it('settles what waits for a task (a picture in a document) once it ends', () => {
    expect(settlement(task('done', { itemId: 'img' }))).toEqual({ itemId: 'img' });
    expect(settlement(task('failed', { error: 'Too big' }))).toEqual({ error: 'Too big' });
    expect(settlement(task('failed'))).toEqual({ error: 'The upload failed.' });
    expect(settlement(task('cancelled'))).toEqual({ error: 'The upload was cancelled.' });
    expect(settlement(task('skipped'))).toEqual({ error: 'The upload was cancelled.' });
    for (const state of ['queued', 'uploading', 'verifying', 'paused', 'conflict', 'needs-file'] as const) expect(settlement(task(state))).toBeUndefined();
  });

  it('tells the caches of a new file, and of a new version when it replaced one', () => {
    const item = { id: 'i1', parentId: 'folder' } as TItem;
    expect(finishedChange(task('done'), item)).toEqual({ type: 'item.created', itemId: 'i1', parentIds: ['folder'], item });
    expect(finishedChange(task('done', { onConflict: 'replace' }), item).type).toBe('item.updated');
    expect(finishedChange(task('done', { versionOf: 'i1' }), item).type).toBe('item.updated');
  });

  it('asks to start an upload with the file’s type when it has one', () => {
    expect(startRequestOf(task('queued', { name: 'a.txt', size: 3, file: file('text/plain') }), 'p')).toEqual({
      parentId: 'p',
      name: 'a.txt',
      size: 3,
      mimeType: 'text/plain',
      onConflict: 'fail',
    });
    expect(startRequestOf(task('queued', { onConflict: 'keep_both' }), 'p')).not.toHaveProperty('mimeType');
  });
});

describe('parts', () => {
  it('sends only the parts the storage does not hold, counting those it does', () => {
    const held = [
      { partNumber: 2, size: 5 },
      { partNumber: 4, size: 3 },
    ];
    expect(missingParts(5, held)).toEqual([1, 3, 5]);
    expect(missingParts(1, [])).toEqual([1]);
    expect(missingParts(2, [...held, { partNumber: 1, size: 5 }])).toEqual([]);
    expect(heldBytes(held)).toBe(8);
    expect(heldBytes([])).toBe(0);
  });

  it('cuts the file into parts, the last one shorter', () => {
    expect(partBounds(1, 10, 25)).toEqual({ start: 0, end: 10 });
    expect(partBounds(3, 10, 25)).toEqual({ start: 20, end: 25 });
  });

  it('signs a part with the next ones queued, and again when its URL has less than a minute left', () => {
    expect(signBatch(3, [4, 5, 6, 7, 8, 9, 10, 11, 12])).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(signBatch(9, [])).toEqual([9]);
    const now = Date.parse('2026-05-01T12:00:00Z');
    const part = (expiresAt: string) => ({ partNumber: 1, method: 'PUT' as const, url: 'u', expiresAt });
    expect(isFresh(part('2026-05-01T12:01:01Z'), now)).toBe(true);
    expect(isFresh(part('2026-05-01T12:01:00Z'), now)).toBe(false);
  });

  it('signs a refused part again, ends an upload the storage no longer knows, and waits on anything else', () => {
    expect(partFailure(new PartRejected(403))).toBe('sign-again');
    expect(partFailure(new PartRejected(400))).toBe('sign-again');
    expect(partFailure(new PartRejected(404))).toBe('expired');
    expect(partFailure(new PartRejected(410))).toBe('expired');
    expect(partFailure(new PartRejected(500))).toBe('retry');
    expect(partFailure(new TypeError('The network dropped'))).toBe('retry');
  });
});

describe('progress', () => {
  it('counts parts done and in flight, never past the file', () => {
    const t = task('uploading', { size: 100 });
    expect(loadedOf(t, 40, [10, 5])).toBe(55);
    expect(loadedOf(t, 90, [30])).toBe(100);
    expect(loadedOf(t, 0, [])).toBe(0);
  });

  it('adds up what is not cancelled or skipped, and counts what is sending', () => {
    const tasks = [
      task('uploading', { size: 100, loaded: 40 }),
      task('queued', { size: 50 }),
      task('done', { size: 30, loaded: 30 }),
      task('paused', { size: 20, loaded: 10 }),
      task('cancelled', { size: 1000, loaded: 500 }),
      task('skipped', { size: 1000 }),
    ];
    expect(totalsOf(tasks, [], 0)).toEqual({ active: 2, loaded: 80, size: 200, speed: 0, secondsLeft: undefined });
  });

  it('measures the speed over the last five seconds, once half a second is measured, and the time left at that speed', () => {
    const tasks = [task('uploading', { size: 10_000, loaded: 3000 })];
    // 2,000 bytes in the two seconds since the oldest recent sample: 1,000 B/s, 7 s left.
    expect(totalsOf(tasks, [{ at: 8000, loaded: 1000 }], 10_000)).toMatchObject({ speed: 1000, secondsLeft: 7 });
    // An older sample is out of the window; too short a measure says nothing yet.
    expect(
      totalsOf(
        tasks,
        [
          { at: 1000, loaded: 0 },
          { at: 9700, loaded: 2900 },
        ],
        10_000,
      ),
    ).toMatchObject({ speed: 0, secondsLeft: undefined });
    expect(
      recentSamples(
        [
          { at: 1000, loaded: 0 },
          { at: 5001, loaded: 1 },
        ],
        10_000,
      ),
    ).toEqual([{ at: 5001, loaded: 1 }]);
    // Bytes going back (a part sent again) is no negative speed.
    expect(totalsOf(tasks, [{ at: 8000, loaded: 5000 }], 10_000).speed).toBe(0);
  });
});

describe('checking for bytes the workspace holds (ADR 0042)', () => {
  it('checks only large new files, through routes that reuse bytes', () => {
    const big = task('queued', { size: CHECK_BEFORE_SENDING_BYTES + 1 });
    expect(checksFirst(big, true)).toBe(true);
    expect(checksFirst(big, false)).toBe(false);
    expect(checksFirst(task('queued', { size: CHECK_BEFORE_SENDING_BYTES }), true)).toBe(false);
    expect(checksFirst(task('queued', { size: CHECK_BEFORE_SENDING_BYTES + 1, uploadId: 'u1' }), true)).toBe(false);
    expect(checksFirst(task('queued', { size: CHECK_BEFORE_SENDING_BYTES + 1, file: undefined }), true)).toBe(false);
  });

  it('hashes once: checking, its progress, then queued with the SHA-256 the start sends', () => {
    const t = task('queued', { size: 10 * MiB });
    const checking = { ...t, ...transition(t, { type: 'check' }) };
    expect(checking.state).toBe('checking');
    expect(isActive('checking')).toBe(true);
    expect(transition(checking, { type: 'checking', bytes: 4 * MiB })).toEqual({ checked: 4 * MiB });
    const checked = { ...checking, ...transition(checking, { type: 'checked', sha256: 'ab'.repeat(32) }) };
    expect(checked).toMatchObject({ state: 'queued', sha256: 'ab'.repeat(32), checked: 10 * MiB });
    expect(transition(checked, { type: 'check' })).toBeUndefined();
    expect(startRequestOf(checked, 'p1')).toMatchObject({ sha256: 'ab'.repeat(32), size: 10 * MiB });
    // Paused while checking: the hash stops; resumed, it is queued to check again.
    expect(transition(checking, { type: 'pause' })).toEqual({ state: 'paused' });
    expect(transition({ ...checking, state: 'paused' }, { type: 'checked', sha256: 'x' })).toBeUndefined();
  });

  it('finishes as reused when nothing was sent, and forgets the hash of bytes that changed', () => {
    const t = task('uploading', { size: 10 * MiB, sha256: 'ab'.repeat(32) });
    expect(transition(t, { type: 'finish', itemId: 'i1', reused: true })).toEqual({ state: 'done', itemId: 'i1', loaded: 10 * MiB, reused: true });
    expect(transition(t, { type: 'fail', error: new ApiError(422, 'checksum_mismatch', 'no'), conflictAnswer: undefined })).toMatchObject({
      state: 'failed',
      sha256: undefined,
    });
  });

  it('reads the ranges a challenge asks for, ends inclusive', () => {
    expect(
      challengeSlices({
        ranges: [
          { start: 0, end: 9 },
          { start: 100, end: 100 },
        ],
      }),
    ).toEqual([
      { start: 0, end: 10 },
      { start: 100, end: 101 },
    ]);
  });
});
