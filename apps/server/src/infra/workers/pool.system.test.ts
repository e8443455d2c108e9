import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../testing/collab-client.ts';
import { AppError } from '../../errors.ts';
import { taskFailure, TaskError, WorkerFailure, WorkerPool } from './pool.ts';

const FIXTURE = new URL('./pool.fixture.mjs', import.meta.url);
let pool: WorkerPool | undefined;
const start = (options: Partial<ConstructorParameters<typeof WorkerPool>[0]> = {}) =>
  (pool = new WorkerPool({ threads: 1, queue: 2, memoryMb: 64, timeoutMs: 5_000, ...options }));
afterEach(() => pool?.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the task to fail'),
    (error: unknown) => error,
  );

// A worker starts in about a second on a busy machine, more than the unit tests' default allows for several.
describe('the worker pool', { timeout: 60_000 }, () => {
  it('runs a module’s function in a worker and answers its result', async () => {
    expect(await start().run(FIXTURE, 'echo', { a: [1, 2], b: new Uint8Array([3]) })).toEqual({ a: [1, 2], b: new Uint8Array([3]) });
  });

  it('warms a worker ahead of the first task: its module is loaded before any task is sent, and the task uses it', async () => {
    const mark = path.join(mkdtempSync(path.join(os.tmpdir(), 'cabinet-warm-')), 'loaded');
    const workers = start({ env: { WARM_MARK: mark } });
    workers.warm([FIXTURE]);
    // Until the mark has its text: the file exists from the moment it is opened, before the text is written.
    const written = () => (existsSync(mark) ? readFileSync(mark, 'utf8') : '');
    await until(() => written() !== '', 'the warmed worker to load its module', 30_000);
    const warmedAt = written();
    // The same worker and the same loading of the module answer the first task.
    expect(await workers.run(FIXTURE, 'whenLoaded', null)).toBe(warmedAt);
  });

  it('refuses an input that cannot be copied to a thread, and goes on', async () => {
    const workers = start();
    expect(await failure(workers.run(FIXTURE, 'echo', { callback: () => 1 }))).toMatchObject({ name: 'DataCloneError' });
    expect(await workers.run(FIXTURE, 'echo', 'next')).toBe('next');
  });

  it('answers an error the task threw with its code, as the error catalogue names it', async () => {
    const error = await failure(start().run(FIXTURE, 'refuse', null));
    expect(error).toBeInstanceOf(TaskError);
    const answer = taskFailure(error, 'too much', 5_000);
    expect(answer).toBeInstanceOf(AppError);
    expect(answer).toMatchObject({ code: 'unsupported_media_type', message: 'Not a file this reads.' });
  });

  // The memory tests give the task time enough to reach its allowance: near a heap's limit V8 collects again and again,
  // and on a busy machine that outlasted the 5 s limit (the task ended as a timeout, not for its memory).
  it('ends a worker out of memory, and the next task gets a new one', async () => {
    const workers = start({ timeoutMs: 45_000 });
    const error = await failure(workers.run(FIXTURE, 'hoard', null));
    expect(error).toMatchObject({ reason: 'memory' });
    expect(taskFailure(error, 'This file is too complex to import', 5_000)).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^This file is too complex to import: it needs more memory/),
    });
    expect(await workers.run(FIXTURE, 'echo', 'after')).toBe('after');
  });

  it('ends a worker whose memory outside the heap grows past its allowance, and gives parsers no environment when told', async () => {
    const workers = start({ env: {}, timeoutMs: 45_000 });
    expect(await failure(workers.run(FIXTURE, 'hoardBuffers', null))).toMatchObject({ reason: 'memory' });
    expect(await workers.run(FIXTURE, 'environment', null)).toEqual({});
  });

  it('does not end a task for memory the main thread takes while it runs (requests’ bodies, the embedded database)', async () => {
    const workers = start({ timeoutMs: 45_000 });
    expect(await workers.run(FIXTURE, 'echo', 'loaded')).toBe('loaded');
    const task = workers.run(FIXTURE, 'pause', 3_000);
    await new Promise((r) => setTimeout(r, 500));
    // Twice the worker's allowance, held by this thread while the task runs: looked at several times meanwhile.
    const held = Buffer.alloc(128 * 1024 * 1024, 1);
    expect(await task).toBe('done');
    expect(held[held.length - 1]).toBe(1);
  });

  it('ends a worker past the time limit, and one that crashes, and goes on', async () => {
    const workers = start({ timeoutMs: 500 });
    expect(await failure(workers.run(FIXTURE, 'spin', null))).toMatchObject({ reason: 'timeout' });
    expect(await workers.run(FIXTURE, 'echo', 'still here')).toBe('still here');
    // A crash is told as a crash however long a busy machine takes to end the crashed thread: its time runs from the
    // task's start, and in CI the thread's exit reached the pool more than 500 ms after it (it was told as a timeout).
    const patient = start({ timeoutMs: 45_000 });
    expect(await failure(patient.run(FIXTURE, 'crash', null))).toMatchObject({ reason: 'crashed' });
    expect(await patient.run(FIXTURE, 'echo', 'still here')).toBe('still here');
  });

  it('refuses a task at once when the queue is full, as rate_limited', async () => {
    const workers = start({ timeoutMs: 1_000 });
    const running = [0, 1, 2].map(() => failure(workers.run(FIXTURE, 'spin', null)));
    const refused = await failure(workers.run(FIXTURE, 'echo', 'one too many'));
    expect(refused).toBeInstanceOf(WorkerFailure);
    expect(taskFailure(refused, 'x', 1_000)).toMatchObject({ code: 'rate_limited', details: { retryAfter: 5 } });
    for (const error of await Promise.all(running)) expect(error).toMatchObject({ reason: 'timeout' });
  });
});
