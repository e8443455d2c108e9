import { Worker, type Transferable } from 'node:worker_threads';
import { AppError } from '../../errors.ts';

export interface WorkerPoolOptions {
  /** Workers at most, each running one task at a time. */
  threads: number;
  /** Tasks that may wait for a worker; past that the pool answers `busy` at once. */
  queue: number;
  /**
   * Heap a worker may use, and how much the process's resident memory may grow while its task runs;
   * past either the worker is ended and its task fails with `memory`.
   */
  memoryMb: number;
  /** Time a task may take (from when its module is loaded); past it the worker is ended and its task fails with `timeout`. */
  timeoutMs: number;
  /**
   * The environment the workers see; by default a copy of the server's. Parsers of what users
   * upload get none: nothing of the server's secrets is within their reach.
   */
  env?: Record<string, string>;
}

/** How often a running task's memory outside the heap is looked at. */
const RSS_CHECK_MS = 250;

/**
 * The process's resident memory less what the main thread's own heap and buffers hold (its requests' bodies, the
 * embedded database's memory): what the workers and native libraries hold. A task is not ended for what the server
 * took meanwhile on the main thread.
 */
function outsideMainThread(): number {
  const m = process.memoryUsage();
  return m.rss - m.heapTotal - m.external;
}

/** Why a task did not finish: the pool was full, or its worker was ended (too slow, out of memory, crashed). */
export class WorkerFailure extends Error {
  constructor(readonly reason: 'busy' | 'timeout' | 'memory' | 'crashed') {
    super(`worker task failed: ${reason}`);
  }
}

/** An error the task itself threw, as it crossed from the worker: its name, message and, for an AppError, code and details. */
export class TaskError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
    readonly code?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * A task's failure as the error catalogue says it: an AppError the task threw, as it was; a full
 * pool `rate_limited`; a task its worker was ended for `invalid_input`, saying `tooMuch` and why
 * (e.g. "This file is too complex to import"). Anything else stays an internal error.
 */
export function taskFailure(error: unknown, tooMuch: string, timeoutMs: number): unknown {
  if (error instanceof TaskError && error.code) return new AppError(error.code as AppError['code'], error.message, error.details);
  if (!(error instanceof WorkerFailure) || error.reason === 'crashed') return error;
  if (error.reason === 'busy') return new AppError('rate_limited', 'The server is busy reading other files. Try again in a moment.', { retryAfter: 5 });
  const why = error.reason === 'timeout' ? `it took longer than ${timeoutMs / 1000} seconds` : 'it needs more memory than the server gives one file';
  return tooComplex(tooMuch, why);
}

/** `invalid_input` for a file or document beyond what the server reads: `tooMuch: why.` */
export function tooComplex(tooMuch: string, why: string): AppError {
  const message = `${tooMuch}: ${why}.`;
  return new AppError('invalid_input', message, { fields: [{ path: 'body', message }] });
}

interface Task {
  module: string;
  fn: string;
  input: unknown;
  /** Moved to the worker rather than copied (a MessagePort the task talks back through). */
  transfer: readonly Transferable[];
  resolve(output: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task?: Task;
  timer?: NodeJS.Timeout;
  /** Looks at the process's memory while the task runs (see spawn). */
  watch?: NodeJS.Timeout;
  /** Why the worker ended, when the pool or its limits ended it. */
  failure?: WorkerFailure;
}

const WORKER_FILE = new URL('./worker.mjs', import.meta.url);

/**
 * Worker threads for work on what users send (reading an imported file, and any parser that
 * follows): off the main thread so requests and sockets keep being served, each worker with a
 * memory limit and each task with a time limit. A worker that runs out of memory, overruns or
 * crashes is ended and replaced; only its task fails. Workers start on demand and stay for the
 * next task; idle, they do not keep the process alive.
 */
export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Task[] = [];
  private closed = false;

  constructor(readonly options: WorkerPoolOptions) {}

