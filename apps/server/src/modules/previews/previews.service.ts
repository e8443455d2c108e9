// Thumbnails (ADR 0040): made in the background from the bytes of ready file versions, kept in
// storage under previews/, served to whoever may see an item holding the bytes.
// libvips (sharp) is loaded on the main thread before any worker uses it (sharp's rule for threads).
import 'sharp';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/client.ts';
import type { PreviewKind } from '../../db/schema.ts';
import type { ErrorLog } from '../../lib/error-log.ts';
import { WorkerFailure } from '../../infra/workers/pool.ts';
import { record } from '../events/index.ts';
import { MessageChannel, type Transferable } from 'node:worker_threads';
import { serveRanges } from '../../lib/range-port.ts';
import type { PreviewInput, PreviewOutcome } from './preview-task.ts';
import {
  claimNext,
  deletePreview,
  deletePreviews,
  findHolders,
  findPreview,
  findSource,
  findUnheld,
  leastUsed,
  markAnswered,
  markEvicted,
  markReady,
  postpone,
  readyBytes,
  requeue,
  touch,
} from './previews.repo.ts';
import { PDF_READ_BYTES, SIGNATURE_BYTES, sourceKindOf } from './source-kind.ts';
import { ffmpegAvailable, VideoFailure, videoFrame } from './video-frame.ts';

type Deps = Pick<AppContext, 'db' | 'storage' | 'previewers'> & { log?: ErrorLog | undefined };

const MiB = 1024 * 1024;
/**
 * Pictures are read whole into memory for the worker; a PDF is read by ranges (what its first page
 * needs, at most PDF_READ_BYTES). Larger files get no preview.
 */
export const MAX_SOURCE_BYTES = { image: 100 * MiB, heic: 100 * MiB, pdf: 2048 * MiB } as const;
/** A video is copied to a temporary file for ffmpeg; larger ones get no preview. */
export const MAX_VIDEO_BYTES = 4 * 1024 * MiB;
/** How long a claim is held before another pass may take the bytes again (a worker that died mid-way). */
const LEASE_MS = 5 * 60_000;
/** Tries, when a failure is not the file's (the pool full, a worker crashed), before it is `failed`. */
export const MAX_ATTEMPTS = 3;
/** Items told at once that a preview of their bytes is ready (on the live stream). */
const ANNOUNCE_LIMIT = 50;

const TASK = new URL('./preview-task.ts', import.meta.url);

/** Where a preview's object lives: one key per bytes and kind, so a retry writes over what a killed one left. */
export const previewKey = (sha256: string, kind: PreviewKind) => `previews/${sha256.slice(0, 2)}/${sha256}/${kind}`;
const KINDS: PreviewKind[] = ['thumb-256', 'thumb-1024'];

/** Makes the previews that are due, a few at a time, until none is left or `budgetMs` has passed. Returns how many contents it answered. */
export async function makeDuePreviews(deps: Deps, o: { budgetMs?: number } = {}): Promise<number> {
  const until = Date.now() + (o.budgetMs ?? Number.POSITIVE_INFINITY);
  let done = 0;
  // Lanes that each claim their next content as soon as they are free, so no lane waits for another's
  // slower file: one per worker thread and one more, whose photo waits in the pool's queue while the
  // others read and write, so no worker idles between two photos (ADR 0040).
  const lane = async () => {
    while (Date.now() < until) {
      const claimed = await claimNext(deps.db, LEASE_MS);
      if (!claimed) return;
      await makeClaimed(deps, claimed.sha256, claimed.attempts);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: deps.previewers.options.threads + 1 }, lane));
  return done;
}

async function makeClaimed(deps: Deps, sha256: string, attempts: number): Promise<void> {
  try {
    await make(deps, sha256);
  } catch (error) {
    // A full pool is nobody's failure: tried again in a moment, the try not counted.
    if (error instanceof Transient && error.busy) return postpone(deps.db, sha256, 5_000, { refund: true }).catch(() => {});
    deps.log?.error({ err: error, sha256, attempt: attempts }, 'making a preview failed');
    if (attempts >= MAX_ATTEMPTS) await answer(deps, sha256, 'failed', 'its preview could not be made').catch(() => {});
    else await postpone(deps.db, sha256, 2 ** attempts * 10_000).catch(() => {});
  }
}

