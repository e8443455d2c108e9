import {
  ERROR_STATUS,
  itemsApi,
  uploadsApi,
  versionsApi,
  type NameConflictDetails,
  type TItem,
  type TSignedPart,
  type TUploadEntryError,
} from '@cabinet/contracts';
import type { Change } from '../../../lib/changes.ts';
import { ApiError, call } from '../../../lib/api-client.ts';
import { emptyFolderMarker } from './collect-files.ts';
import { hashFile, proveHeld } from './hash-file.ts';
import { putPart } from './put-part.ts';
import { appTransport, type StartedUpload, type UploadProgress, type UploadTransport } from './transport.ts';
import { cabinetUnreachable, stopped, waitToRetry } from './wait-to-retry.ts';
import {
  challengeSlices,
  checksFirst,
  conflictTargets,
  FILES_AT_ONCE,
  finishedChange,
  heldBytes,
  isEnded,
  isFresh,
  isTransient,
  loadedOf,
  missingParts,
  newTask,
  nextRun,
  partBounds,
  partFailure,
  PARTS_IN_FLIGHT,
  recentSamples,
  retryDelayMs,
  settlement,
  signBatch,
  startRequestOf,
  totalsOf,
  transition,
  type ConflictAnswer,
  type Sample,
  type TaskEvent,
  type UploadTask,
  type UploadTotals,
} from './upload-queue.ts';

/** A batch entry's error, as its own call would have thrown it. */
const entryError = (e: TUploadEntryError) => new ApiError(ERROR_STATUS[e.code], e.code, e.message, e.details);

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** Calls `fn` until it works, waiting longer each time the network or server is away. */
async function persist<T>(fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw stopped();
    try {
      return await fn();
    } catch (error) {
      if (!isTransient(error)) throw error;
      await waitToRetry(retryDelayMs(attempt), signal, cabinetUnreachable(error));
    }
  }
}

interface Running {
  abort: AbortController;
  /** URLs that came signed with the start of the upload. */
  signedAtStart?: TSignedPart[];
  partLoaded: Map<number, number>;
  doneBytes: number;
}

/** Whether `copy` still shows every field of `task` as it is. */
function sameFields(copy: UploadTask, task: UploadTask): boolean {
  for (const key in task) if (copy[key as keyof UploadTask] !== task[key as keyof UploadTask]) return false;
  return true;
}

/**
 * Uploads files the way PRODUCT.md §7 describes: Cabinet opens an upload and signs parts; the
 * parts go straight to the storage, four at a time, while a worker hashes the file; Cabinet then
 * checks the bytes and the file appears. Paused, dropped or interrupted uploads resume from the
 * parts the storage already holds; after a reload Cabinet lists them and the person picks the
 * file again (its SHA-256 proves it is the same one). What follows from each step — a task's next
 * state, what runs next, the totals — is decided in upload-queue.ts; this class makes the calls.
 */
export class UploadManager {
  private tasks: UploadTask[] = [];
  private snapshot: readonly UploadTask[] = [];
  /** Each task's copy in the last snapshot: kept while the task is unchanged, so that only a changed row draws again. */
  private readonly copies = new WeakMap<UploadTask, UploadTask>();
  private readonly listeners = new Set<() => void>();
  private readonly running = new Map<string, Running>();
  private readonly folders = new Map<string, Promise<string>>();
  private samples: Sample[] = [];
  private sequence = 0;
  private jobs = 0;
  /** A conflict answer the person chose to apply to every conflict. */
  conflictAnswer: ConflictAnswer | undefined;

