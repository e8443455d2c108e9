// libvips (sharp), which reads documents' pictures in the workers, is loaded on the main thread before any worker uses it (sharp's rule for threads).
import 'sharp';
import { isSheetKind, PREVIEW_LIMITS, previewKindOf, type PreviewKind, type TPreviewHtml, type TSheetPreview } from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { TaskError, WorkerFailure } from '../../infra/workers/pool.ts';
import { findVersion } from '../files/index.ts';
import { requireItem } from '../items/index.ts';
import { noPreview } from './convert/failure.ts';
import type { Workbook } from './convert/sheets.ts';
import { PreviewCache } from './preview-cache.ts';

const MiB = 1024 * 1024;
const DOCUMENT_TASK = new URL('./convert/document.ts', import.meta.url);
const SHEETS_TASK = new URL('./convert/sheets.ts', import.meta.url);

/** A document's HTML as kept: UTF-8, a byte a character of its pictures' data (a string of two-byte text would take two). */
interface KeptHtml {
  utf8: Buffer;
  truncated: boolean;
}

/**
 * Conversions kept for the next call, in this process (ADR 0039): a sheet is paged through a
 * call per page, and a document is opened again and again. 64 MiB in all.
 */
const CACHE_BYTES = 64 * MiB;
const cache = new PreviewCache<KeptHtml | Workbook>(CACHE_BYTES, (v) =>
  'utf8' in v ? v.utf8.length : v.sheets.reduce((n, s) => n + s.rows.reduce((m, r) => m + 32 + r.reduce((k, c) => k + 16 + c.length * 2, 0), 0), 64),
);

/** The file to convert: which version, what kind, and that it is within the size converted. */
interface Source {
  item: ItemRow;
  kind: PreviewKind;
  blobKey: string;
  sha256: string;
  size: number;
}

const maxBytesOf = (kind: PreviewKind) => (kind === 'markdown' || kind === 'csv' || kind === 'tsv' ? PREVIEW_LIMITS.textBytes : PREVIEW_LIMITS.officeBytes);

async function sourceOf(ctx: AppContext, item: ItemRow, versionId: string | undefined, want: 'html' | 'sheets'): Promise<Source> {
  if (item.kind !== 'file') throw noPreview('not_supported', 'Only files are converted to be shown.');
  const id = versionId ?? item.current_version_id;
  const version = id ? await findVersion(ctx.db, id) : undefined;
  if (!version || version.item_id !== item.id || version.state !== 'ready') throw new AppError('not_found', 'No such version of this file.');
  const kind = previewKindOf({ name: item.name, mimeType: version.mime_type });
  if (!kind || isSheetKind(kind) !== (want === 'sheets'))
    throw noPreview('not_supported', want === 'sheets' ? 'This kind of file is not shown as a sheet.' : 'This kind of file is not shown as a document.');
  const size = Number(version.size_bytes);
  const maxBytes = maxBytesOf(kind);
  if (size > maxBytes)
    throw noPreview('too_large', `This file is too large to show here (more than ${maxBytes / MiB} MiB). Download it instead.`, { maxBytes });
  return { item, kind, blobKey: version.blob_key, sha256: version.sha256, size };
}

/** A stored file's bytes, whole (it is within the size converted). */
async function readBytes(ctx: AppContext, s: Source): Promise<Uint8Array> {
  const stream = await ctx.storage.read(s.blobKey);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    // A stored object longer than its version says: read no further than the limit.
    if (size > maxBytesOf(s.kind)) break;
  }
  (stream as { destroy?: () => void }).destroy?.();
  const all = Buffer.concat(chunks, Math.min(size, maxBytesOf(s.kind)));
  // Its own buffer: a view into a larger one would copy all of it to the worker.
  return new Uint8Array(all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength));
}

/** A conversion in the worker pool; its failures as the catalogue says (a file that asks too much is `too_complex`, never a 500). */
async function convert<T>(ctx: AppContext, task: URL, fn: string, s: Source): Promise<T> {
  const bytes = await readBytes(ctx, s);
  try {
    return await ctx.workers.run<T>(task, fn, { kind: s.kind, bytes });
  } catch (error) {
    if (error instanceof TaskError && error.code) throw new AppError(error.code as AppError['code'], error.message, error.details);
    if (error instanceof WorkerFailure) {
      if (error.reason === 'busy') throw new AppError('rate_limited', 'The server is busy reading other files. Try again in a moment.', { retryAfter: 5 });
      const why =
        error.reason === 'timeout'
          ? `it took longer than ${ctx.workers.options.timeoutMs / 1000} seconds to read`
          : error.reason === 'memory'
            ? 'it needs more memory than the server gives one file'
            : 'reading it stopped unexpectedly';
      throw noPreview('too_complex', `This file cannot be shown: ${why}.`);
    }
    // What the task threw without a code of the catalogue is the file's doing too: a reader that trips on it.
    if (error instanceof TaskError) throw noPreview('damaged', 'This file cannot be shown: it could not be read.');
    throw error;
  }
}

/** A document file as HTML to show, for a caller whose right to see it was checked. */
export async function htmlOfFile(ctx: AppContext, item: ItemRow, versionId?: string): Promise<TPreviewHtml> {
  const s = await sourceOf(ctx, item, versionId, 'html');
  const kept = (await cache.get(`${s.sha256}:${s.kind}`, async () => {
    const made = await convert<TPreviewHtml>(ctx, DOCUMENT_TASK, 'documentPreview', s);
    return { utf8: Buffer.from(made.html), truncated: made.truncated };
  })) as KeptHtml;
  return { html: kept.utf8.toString(), truncated: kept.truncated };
}

/** A page of a spreadsheet file's sheet, for a caller whose right to see it was checked. */
export async function sheetsOfFile(
  ctx: AppContext,
  item: ItemRow,
  q: { version?: string; sheet: number; offset: number; limit: number },
): Promise<TSheetPreview> {
  const s = await sourceOf(ctx, item, q.version, 'sheets');
  const book = (await cache.get(`${s.sha256}:${s.kind}`, () => convert<Workbook>(ctx, SHEETS_TASK, 'sheetsPreview', s))) as Workbook;
  const sheet = Math.min(q.sheet, book.sheets.length - 1);
  const data = book.sheets[sheet]!;
  // A delimited file has one sheet, named as the file is.
  const nameOf = (name: string) => name || item.name.replace(/\.[^.]*$/, '') || 'Sheet 1';
  return {
    sheets: book.sheets.map((x) => ({ name: nameOf(x.name), rows: x.rows.length, columns: x.columns })),
    sheet,
    offset: q.offset,
    rows: data.rows.slice(q.offset, q.offset + q.limit),
    truncated: book.truncated,
  };
}

/** `GET /items/:id/preview/html`: whoever may download the item (the ability its content needs). */
export async function previewHtml(ctx: AppContext, actor: Actor, id: string, versionId?: string): Promise<TPreviewHtml> {
  const { item } = await requireItem(ctx.db, actor, id, 'download');
  return htmlOfFile(ctx, item, versionId);
}

export async function previewSheets(
  ctx: AppContext,
  actor: Actor,
  id: string,
  q: { version?: string | undefined; sheet: number; offset: number; limit: number },
): Promise<TSheetPreview> {
  const { item } = await requireItem(ctx.db, actor, id, 'download');
  return sheetsOfFile(ctx, item, { sheet: q.sheet, offset: q.offset, limit: q.limit, ...(q.version ? { version: q.version } : {}) });
}
