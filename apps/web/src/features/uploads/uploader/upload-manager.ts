import {
  ERROR_STATUS,
  filesApi,
  itemsApi,
  uploadsApi,
  type NameConflictDetails,
  type TItem,
  type TOnConflict,
  type TSignedPart,
  type TUploadEntryError,
} from '@cabinet/contracts';
import type { Change } from '../../../lib/changes.ts';
import { ApiError, call } from '../../../lib/api-client.ts';
import { emptyFolderMarker } from './collect-files.ts';
import { hashFile } from './hash-file.ts';
import { putPart, PartRejected } from './put-part.ts';
import { appTransport, type UploadProgress, type UploadTransport } from './transport.ts';

export type UploadTaskState = 'queued' | 'uploading' | 'verifying' | 'paused' | 'conflict' | 'needs-file' | 'done' | 'failed' | 'cancelled' | 'skipped';

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
}

export interface UploadTotals {
  active: number;
  loaded: number;
  size: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  secondsLeft: number | undefined;
}

const FILES_AT_ONCE = 3;
const PARTS_IN_FLIGHT = 4;
/** Files up to this size (one part) start and complete together, up to BATCH at a time, in one call each. */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;
const BATCH = 8;
const SIGN_AHEAD = 8;
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Stopped', 'AbortError'));
      },
      { once: true },
    );
  });

/** A batch entry's error, as its own call would have thrown it. */
const entryError = (e: TUploadEntryError) => new ApiError(ERROR_STATUS[e.code], e.code, e.message, e.details);

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
/** Worth trying again: the network or the server is away for a moment. */
const isTransient = (error: unknown) =>
  error instanceof ApiError && (error.status === 0 || error.status === 503 || error.status === 429 || error.status >= 500);

/** Calls `fn` until it works, waiting longer each time the network or server is away (at most 30 s). */
async function persist<T>(fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw new DOMException('Stopped', 'AbortError');
    try {
      return await fn();
    } catch (error) {
      if (!isTransient(error)) throw error;
      await sleep(Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)), signal);
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

/**
 * Uploads files the way PRODUCT.md §7 describes: Cabinet opens an upload and signs parts; the
 * parts go straight to the storage, four at a time, while a worker hashes the file; Cabinet then
 * checks the bytes and the file appears. Paused, dropped or interrupted uploads resume from the
 * parts the storage already holds; after a reload Cabinet lists them and the person picks the
 * file again (its SHA-256 proves it is the same one).
 */
export class UploadManager {
  private tasks: UploadTask[] = [];
  private snapshot: readonly UploadTask[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly running = new Map<string, Running>();
  private readonly folders = new Map<string, Promise<string>>();
  private samples: { at: number; loaded: number }[] = [];
  private sequence = 0;
  /** A conflict answer the person chose to apply to every conflict. */
  conflictAnswer: TOnConflict | 'skip' | undefined;

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
    this.snapshot = this.tasks.map((t) => ({ ...t }));
    for (const listener of this.listeners) listener();
  }

  private update(task: UploadTask, change: Partial<UploadTask>) {
    Object.assign(task, change);
    this.emit();
  }

  /** A new task in the list; only what differs between the kinds of upload is given. */
  private push(task: Pick<UploadTask, 'workspaceId' | 'targetId' | 'name' | 'size' | 'file' | 'state'> & Partial<UploadTask>) {
    this.tasks.push({
      key: `u${++this.sequence}`,
      folderPath: [],
      uploadId: undefined,
      loaded: 0,
      error: undefined,
      suggestedName: undefined,
      onConflict: 'fail',
      itemId: undefined,
      versionOf: undefined,
      ...task,
    });
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
    this.push({ workspaceId, targetId: documentId, name: file.name || 'image', size: file.size, file, state: 'queued', onConflict: 'keep_both' });
    const task = this.tasks.at(-1)!;
    const settled = new Promise<string>((resolve, reject) => {
      const check = () => {
        if (task.state === 'done' && task.itemId) resolve(task.itemId);
        else if (task.state === 'failed') reject(new Error(task.error ?? 'The upload failed.'));
        else if (task.state === 'cancelled' || task.state === 'skipped') reject(new Error('The upload was cancelled.'));
        else return;
        stop();
      };
      const stop = this.subscribe(check);
    });
    this.emit();
    this.pump();
    return settled;
  }