  /**
   * `onChanged` hears of each item an upload made or changed (a file, a version, a folder of a
   * folder upload); `api` is where the calls go (a file request's visitor uploads through its link).
   */
  constructor(
    private readonly onChanged: (workspaceId: string, change: Change) => void,
    private readonly api: UploadTransport = appTransport,
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private emit() {
    this.snapshot = this.tasks.map((task) => {
      const last = this.copies.get(task);
      if (last && sameFields(last, task)) return last;
      const copy = { ...task };
      this.copies.set(task, copy);
      return copy;
    });
    for (const listener of this.listeners) listener();
  }

  private update(task: UploadTask, change: Partial<UploadTask>) {
    Object.assign(task, change);
    this.emit();
  }

  /** Moves a task on by an event, when it applies in the task's state; a skipped upload's bytes go. Whether it applied. */
  private apply(task: UploadTask, event: TaskEvent): boolean {
    const change = transition(task, event);
    if (!change) return false;
    const uploadId = task.uploadId;
    this.update(task, change);
    if (change.state === 'skipped' && uploadId) void this.api.abort(uploadId).catch(() => {});
    return true;
  }

  private push(task: Parameters<typeof newTask>[1]) {
    const added = newTask(`u${++this.sequence}`, task);
    this.tasks.push(added);
    return added;
  }

  /** Queues files for a folder; `path` are the folders to recreate under it. */
  add(workspaceId: string, targetId: string, files: { file: File; path: string[] }[]) {
    for (const { file, path } of files) {
      if (file === emptyFolderMarker) {
        void this.ensureFolders(workspaceId, targetId, path).catch(() => {});
        continue;
      }
      this.push({ workspaceId, targetId, folderPath: path, name: file.name, size: file.size, file, state: 'queued' });
    }
    this.emit();
    this.pump();
  }

  /** Queues a file as the new version of `item`, whatever the file's own name. */
  addVersion(item: { id: string; workspaceId: string; parentId: string | null; name: string }, file: File) {
    this.push({
      workspaceId: item.workspaceId,
      targetId: item.parentId ?? item.id,
      name: item.name,
      size: file.size,
      file,
      state: 'queued',
      onConflict: 'replace',
      versionOf: item.id,
    });
    this.emit();
    this.pump();
  }

  /**
   * Uploads a file into a document (an image in it): the same resumable upload, shown in the
   * uploads panel; a name already used there gets a free one. Answers the new file's id once it is
   * stored, or fails with the upload's error.
   */
  addAttachment(workspaceId: string, documentId: string, file: File): Promise<string> {
    const task = this.push({ workspaceId, targetId: documentId, name: file.name || 'image', size: file.size, file, state: 'queued', onConflict: 'keep_both' });
    const settled = new Promise<string>((resolve, reject) => {
      const stop = this.subscribe(() => {
        const end = settlement(task);
        if (!end) return;
        if ('itemId' in end) resolve(end.itemId);
        else reject(new Error(end.error));
        stop();
      });
    });
    this.emit();
    this.pump();
    return settled;
  }

  /** Brings back the person's unfinished uploads (after a reload), with the bytes the storage already holds: each waits for its file. */
  async loadUnfinished(workspaceId: string) {
    const { items } = await call(uploadsApi.unfinished, { params: { ws: workspaceId } });
    const unknown = items.filter((upload) => !this.knows(upload.id));
    const statuses = await Promise.all(unknown.map((upload) => call(uploadsApi.get, { params: { id: upload.id } }).catch(() => ({ ...upload, parts: [] }))));
    for (const upload of statuses) {
      if (this.knows(upload.id)) continue;
      this.push({
        workspaceId,
        targetId: upload.parentId,
        name: upload.name,
        size: upload.size,
        file: undefined,
        uploadId: upload.id,
        state: 'needs-file',
        loaded: heldBytes(upload.parts),
        onConflict: upload.onConflict,
        versionOf: upload.itemId ?? undefined,
      });
    }
    this.emit();
  }

  /**
   * Brings back uploads known by their ids (a link's visitor keeps theirs in the browser, having no
   * list on the server), with the bytes the storage already holds: each open one waits for its file.
   */
  async reopen(workspaceId: string, targetId: string, known: { id: string; name: string }[]) {
    const unknown = known.filter((k) => !this.knows(k.id));
    const found = await Promise.all(
      unknown.map((k) =>
        this.api.status(k.id).then(
          (status) => ({ name: k.name, status }),
          () => undefined,
        ),
      ),
    );
    for (const f of found) {
      if (!f || !['created', 'uploading'].includes(f.status.state) || this.knows(f.status.id)) continue;
      this.push({
        workspaceId,
        targetId,
        name: f.name,
        size: f.status.size,
        file: undefined,
        uploadId: f.status.id,
        state: 'needs-file',
        loaded: heldBytes(f.status.parts),
      });
    }
    this.emit();
  }

  /** The file for an upload that lost it in a reload; it must be the same size (and, checked at the end, the same bytes). */
  provideFile(key: string, file: File): string | undefined {
    const task = this.find(key);
    if (!task) return undefined;
    if (file.size !== task.size)
      return `That file has ${file.size.toLocaleString()} bytes; “${task.name}” has ${task.size.toLocaleString()}. Choose the same file.`;
    if (this.apply(task, { type: 'file', file })) this.pump();
    return undefined;
  }

  pause(key: string) {
    const task = this.find(key);
    if (!task || !transition(task, { type: 'pause' })) return;
    this.running.get(key)?.abort.abort();
    this.apply(task, { type: 'pause' });
  }

  resume(key: string) {
    const task = this.find(key);
    if (task && this.apply(task, { type: 'resume' })) this.pump();
  }

  pauseAll() {
    for (const t of this.tasks) this.pause(t.key);
  }

  resumeAll() {
    for (const t of this.tasks) if (t.state === 'paused') this.resume(t.key);
  }

  async cancel(key: string) {
    const task = this.find(key);
    if (!task || !transition(task, { type: 'cancel' })) return;
    this.running.get(key)?.abort.abort();
    this.apply(task, { type: 'cancel' });
    if (task.uploadId) await this.api.abort(task.uploadId).catch(() => {});
    this.pump();
  }

  /** The answer to a name conflict: keep both, replace (a new version) or skip; optionally for every conflict. */
  resolveConflict(key: string, answer: ConflictAnswer, forAll: boolean) {
    if (forAll) this.conflictAnswer = answer;
    for (const task of conflictTargets(this.tasks, key, forAll)) this.apply(task, { type: 'answer', answer });
    this.pump();
  }

  clearFinished() {
    this.tasks = this.tasks.filter((t) => !isEnded(t.state));
    this.samples = [];
    this.emit();
  }

  totals(): UploadTotals {
    const now = performance.now();
    this.samples = recentSamples(this.samples, now);
    return totalsOf(this.tasks, this.samples, now);
  }

  private find(key: string) {
    return this.tasks.find((t) => t.key === key);
  }

  private knows(uploadId: string) {
    return this.tasks.some((t) => t.uploadId === uploadId);
  }

  private pump() {
    while (this.jobs < FILES_AT_ONCE) {
      const next = nextRun(this.tasks, (key) => this.running.has(key), !!this.api.batches);
      if (!next) return;
      const runs = next.tasks.map((task) => {
        const run: Running = { abort: new AbortController(), partLoaded: new Map(), doneBytes: 0 };
        this.running.set(task.key, run);
        return run;
      });
      this.jobs++;
      void (next.batch ? this.runBatch(next.tasks, runs) : this.run(next.tasks[0]!, runs[0]!)).finally(() => {
        for (const task of next.tasks) this.running.delete(task.key);
        this.jobs--;
        this.pump();
      });
    }
  }

  private progress(task: UploadTask, run: Running) {
    task.loaded = loadedOf(task, run.doneBytes, run.partLoaded.values());
    this.samples.push({ at: performance.now(), loaded: this.tasks.reduce((sum, t) => sum + t.loaded, 0) });
    this.emit();
  }

  private async run(task: UploadTask, run: Running) {
    const { signal } = run.abort;
    const file = task.file!;
    try {
      // A large file is hashed first (in a worker, streaming, stopped by pause or cancel): the workspace may hold its bytes already.
      if (checksFirst(task, !!this.api.dedup) && !task.sha256) {
        if (!this.apply(task, { type: 'check' })) return;
        const sha256 = await hashFile(file, signal, (bytes) => this.apply(task, { type: 'checking', bytes }));
        if (!this.apply(task, { type: 'checked', sha256 })) return;
      }
      if (!this.apply(task, { type: 'start' })) return;
      let status: UploadProgress;
      if (!task.uploadId) {
        const mimeType = file.type ? { mimeType: file.type } : {};
        const sha256 = task.sha256 ? { sha256: task.sha256 } : {};
        const upload: StartedUpload = task.versionOf
          ? await persist(() => call(versionsApi.start, { params: { id: task.versionOf! }, body: { size: task.size, ...mimeType, ...sha256 } }), signal)
          : await persist(async () => this.api.start(task.workspaceId, await this.startRequest(task)), signal);
        task.uploadId = upload.id;
        run.signedAtStart = upload.parts;
        if (upload.dedup && task.sha256 && (await this.reuse(task, upload, signal))) return;
        // Just started: the storage holds no part yet.
        status = { ...upload, parts: [] };
      } else {
        status = await persist(() => this.api.status(task.uploadId!), signal);
      }
      const hashing = task.sha256 ? Promise.resolve(task.sha256) : hashFile(file, signal);
      hashing.catch(() => {});
      run.doneBytes = heldBytes(status.parts);
      this.progress(task, run);
      await this.sendParts(task, run, status, missingParts(status.partCount, status.parts));

      this.apply(task, { type: 'verify' });
      const sha256 = await hashing;
      this.finish(task, await persist(() => this.api.complete(task.uploadId!, { sha256, onConflict: task.onConflict }), signal));
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      this.fail(task, error);
    }
  }

  /**
   * Small new files together: one call starts them all, each file's one part goes up, and one
   * call completes them all. Each file still answers for itself (a conflict, a failure).
   */
  private async runBatch(tasks: UploadTask[], runs: Running[]) {
    // The batch's calls stop when every file in it was paused or cancelled.
    const group = new AbortController();
    for (const run of runs) run.abort.signal.addEventListener('abort', () => runs.every((r) => r.abort.signal.aborted) && group.abort(), { once: true });
    const live = () => tasks.map((task, i) => ({ task, run: runs[i]! })).filter(({ run }) => !run.abort.signal.aborted);
    /** An entry the server could not serve just now (storage away…) carries on alone, retried like any single upload. */
    const settle = (task: UploadTask, run: Running, error: ApiError) => (isTransient(error) ? this.run(task, run) : this.fail(task, error));
    try {
      for (const task of tasks) this.apply(task, { type: 'start' });
      const starting = live();
      const requests = await persist(() => Promise.all(starting.map(({ task }) => this.startRequest(task))), group.signal);
      const batches = this.api.batches!;
      const started = await persist(() => batches.start(tasks[0]!.workspaceId, requests), group.signal);
      const sent = await Promise.all(
        starting.map(async ({ task, run }, i) => {
          const result = started[i]!;
          if ('error' in result) {
            await settle(task, run, entryError(result.error));
            return undefined;
          }
          task.uploadId = result.upload.id;
          run.signedAtStart = result.upload.parts;
          try {
            const hashing = hashFile(task.file!, run.abort.signal);
            hashing.catch(() => {});
            await this.sendParts(task, run, { ...result.upload, parts: [] }, missingParts(result.upload.partCount, []));
            this.apply(task, { type: 'verify' });
            return { task, run, sha256: await hashing };
          } catch (error) {
            if (!isAbort(error) && !run.abort.signal.aborted) this.fail(task, error);
            return undefined;
          }
        }),
      );
      const ready = sent.filter((s): s is NonNullable<typeof s> => !!s && !s.run.abort.signal.aborted);
      if (!ready.length) return;
      const done = await persist(
        () => batches.complete(ready.map(({ task, sha256 }) => ({ id: task.uploadId!, sha256, onConflict: task.onConflict }))),
        group.signal,
      );
      await Promise.all(
        ready.map(async ({ task, run }, i) => {
          if (run.abort.signal.aborted) return;
          const result = done[i]!;
          if ('error' in result) await settle(task, run, entryError(result.error));
          else this.finish(task, result);
        }),
      );
    } catch (error) {
      if (isAbort(error)) return;
      for (const { task } of live()) if (task.state === 'uploading' || task.state === 'verifying') this.fail(task, error);
    }
  }

  /**
   * Completes an upload whose bytes the workspace already holds by proving the file at hand has
   * them (ADR 0042): nothing is sent. A refused proof answers false, and the bytes are sent as usual.
   */
  private async reuse(task: UploadTask, upload: StartedUpload, signal: AbortSignal): Promise<boolean> {
    const proof = await proveHeld(task.file!, upload.dedup!, challengeSlices(upload.dedup!));
    signal.throwIfAborted();
    try {
      const done = await persist(() => this.api.complete(upload.id, { sha256: task.sha256!, onConflict: task.onConflict, proof }), signal);
      this.finish(task, done, true);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'checksum_mismatch') return false;
      throw error;
    }
  }

