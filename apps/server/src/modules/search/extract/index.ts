// Text of uploaded files for search (ADR 0036): what the rest of the server may use. Parsing runs
// in the extractors' worker pool (extract-task.ts); this file loads none of the parsers.
// libvips (sharp) is loaded on the main thread before any worker uses it: loaded first in a worker,
// it is unloaded when that worker ends, and the process can crash (sharp's documented rule for threads).
import 'sharp';
import { WorkerFailure, type WorkerPool } from '../../../infra/workers/pool.ts';
import type { ExtractInput, Extraction } from './extraction.ts';
import { claimedKind } from './file-kind.ts';
import { MARKUP_HEAD_BYTES, MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES, TEXT_HEAD_BYTES } from './limits.ts';

export type { Extraction } from './extraction.ts';
export { MAX_EXTRACTED_CHARS } from './limits.ts';
export { TextSink } from './text-sink.ts';

/**
 * How many leading bytes of a file the extractor needs, by its name and media type: null for a
 * type it does not read (do not read the file at all); the head of a text file (4 MiB, 16 MiB of
 * HTML or XML, plenty for 1 MiB of text); a PDF, office file or image whole, or 'tooLarge' past
 * 200 MiB (50 MiB for an image).
 */
export function bytesNeeded(f: { mimeType: string; name: string; size: number }): number | null | 'tooLarge' {
  const kind = claimedKind(f);
  if (!kind) return null;
  if (kind === 'text') return Math.min(f.size, TEXT_HEAD_BYTES);
  if (kind === 'html' || kind === 'xml') return Math.min(f.size, MARKUP_HEAD_BYTES);
  return f.size > (kind === 'image' ? MAX_IMAGE_BYTES : MAX_DOCUMENT_BYTES) ? 'tooLarge' : f.size;
}

const TASK = new URL('./extract-task.ts', import.meta.url);

/**
 * A file's text, read in a worker of `workers` (its heap, the process's memory growth and its time
 * are limited: a file that asks too much is ended, and only that file; native code that crashes
 * outright takes the process with it, which the supervisor restarts). Never throws: every failure is `failed`. `size` is the whole
 * file's when `bytes` is only its head, so the text is marked truncated.
 */
export async function extractText(workers: WorkerPool, f: { bytes: Uint8Array; mimeType: string; name: string; size?: number }): Promise<Extraction> {
  const { timeoutMs } = workers.options;
  // A view into a larger buffer would copy all of that buffer to the worker.
  const bytes = f.bytes.byteLength === f.bytes.buffer.byteLength ? f.bytes : f.bytes.slice();
  const input: ExtractInput = { bytes, mimeType: f.mimeType, name: f.name, size: f.size, timeoutMs };
  try {
    return await workers.run<Extraction>(TASK, 'extractInWorker', input);
  } catch (error) {
    // The task itself catches every failure of the file's: what reaches here is the worker's own.
    if (!(error instanceof WorkerFailure)) return { state: 'failed', reason: 'Its text could not be read.', transient: true };
    if (error.reason === 'timeout') return { state: 'failed', reason: `It took longer than ${timeoutMs / 1000} seconds to read.` };
    if (error.reason === 'memory') return { state: 'failed', reason: 'It needs more memory to read than the server gives one file.' };
    if (error.reason === 'busy') return { state: 'failed', reason: 'The server was busy reading other files.', transient: true };
    return { state: 'failed', reason: 'Reading it stopped unexpectedly.', transient: true };
  }
}
