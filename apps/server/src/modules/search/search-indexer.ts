import type { Db } from '../../db/client.ts';
import type { StorageDriver } from '../../infra/storage/driver.ts';
import type { WorkerPool } from '../../infra/workers/pool.ts';
import { reader } from '../events/index.ts';
import { bytesNeeded, extractText, TextSink } from './extract/index.ts';
import type { ErrorLog } from '../../lib/error-log.ts';
import {
  claimTasks,
  computeAccess,
  findDocumentText,
  findTextSources,
  finishTasks,
  postponeTask,
  propagateAccess,
  queueEndedGrants,
  releaseTasks,
  saveNoTexts,
  saveText,
  type ClaimedTask,
  type NoText,
  type TaskKind,
  type TextSource,
} from './search-indexer.repo.ts';

export interface IndexerDeps {
  db: Db;
  storage: StorageDriver;
  extractors: WorkerPool;
  log?: ErrorLog;
}

/** How long a claimed task is held before another instance may take it (an instance that died mid-task). */
const LEASE_MS = 10 * 60_000;
/** Tries before a file's text is given up on (marked failed); extraction failures are answers, not tries. */
const MAX_ATTEMPTS = 5;
/** Children worked out per statement while an access list goes down a tree: short statements, so requests never wait long behind one. */
const ACCESS_BATCH = 500;

/**
 * Tasks claimed at once: an access list is its own statements; texts go as a batch (their sources read in one
 * statement, and every item with no text to read, as most small uploads are, saved and finished in one more).
 */
const CLAIM = { access: 20, text: 16 } as const;
/**
 * Files read (extracted) per claim, the rest of the claim's files given back: each may take the extractor's whole time
 * limit, and the claim must end well within its lease, or another pass would take the same tasks.
 */
const READS_PER_CLAIM = 4;

/**
 * Works off what is queued: access lists first (what may be found by whom), then texts. Returns
 * how many tasks it did. Stops after `budgetMs` so a long backlog leaves room for a fresh wake.
 */
export async function indexPending(deps: IndexerDeps, o: { budgetMs?: number; onProgress?: (done: number) => void } = {}): Promise<number> {
  const until = Date.now() + (o.budgetMs ?? Number.POSITIVE_INFINITY);
  let done = 0;
  // Counted apart from the call: \`onProgress?.(++done)\` would not count at all without a listener.
  const progress = () => {
    done++;
    o.onProgress?.(done);
  };
  for (const kind of ['access', 'text'] as const) {
    while (Date.now() < until) {
      const tasks = await claimTasks(deps.db, kind, CLAIM[kind], LEASE_MS);
      if (tasks.length === 0) break;
      if (kind === 'text') {
        await indexTexts(deps, tasks, progress);
        continue;
      }
      for (const task of tasks) {
        try {
          await indexAccess(deps.db, task.item_id);
          await finishTasks(deps.db, kind, [task]);
        } catch (error) {
          await failed(deps, kind, task, error);
        }
        progress();
      }
    }
  }
  return done;
}

/** A task that failed: tried again later, a bounded number of times; after the last, a text is marked failed. */
async function failed(deps: IndexerDeps, kind: TaskKind, task: ClaimedTask, error: unknown, o: { textSaved?: boolean } = {}): Promise<void> {
  deps.log?.error({ err: error, item: task.item_id, task: kind, attempt: task.attempts }, 'search indexing failed');
  if (task.attempts >= MAX_ATTEMPTS) {
    // A text saved stays: only its task could not be finished.
    if (kind === 'text' && !o.textSaved)
      await saveNoTexts(deps.db, [{ itemId: task.item_id, state: 'failed', error: 'Its text could not be read.', versionId: null }]).catch(() => {});
    await finishTasks(deps.db, kind, [task]).catch(() => {});
  } else {
    await postponeTask(deps.db, kind, task.item_id, 2 ** task.attempts * 5_000).catch(() => {});
  }
}

/**
 * A batch of texts: their sources read in one statement, then each text read and saved in turn (at most
 * READS_PER_CLAIM files, the others given back); those with none to read (a kind not read, too large, already current)
 * are saved together, and the tasks done finished together. Should either statement fail, each task is saved and
 * finished on its own, so that one bad entry fails only itself.
 */
async function indexTexts(deps: IndexerDeps, tasks: ClaimedTask[], progress: () => void): Promise<void> {
  let sources: Map<string, TextSource>;
  try {
    sources = await findTextSources(
      deps.db,
      tasks.map((t) => t.item_id),
    );
  } catch (error) {
    for (const task of tasks) {
      await failed(deps, 'text', task, error);
      progress();
    }
    return;
  }
  const none = new Map<ClaimedTask, NoText>();
  const saved = new Set<ClaimedTask>();
  const done: ClaimedTask[] = [];
  const later: ClaimedTask[] = [];
  let reads = 0;
  for (const task of tasks) {
    const plan = planText(task.item_id, sources.get(task.item_id));
    if (plan.kind === 'extract' && ++reads > READS_PER_CLAIM) {
      later.push(task);
      continue;
    }
    try {
      if (plan.kind === 'none') none.set(task, plan.entry);
      else if (plan.kind !== 'skip') {
        await readText(deps, task.item_id, plan);
        saved.add(task);
      }
      done.push(task);
    } catch (error) {
      await failed(deps, 'text', task, error);
      progress();
    }
  }
  await releaseTasks(deps.db, 'text', later).catch((error: unknown) => deps.log?.error({ err: error }, 'search indexing failed'));
  try {
    await saveNoTexts(deps.db, [...none.values()]);
    await finishTasks(deps.db, 'text', done);
  } catch {
    for (const task of done) {
      try {
        const entry = none.get(task);
        if (entry) await saveNoTexts(deps.db, [entry]);
        await finishTasks(deps.db, 'text', [task]);
      } catch (error) {
        await failed(deps, 'text', task, error, { textSaved: saved.has(task) });
      }
    }
  }
  done.forEach(progress);
}