  /** What starting a new upload asks, once its folders exist. */
  private async startRequest(task: UploadTask) {
    return startRequestOf(task, await this.ensureFolders(task.workspaceId, task.targetId, task.folderPath));
  }

  /** A visitor's upload is told of no file: nothing to show it in. */
  private finish(task: UploadTask, { item }: { item?: TItem }, reused = false) {
    this.apply(task, { type: 'finish', itemId: item?.id, reused });
    if (item) this.onChanged(task.workspaceId, finishedChange(task, item));
  }

  private fail(task: UploadTask, error: unknown) {
    this.apply(task, { type: 'fail', error, conflictAnswer: this.conflictAnswer });
  }

  /** PUTs the missing parts, a few at a time, signing URLs a batch ahead; a part that fails is retried. */
  private async sendParts(task: UploadTask, run: Running, upload: UploadProgress, missing: number[]) {
    const { signal } = run.abort;
    const file = task.file!;
    const queue = [...missing];
    const signed = new Map<number, TSignedPart>((run.signedAtStart ?? []).map((p) => [p.partNumber, p]));
    const sign = async (n: number) => {
      const known = signed.get(n);
      if (known && isFresh(known, Date.now())) return known;
      const parts = await persist(() => this.api.signParts(task.uploadId!, signBatch(n, queue)), signal);
      for (const p of parts) signed.set(p.partNumber, p);
      return signed.get(n)!;
    };
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const { start, end } = partBounds(n, upload.partSize, file.size);
        const blob = file.slice(start, end);
        for (let attempt = 0; ; attempt++) {
          const part = await sign(n);
          try {
            await putPart(
              part.url,
              blob,
              (loaded) => {
                run.partLoaded.set(n!, loaded);
                this.progress(task, run);
              },
              signal,
            );
            break;
          } catch (error) {
            run.partLoaded.delete(n);
            if (isAbort(error) || signal.aborted) throw error;
            const next = partFailure(error);
            if (next === 'expired') throw new ApiError(410, 'upload_expired', 'This upload expired.');
            if (next === 'sign-again') signed.delete(n);
            await waitToRetry(retryDelayMs(attempt), signal, cabinetUnreachable(error, part.url));
          }
        }
        run.partLoaded.delete(n);
        run.doneBytes += blob.size;
        this.progress(task, run);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, Math.max(1, missing.length)) }, worker));
  }

  /** The folder at `path` below `rootId`, made when missing (an existing folder of that name is reused, except through a link). */
  private ensureFolders(workspaceId: string, rootId: string, path: string[]): Promise<string> {
    if (path.length === 0) return Promise.resolve(rootId);
    const cacheKey = `${rootId}/${path.join('/')}`;
    let pending = this.folders.get(cacheKey);
    if (!pending) {
      pending = (async () => {
        const parentId = await this.ensureFolders(workspaceId, rootId, path.slice(0, -1));
        const name = path.at(-1)!;
        if (this.api.createFolder) return this.api.createFolder(parentId, name);
        const create = async (folderName: string) => {
          const folder = await call(itemsApi.create, { params: { ws: workspaceId }, body: { kind: 'folder', name: folderName, parentId } });
          this.onChanged(workspaceId, { type: 'item.created', itemId: folder.id, parentIds: [parentId], item: folder });
          return folder.id;
        };
        try {
          return await create(name);
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'name_conflict')) throw error;
          // The answer names what has the name: a folder there is the one to fill; anything else leaves it to a free name.
          const { existing, suggestedName } = (error.details ?? {}) as Partial<NameConflictDetails>;
          if (existing?.kind === 'folder') return existing.id;
          return await create(suggestedName ?? `${name} (2)`);
        }
      })();
      pending.catch(() => this.folders.delete(cacheKey));
      this.folders.set(cacheKey, pending);
    }
    return pending;
  }
}