  /** Brings back the person's unfinished uploads (after a reload), with the bytes the storage already holds: each waits for its file. */
  async loadUnfinished(workspaceId: string) {
    const { items } = await call(uploadsApi.unfinished, { params: { ws: workspaceId } });
    const unknown = items.filter((upload) => !this.tasks.some((t) => t.uploadId === upload.id));
    const statuses = await Promise.all(unknown.map((upload) => call(uploadsApi.get, { params: { id: upload.id } }).catch(() => ({ ...upload, parts: [] }))));
    for (const upload of statuses) {
      if (this.tasks.some((t) => t.uploadId === upload.id)) continue;
      this.push({
        workspaceId,
        targetId: upload.parentId,
        name: upload.name,
        size: upload.size,
        file: undefined,
        uploadId: upload.id,
        state: 'needs-file',
        loaded: upload.parts.reduce((sum, p) => sum + p.size, 0),
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
    const unknown = known.filter((k) => !this.tasks.some((t) => t.uploadId === k.id));
    const found = await Promise.all(
      unknown.map((k) =>
        this.api.status(k.id).then(
          (status) => ({ name: k.name, status }),
          () => undefined,
        ),
      ),
    );
    for (const f of found) {
      if (!f || !['created', 'uploading'].includes(f.status.state) || this.tasks.some((t) => t.uploadId === f.status.id)) continue;
      this.push({
        workspaceId,
        targetId,
        name: f.name,
        size: f.status.size,
        file: undefined,
        uploadId: f.status.id,
        state: 'needs-file',
        loaded: f.status.parts.reduce((sum, p) => sum + p.size, 0),
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
    this.update(task, { file, state: 'queued', error: undefined });
    this.pump();
    return undefined;
  }

  pause(key: string) {
    const task = this.find(key);
    if (!task || !['queued', 'uploading', 'verifying'].includes(task.state)) return;
    this.running.get(key)?.abort.abort();
    this.update(task, { state: 'paused' });
  }

  resume(key: string) {
    const task = this.find(key);
    if (!task || (task.state !== 'paused' && task.state !== 'failed')) return;
    this.update(task, { state: task.file ? 'queued' : 'needs-file', error: undefined });
    this.pump();
  }

  pauseAll() {
    for (const t of this.tasks) this.pause(t.key);
  }

  resumeAll() {
    for (const t of this.tasks) if (t.state === 'paused') this.resume(t.key);
  }

  async cancel(key: string) {
    const task = this.find(key);
    if (!task || ['done', 'cancelled', 'skipped'].includes(task.state)) return;
    this.running.get(key)?.abort.abort();
    this.update(task, { state: 'cancelled' });
    if (task.uploadId) await this.api.abort(task.uploadId).catch(() => {});
    this.pump();
  }

  /** The answer to a name conflict: keep both, replace (a new version) or skip; optionally for every conflict. */
  resolveConflict(key: string, answer: TOnConflict | 'skip', forAll: boolean) {
    if (forAll) this.conflictAnswer = answer;
    const targets = forAll ? this.tasks.filter((t) => t.state === 'conflict') : [this.find(key)].filter((t): t is UploadTask => !!t);
    for (const task of targets) this.answer(task, answer);
    this.pump();
  }

  private answer(task: UploadTask, answer: TOnConflict | 'skip') {
    if (answer === 'skip') {
      if (task.uploadId) void this.api.abort(task.uploadId).catch(() => {});
      this.update(task, { state: 'skipped', suggestedName: undefined });
    } else {
      this.update(task, { state: 'queued', onConflict: answer, suggestedName: undefined });
    }
  }

  clearFinished() {
    this.tasks = this.tasks.filter((t) => !['done', 'cancelled', 'skipped'].includes(t.state));
    this.samples = [];
    this.emit();
  }

  totals(): UploadTotals {
    const live = this.tasks.filter((t) => !['cancelled', 'skipped'].includes(t.state));
    const loaded = live.reduce((sum, t) => sum + t.loaded, 0);
    const size = live.reduce((sum, t) => sum + t.size, 0);
    const now = performance.now();
    this.samples = this.samples.filter((s) => now - s.at < 5000);
    const first = this.samples[0];
    const speed = first && now - first.at > 500 ? Math.max(0, ((loaded - first.loaded) * 1000) / (now - first.at)) : 0;
    return {
      active: this.tasks.filter((t) => ['queued', 'uploading', 'verifying'].includes(t.state)).length,
      loaded,
      size,
      speed,
      secondsLeft: speed > 0 ? Math.ceil((size - loaded) / speed) : undefined,
    };
  }

  private find(key: string) {
    return this.tasks.find((t) => t.key === key);
  }

  /** Small new files go in batches; a batch takes one of the FILES_AT_ONCE places, like one big file. */
  private isBatchable = (t: UploadTask) => !!this.api.batches && !t.uploadId && !t.versionOf && t.size <= SMALL_FILE_BYTES;
  private jobs = 0;

  private pump() {
    while (this.jobs < FILES_AT_ONCE) {
      const waiting = (t: UploadTask) => t.state === 'queued' && !this.running.has(t.key);
      const next = this.tasks.find(waiting);
      if (!next) return;
      const group = this.isBatchable(next)
        ? this.tasks.filter((t) => waiting(t) && this.isBatchable(t) && t.workspaceId === next.workspaceId).slice(0, BATCH)
        : [next];
      const runs = group.map((task) => {
        const run: Running = { abort: new AbortController(), partLoaded: new Map(), doneBytes: 0 };
        this.running.set(task.key, run);
        return run;
      });
      this.jobs++;
      void (this.isBatchable(next) ? this.runBatch(group, runs) : this.run(next, runs[0]!)).finally(() => {
        for (const task of group) this.running.delete(task.key);
        this.jobs--;
        this.pump();
      });
    }
  }

  private progress(task: UploadTask, run: Running) {
    let inFlight = 0;
    for (const v of run.partLoaded.values()) inFlight += v;
    task.loaded = Math.min(task.size, run.doneBytes + inFlight);
    this.samples.push({ at: performance.now(), loaded: this.tasks.reduce((sum, t) => sum + t.loaded, 0) });
    this.emit();
  }

  private async run(task: UploadTask, run: Running) {
    const { signal } = run.abort;
    const file = task.file!;
    try {
      this.update(task, { state: 'uploading', error: undefined });
      let status: UploadProgress;
      if (!task.uploadId) {
        const mimeType = file.type ? { mimeType: file.type } : {};
        const upload = task.versionOf
          ? await persist(() => call(filesApi.startVersion, { params: { id: task.versionOf! }, body: { size: task.size, ...mimeType } }), signal)
          : await persist(async () => this.api.start(task.workspaceId, await this.startRequest(task)), signal);
        task.uploadId = upload.id;
        run.signedAtStart = upload.parts;
        // Just started: the storage holds no part yet.
        status = { ...upload, parts: [] };
      } else {
        status = await persist(() => this.api.status(task.uploadId!), signal);
      }
      const hashing = hashFile(file, signal);
      hashing.catch(() => {});
      const have = new Set(status.parts.map((p) => p.partNumber));
      run.doneBytes = status.parts.reduce((sum, p) => sum + p.size, 0);
      this.progress(task, run);
      const missing = Array.from({ length: status.partCount }, (_, i) => i + 1).filter((n) => !have.has(n));
      await this.sendParts(task, run, status, missing);

      this.update(task, { state: 'verifying' });
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
      for (const task of tasks) this.update(task, { state: 'uploading', error: undefined });
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
            await this.sendParts(
              task,
              run,
              { ...result.upload, parts: [] },
              Array.from({ length: result.upload.partCount }, (_, n) => n + 1),
            );
            this.update(task, { state: 'verifying' });
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

  /** What starting a new upload asks, once its folders exist. */
  private async startRequest(task: UploadTask) {
    const parentId = await this.ensureFolders(task.workspaceId, task.targetId, task.folderPath);
    return { parentId, name: task.name, size: task.size, ...(task.file?.type ? { mimeType: task.file.type } : {}), onConflict: task.onConflict };
  }

  /** A visitor's upload is told of no file: nothing to show it in. */
  private finish(task: UploadTask, result: { item?: TItem }) {
    const { item } = result;
    this.update(task, { state: 'done', itemId: item?.id, loaded: task.size });
    if (item)
      this.onChanged(task.workspaceId, {
        type: task.versionOf || task.onConflict === 'replace' ? 'item.updated' : 'item.created',
        itemId: item.id,
        parentIds: [item.parentId],
        item,
      });
  }

  /** A name conflict waits for an answer; anything else fails the task with a message for people. */
  private fail(task: UploadTask, error: unknown) {
    if (error instanceof ApiError && error.code === 'name_conflict') {
      const suggestedName = String(error.details?.suggestedName ?? '');
      if (this.conflictAnswer) {
        this.answer(task, this.conflictAnswer);
        return;
      }
      this.update(task, { state: 'conflict', suggestedName });
      return;
    }
    const message =
      error instanceof ApiError && error.code === 'checksum_mismatch'
        ? 'The file changed while it was uploading, so it was not saved. Upload it again.'
        : error instanceof ApiError && error.code === 'upload_expired'
          ? 'This upload expired. Upload the file again.'
          : error instanceof Error
            ? error.message
            : String(error);
    if (error instanceof ApiError && (error.code === 'checksum_mismatch' || error.code === 'upload_expired')) task.uploadId = undefined;
    this.update(task, { state: 'failed', error: message });
  }

  /** PUTs the missing parts, a few at a time, signing URLs a batch ahead; a part that fails is retried. */
  private async sendParts(task: UploadTask, run: Running, upload: UploadProgress, missing: number[]) {
    const { signal } = run.abort;
    const file = task.file!;
    const queue = [...missing];
    const signed = new Map<number, TSignedPart>((run.signedAtStart ?? []).map((p) => [p.partNumber, p]));
    const sign = async (n: number) => {
      const fresh = signed.get(n);
      if (fresh && new Date(fresh.expiresAt).getTime() - Date.now() > 60_000) return fresh;
      const batch = [n, ...queue.slice(0, SIGN_AHEAD - 1)];
      const parts = await persist(() => this.api.signParts(task.uploadId!, batch), signal);
      for (const p of parts) signed.set(p.partNumber, p);
      return signed.get(n)!;
    };
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        const start = (n - 1) * upload.partSize;
        const blob = file.slice(start, Math.min(file.size, start + upload.partSize));
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
            // An expired or refused signature: sign again. The network or storage away: wait and retry.
            if (error instanceof PartRejected && (error.status === 403 || error.status === 400)) signed.delete(n);
            else if (error instanceof PartRejected && (error.status === 404 || error.status === 410))
              throw new ApiError(410, 'upload_expired', 'This upload expired.');
            await sleep(Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)), signal);
          }
        }
        run.partLoaded.delete(n);
        run.doneBytes += blob.size;
        this.progress(task, run);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, Math.max(1, missing.length)) }, worker));
  }

  /** The folder at `path` below `rootId`, made when missing (an existing folder of that name is reused). */
  private ensureFolders(workspaceId: string, rootId: string, path: string[]): Promise<string> {
    if (path.length === 0) return Promise.resolve(rootId);
    const cacheKey = `${rootId}/${path.join('/')}`;
    let pending = this.folders.get(cacheKey);
    if (!pending) {
      pending = (async () => {
        const parentId = await this.ensureFolders(workspaceId, rootId, path.slice(0, -1));
        const name = path.at(-1)!;
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