/** A failure the file is not to blame for: thrown, so the claim is tried again later (a bounded number of times). */
class Transient extends Error {
  constructor(readonly busy: boolean) {
    super(busy ? 'the preview workers are busy' : 'a preview worker stopped');
  }
}

async function make(deps: Deps, sha256: string): Promise<void> {
  const source = await findSource(deps.db, sha256);
  // Deleted for good meanwhile: no bytes, no preview.
  if (!source) return forget(deps, sha256);
  const size = Number(source.size_bytes);
  const kind = sourceKindOf(await readRange(deps.storage, source.blob_key, 0, Math.min(size, SIGNATURE_BYTES)));
  if (!kind) return answer(deps, sha256, 'unsupported', null);
  let outcome: PreviewOutcome;
  if (kind === 'video') {
    if (!ffmpegAvailable()) return answer(deps, sha256, 'unsupported', null);
    if (size > MAX_VIDEO_BYTES) return answer(deps, sha256, 'failed', 'the video is too large for a preview');
    let frame: Uint8Array;
    try {
      frame = await frameOf(deps, source.blob_key);
    } catch (error) {
      if (error instanceof VideoFailure) return answer(deps, sha256, 'failed', error.reason);
      throw error;
    }
    outcome = await runTask(deps, { kind: 'image', bytes: frame });
  } else if (size > MAX_SOURCE_BYTES[kind]) {
    return answer(deps, sha256, 'failed', `the file is larger than ${MAX_SOURCE_BYTES[kind] / MiB} MiB`);
  } else if (kind === 'pdf') {
    // The worker asks for the ranges it needs on a port of its own; this thread reads them.
    const { port1, port2 } = new MessageChannel();
    serveRanges(port1, size, (begin, end) => readRange(deps.storage, source.blob_key, begin, end), PDF_READ_BYTES);
    try {
      outcome = await runTask(deps, { kind, size, port: port2 }, [port2]);
    } finally {
      port1.close();
    }
  } else {
    outcome = await runTask(deps, { kind, bytes: await readRange(deps.storage, source.blob_key, 0, size) });
  }
  if (outcome.state === 'failed') return answer(deps, sha256, 'failed', outcome.reason);
  // The objects first, then the rows in one transaction: a pass killed between them leaves objects
  // under keys its retry writes over (or its failure deletes), never a ready row without its object.
  await Promise.all(outcome.previews.map((p) => deps.storage.put(previewKey(sha256, p.kind), p.bytes, 'image/webp')));
  const made = outcome.previews.map((p) => ({ kind: p.kind, blobKey: previewKey(sha256, p.kind), size: p.bytes.byteLength, width: p.width, height: p.height }));
  await inTransaction(deps.db, async (tx) => {
    await markReady(tx, sha256, made, outcome.placeholder);
    // Each file showing these bytes is told (the live stream refreshes it where it is listed).
    for (const item of await findHolders(tx, sha256, ANNOUNCE_LIMIT)) {
      await record(tx, null, { workspaceId: item.workspace_id, action: 'file.previewed', itemId: item.id, parentIds: [item.parent_id], data: {} });
    }
  });
}

async function runTask(deps: Deps, input: PreviewInput, transfer: readonly Transferable[] = []): Promise<PreviewOutcome> {
  // A view into a larger buffer would copy all of that buffer to the worker.
  const copied = 'bytes' in input && input.bytes.byteLength !== input.bytes.buffer.byteLength ? { ...input, bytes: input.bytes.slice() } : input;
  try {
    return await deps.previewers.run<PreviewOutcome>(TASK, 'makePreview', copied, transfer);
  } catch (error) {
    if (!(error instanceof WorkerFailure)) throw error;
    const seconds = deps.previewers.options.timeoutMs / 1000;
    if (error.reason === 'timeout') return { state: 'failed', reason: `making it took longer than ${seconds} seconds` };
    if (error.reason === 'memory') return { state: 'failed', reason: 'it needs more memory than the server gives one preview' };
    throw new Transient(error.reason === 'busy');
  }
}