  /**
   * Runs `fn(input)` exported by `module` (a file URL) in a worker; the input and output are copied
   * across, but for what `transfer` lists, which is moved (a MessagePort inside the input).
   */
  run<T>(module: URL, fn: string, input: unknown, transfer: readonly Transferable[] = []): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.closed) return reject(new WorkerFailure('crashed'));
      const task: Task = { module: module.href, fn, input, transfer, resolve: resolve as (o: unknown) => void, reject };
      const idle = [...this.slots].find((s) => s.ready && !s.task);
      if (idle) return this.start(idle, task);
      if (this.slots.size < this.options.threads) return this.spawn(task);
      if (this.waiting.length >= this.options.queue) return reject(new WorkerFailure('busy'));
      this.waiting.push(task);
    });
  }

  /**
   * Starts a worker before any task and has it load `modules`, so the first task after a start does
   * not wait for a thread and its code (seconds on a busy machine). Idle, it does not keep the
   * process alive. Nothing when a worker is already there.
   */
  warm(modules: readonly URL[]): void {
    if (this.closed || this.slots.size > 0) return;
    this.spawn(
      undefined,
      modules.map((m) => m.href),
    );
  }

  /** Ends every worker; tasks still running or waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.reject(new WorkerFailure('crashed'));
    await Promise.all([...this.slots].map((s) => s.worker.terminate()));
  }

  private spawn(task: Task | undefined, preload: readonly string[] = []): void {
    const { memoryMb } = this.options;
    const worker = new Worker(WORKER_FILE, {
      ...(this.options.env ? { env: this.options.env } : {}),
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(64, memoryMb / 8)) },
      stdout: false,
      stderr: false,
    });
    // The task is the worker's from the start; its time runs once the worker has loaded its module.
    const slot: Slot = { worker, ready: false, task };
    this.slots.add(slot);
    worker.on(
      'message',
      (message: {
        ready?: true;
        started?: true;
        output?: unknown;
        error?: { name: string; message: string; code?: string; details?: Record<string, unknown> };
      }) => {
        if (message.ready) {
          slot.ready = true;
          if (preload.length) worker.postMessage({ preload });
          if (slot.task) this.post(slot);
          else this.next(slot);
          return;
        }
        if (message.started) {
          slot.timer = setTimeout(() => {
            slot.failure = new WorkerFailure('timeout');
            void worker.terminate();
          }, this.options.timeoutMs);
          // The heap limit does not count buffers, WebAssembly or native libraries' memory (a small
          // PDF can decode to gigabytes of them): the process's resident memory beyond the main
          // thread's own may not grow by more than the worker's allowance while its task runs, or
          // the worker is ended.
          // Over the allowance at two checks in a row: the resident size lags the heap's and buffers' own accounts (a
          // buffer the main thread frees is uncounted before its pages go back), so one reading alone ended a task
          // for the main thread's memory once in a busy test run.
          const base = outsideMainThread();
          let over = 0;
          slot.watch = setInterval(() => {
            if (outsideMainThread() - base <= memoryMb * 1024 * 1024) return void (over = 0);
            if (++over < 2) return;
            slot.failure = new WorkerFailure('memory');
            clearInterval(slot.watch);
            void worker.terminate();
          }, RSS_CHECK_MS);
          slot.watch.unref();
          return;
        }
        const done = slot.task;
        clearTimeout(slot.timer);
        clearInterval(slot.watch);
        slot.task = undefined;
        if (message.error) done?.reject(new TaskError(message.error.name, message.error.message, message.error.code, message.error.details));
        else done?.resolve(message.output);
        this.next(slot);
      },
    );
    worker.on('error', (error: Error & { code?: string }) => {
      slot.failure ??= new WorkerFailure(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed');
    });
    worker.on('exit', () => {
      clearTimeout(slot.timer);
      clearInterval(slot.watch);
      this.slots.delete(slot);
      slot.task?.reject(slot.failure ?? new WorkerFailure('crashed'));
      slot.task = undefined;
      // A place is free: the next waiting task gets a new worker.
      const waiting = !this.closed && this.waiting.shift();
      if (waiting) this.spawn(waiting);
    });
  }

  private post(slot: Slot): void {
    const task = slot.task!;
    slot.worker.ref();
    try {
      slot.worker.postMessage({ module: task.module, fn: task.fn, input: task.input }, task.transfer);
    } catch (error) {
      // An input that cannot be copied to a thread: that task fails, the worker takes the next.
      slot.task = undefined;
      task.reject(error as Error);
      this.next(slot);
    }
  }

  private start(slot: Slot, task: Task): void {
    slot.task = task;
    this.post(slot);
  }

  /** The worker is free: the next waiting task, or rest without holding the process open. */
  private next(slot: Slot): void {
    const task = this.waiting.shift();
    if (task) this.start(slot, task);
    else slot.worker.unref();
  }
}