/** An item's access list and then its subtree's, a level at a time. */
async function indexAccess(db: Db, itemId: string): Promise<void> {
  if (!(await computeAccess(db, itemId))) return;
  let level = [itemId];
  for (let depth = 0; level.length > 0 && depth <= 64; depth++) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += ACCESS_BATCH) next.push(...(await propagateAccess(db, level.slice(i, i + ACCESS_BATCH))));
    level = next;
  }
}

/** A document's text as the index takes it (as a file's is read: TextSink). */
function documentText(text: string): { text: string; truncated: boolean } {
  const sink = new TextSink();
  sink.text(text);
  return sink.result();
}

/** What an item's text needs, from its source alone (TextPlan). */
type TextPlan =
  /** Nothing: gone, a folder, an upload not complete, a text already current. */
  | { kind: 'skip' }
  /** No text to save, and why: a kind not read, or too large. */
  | { kind: 'none'; entry: NoText }
  /** A document's text, read from the database. */
  | { kind: 'document' }
  /** A file's first `bytes`, read by the extractor: the costly one. */
  | { kind: 'extract'; src: TextSource; versionId: string; blobKey: string; bytes: number };

function planText(itemId: string, src: TextSource | undefined): TextPlan {
  if (!src || src.kind === 'folder') return { kind: 'skip' };
  if (src.kind === 'document') return { kind: 'document' };
  const versionId = src.current_version_id;
  // An upload not complete has no version yet; its completion queues the text again.
  if (!versionId || !src.blob_key) return { kind: 'skip' };
  if (src.text_version_id === versionId && src.text_state !== 'pending') return { kind: 'skip' };
  const bytes = bytesNeeded(fileOf(src));
  if (bytes === null) return { kind: 'none', entry: { itemId, state: 'unsupported', error: null, versionId } };
  if (bytes === 'tooLarge') return { kind: 'none', entry: { itemId, state: 'failed', error: 'It is too large for its text to be read.', versionId } };
  return { kind: 'extract', src, versionId, blobKey: src.blob_key, bytes };
}

const fileOf = (src: TextSource) => ({ mimeType: src.mime_type ?? 'application/octet-stream', name: src.name, size: src.size_bytes ?? 0 });

/** Reads a document's or a file's text and saves it, or why there is none. */
async function readText(deps: IndexerDeps, itemId: string, plan: Extract<TextPlan, { kind: 'document' | 'extract' }>): Promise<void> {
  if (plan.kind === 'document') {
    const { text, truncated } = documentText(await findDocumentText(deps.db, itemId));
    return saveBody(deps.db, itemId, text, truncated, null);
  }
  const { versionId } = plan;
  const bytes = await readHead(deps.storage, plan.blobKey, plan.bytes);
  const extraction = await extractText(deps.extractors, { bytes, ...fileOf(plan.src) });
  // Not the file's fault (the pool was full, a worker crashed): tried again later, a bounded number of times.
  if (extraction.state === 'failed' && extraction.transient) throw new Error(extraction.reason);
  if (extraction.state === 'unsupported') return saveNoTexts(deps.db, [{ itemId, state: 'unsupported', error: null, versionId }]);
  if (extraction.state === 'failed') return saveNoTexts(deps.db, [{ itemId, state: 'failed', error: extraction.reason, versionId }]);
  return saveBody(deps.db, itemId, extraction.text, extraction.truncated, versionId);
}

/** Saves text to search by; a text whose index would pass PostgreSQL's limit for one (1 MB of words and places) is halved until it fits. */
async function saveBody(db: Db, itemId: string, text: string, truncated: boolean, versionId: string | null): Promise<void> {
  for (let body = text, cut = truncated; ; body = body.slice(0, Math.floor(body.length / 2)), cut = true) {
    try {
      return await saveText(db, itemId, { body, state: cut ? 'truncated' : 'ready', versionId });
    } catch (error) {
      if ((error as { code?: string }).code !== '54000' || body.length < 1024) throw error;
    }
  }
}

/** The first `bytes` of a stored object. */
async function readHead(storage: StorageDriver, key: string, bytes: number): Promise<Uint8Array> {
  if (bytes <= 0) return new Uint8Array();
  const stream = await storage.read(key, { start: 0, end: bytes - 1 });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= bytes) break;
  }
  stream.destroy();
  // One copy: the chunks into a buffer of the size wanted (for a large file, its own memory, handed to the extractor's thread whole).
  const head = Buffer.concat(chunks, Math.min(size, bytes));
  return new Uint8Array(head.buffer, head.byteOffset, head.byteLength);
}

/** How often the catch-up job runs; it also queues the lists of grants that ended within twice that. */
const CATCH_UP_MS = 30_000;

/**
 * Access lists and texts are worked out right after a change to an item commits, on every instance
 * that hears it (they share the queue). The job catches up on what was not heard, and works out
 * again the lists of grants that ended (nothing announces an end).
 */
export const searchReader = reader({
  name: 'search.index',
  wakesOn: ['item.*'],
  settleMs: 200,
  run: (ctx, log) => indexPending({ ...ctx, log }, { budgetMs: 60_000 }),
  catchUpEvery: CATCH_UP_MS,
  catchUp: async (ctx, log) => {
    await queueEndedGrants(ctx.db, 2 * CATCH_UP_MS);
    await indexPending({ ...ctx, log }, { budgetMs: CATCH_UP_MS });
  },
});