/** `failed` or `unsupported`, and whatever a killed pass may have left under its keys deleted. */
async function answer(deps: Deps, sha256: string, state: 'failed' | 'unsupported', reason: string | null): Promise<void> {
  await markAnswered(deps.db, sha256, state, reason);
  for (const kind of KINDS) await deps.storage.delete(previewKey(sha256, kind));
}

async function forget(deps: Deps, sha256: string): Promise<void> {
  await deletePreviews(deps.db, sha256);
  for (const kind of KINDS) await deps.storage.delete(previewKey(sha256, kind));
}

/** The video copied to a temporary file (ffmpeg seeks in it), a frame taken, the file removed. */
async function frameOf(deps: Deps, blobKey: string): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-video-'));
  try {
    const file = path.join(dir, 'video');
    await pipeline(await deps.storage.read(blobKey), createWriteStream(file));
    const frame = await videoFrame(file, deps.previewers.options.timeoutMs);
    return new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Bytes `start`..`end` (exclusive) of a stored object. */
async function readRange(storage: Deps['storage'], key: string, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return new Uint8Array();
  const stream: Readable = await storage.read(key, { start, end: end - 1 });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= end - start) break;
  }
  stream.destroy();
  const all = Buffer.concat(chunks, Math.min(size, end - start));
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

/** What a listing shows of an item's preview: its state, the address's version (the bytes' hash), the placeholder. */
export interface PreviewView {
  state: 'pending' | 'ready' | 'failed' | 'unsupported';
  reason: string | null;
  sha256: string;
  placeholder: string | null;
  width: number | null;
  height: number | null;
}

/**
 * A preview's bytes to serve, or null (none: pending, failed, unsupported — answered `not_found`).
 * One evicted to keep the cache small is made again here, within the pool's time limit; when the
 * pool is busy it stays queued for the background pass and this asking answers null.
 */
export async function previewBytes(deps: Deps, sha256: string, kind: PreviewKind): Promise<Buffer | null> {
  let row = await findPreview(deps.db, sha256, kind);
  if (row?.state === 'evicted') {
    await requeue(deps.db, sha256);
    const claimed = await claimNext(deps.db, LEASE_MS, sha256);
    if (claimed) await makeClaimed(deps, claimed.sha256, claimed.attempts);
    row = await findPreview(deps.db, sha256, kind);
  }
  if (row?.state !== 'ready' || !row.blob_key) return null;
  await touch(deps.db, sha256, kind);
  try {
    const stream = await deps.storage.read(row.blob_key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  } catch {
    // Its object went between the row read and now (evicted at that moment): none this time.
    return null;
  }
}

/**
 * Keeps the ready previews within `maxBytes` in storage: the least recently used are evicted (the
 * row says so first, then the object goes) until the total is nine tenths of it. Also deletes the
 * previews of bytes no version holds any more. Returns how many were evicted.
 */
export async function evictPreviews(deps: Pick<Deps, 'db' | 'storage'>, maxBytes: number): Promise<number> {
  for (let batch = await findUnheld(deps.db, 500); batch.length > 0; batch = await findUnheld(deps.db, 500)) {
    for (const p of batch) {
      await deletePreview(deps.db, p.sha256, p.kind);
      if (p.blob_key) await deps.storage.delete(p.blob_key);
    }
  }
  let total = await readyBytes(deps.db);
  if (total <= maxBytes) return 0;
  const target = Math.floor(maxBytes * 0.9);
  let evicted = 0;
  while (total > target) {
    const oldest = await leastUsed(deps.db, 200);
    if (oldest.length === 0) break;
    for (const p of oldest) {
      if (total <= target) break;
      if (!(await markEvicted(deps.db, p))) continue;
      if (p.blob_key) await deps.storage.delete(p.blob_key);
      total -= Number(p.size_bytes);
      evicted++;
    }
  }
  return evicted;
}

export { ffmpegAvailable };
