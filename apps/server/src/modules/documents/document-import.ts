import type { Readable } from 'node:stream';
import { IMPORT_EXTENSIONS, MAX_IMPORT_BYTES, ZItemName } from '@cabinet/contracts';
import { documentText, documentUpdate, fromHTML, fromMarkdown } from '@cabinet/doc-schema/server';
import JSZip from 'jszip';
import { AppError } from '../../errors.ts';
import { taskFailure, tooComplex as beyondLimits, type WorkerPool } from '../../infra/workers/pool.ts';

type ImportKind = keyof typeof IMPORT_EXTENSIONS;

const KINDS = Object.entries(IMPORT_EXTENSIONS).flatMap(([kind, exts]) => exts.map((ext) => [ext, kind as ImportKind] as const));

/**
 * What a file to import may hold, checked before it is parsed. Reading costs time and memory in
 * proportion to the elements: 30,000 is a few hundred pages, and reads in seconds.
 */
export const MAX_IMPORT_ELEMENTS = 30_000;
/** A Markdown line longer than this (a whole book on one line) costs its parser time in the square of its length, and stack. */
export const MAX_IMPORT_LINE = 20_000;
/** A Word file is a zip: what it holds unpacked counts against the import limit, not only its packed size. */
const MAX_DOCX_UNPACKED_BYTES = MAX_IMPORT_BYTES;

/** Signatures of files that are not text, whatever their name says. */
const BINARY_SIGNATURES = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x25, 0x50, 0x44, 0x46],
  [0x89, 0x50, 0x4e, 0x47],
  [0x47, 0x49, 0x46, 0x38],
  [0xff, 0xd8, 0xff],
  [0x1f, 0x8b],
];
const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

const unsupported = (message: string) => new AppError('unsupported_media_type', message);
const TOO_COMPLEX = 'This file is too complex to import';
const tooComplex = (why: string) => beyondLimits(TOO_COMPLEX, why);

function text(bytes: Uint8Array, what: string): string {
  const notText = unsupported(`This file is not ${what}: its contents are not text.`);
  if (BINARY_SIGNATURES.some((sig) => startsWith(bytes, sig)) || bytes.includes(0)) throw notText;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw notText;
  }
}

function count(source: string, pattern: RegExp, limit: number): number {
  let n = 0;
  for (pattern.lastIndex = 0; n <= limit && pattern.exec(source); n++);
  return n;
}

const tooManyElements = () => tooComplex(`it has more than ${MAX_IMPORT_ELEMENTS.toLocaleString('en')} paragraphs and other elements`);

function checkHTML(html: string): string {
  if (count(html, /<[a-zA-Z]/g, MAX_IMPORT_ELEMENTS) > MAX_IMPORT_ELEMENTS) throw tooManyElements();
  return html;
}

function checkMarkdown(markdown: string): string {
  let lines = 0;
  for (let at = 0; at < markdown.length;) {
    const end = markdown.indexOf('\n', at);
    const stop = end < 0 ? markdown.length : end;
    if (stop - at > MAX_IMPORT_LINE) throw tooComplex(`a line is longer than ${MAX_IMPORT_LINE.toLocaleString('en')} characters`);
    if (/\S/.test(markdown.slice(at, stop)) && ++lines > MAX_IMPORT_ELEMENTS) throw tooManyElements();
    at = stop + 1;
  }
  return markdown;
}

/** The unpacked size of the parts a Word reader reads, counted while unpacking: a file that unpacks past the limit stops there. */
async function checkDocx(bytes: Uint8Array): Promise<void> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw unsupported('This file is not a Word document (.docx).');
  }
  let unpacked = 0;
  const tooLarge = new AppError('file_too_large', `A Word file to import can hold at most ${MAX_DOCX_UNPACKED_BYTES / 1024 / 1024} MiB unpacked.`);
  // Pictures are left out of the import (see docxToHtml), so only the rest is read.
  const parts = Object.values(zip.files).filter((f) => !f.dir && !f.name.startsWith('word/media/'));
  for (const part of parts) {
    await new Promise<void>((resolve, reject) => {
      const stream = part.nodeStream('nodebuffer') as Readable;
      stream
        .on('data', (chunk: Buffer) => {
          unpacked += chunk.length;
          if (unpacked > MAX_DOCX_UNPACKED_BYTES) {
            stream.destroy();
            reject(tooLarge);
          }
        })
        .on('error', () => reject(unsupported('This file is not a Word document (.docx).')))
        .on('end', () => resolve());
    });
  }
  const body = await zip.file('word/document.xml')?.async('string');
  if (body && count(body, /<w:p[\s>/]/g, MAX_IMPORT_ELEMENTS) > MAX_IMPORT_ELEMENTS) throw tooManyElements();
}

async function docxToHtml(bytes: Uint8Array): Promise<string> {
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) throw unsupported('This file is not a Word document (.docx).');
  await checkDocx(bytes);
  // Loaded by the worker that reads Word files (the server's main thread never needs it).
  const { default: mammoth } = await import('mammoth');
  try {
    // Pictures inside the file are left out: a document's images are files of their own in Cabinet.
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    );
    return result.value;
  } catch {
    throw unsupported('This file is not a Word document (.docx).');
  }
}

export interface ConvertedImport {
  /** The document's Yjs state, one update with the whole document. */
  state: Uint8Array;
  text: string;
}

/**
 * Runs in a worker of the pool (see `importFile`): a file made into a document's content —
 * Markdown, HTML or Word, and only if the bytes are what the extension says, and only if it is no
 * more complex than the limits above. Everything goes through the document schema, so scripts,
 * event handlers and unsafe links never get in.
 */
export async function convertImport({ kind, bytes }: { kind: ImportKind; bytes: Uint8Array }): Promise<ConvertedImport> {
  try {
    const content =
      kind === 'markdown'
        ? fromMarkdown(checkMarkdown(text(bytes, 'Markdown')))
        : kind === 'html'
          ? await fromHTML(checkHTML(text(bytes, 'HTML')))
          : await fromHTML(checkHTML(await docxToHtml(bytes)));
    return { state: documentUpdate(content), text: documentText(content) };
  } catch (error) {
    // Nesting deeper than the parsers' stack: as complex as a file gets.
    if (error instanceof RangeError) throw tooComplex('it nests too deeply');
    throw error;
  }
}

const DEFAULT_NAME = 'Imported document';
/** This module, which the workers load to convert a file (named by its file, as the server's build finds it: ADR 0073). */
const SELF = new URL('./document-import.ts', import.meta.url);

/** Starts a worker with this module loaded, so the first import after a start answers as fast as the next. */
export function warmImports(workers: WorkerPool): void {
  workers.warm([SELF]);
}

/**
 * A document made from a file, read in a worker off the main thread: its name (the file's, less
 * its extension, when that is a valid name), its state and its text. A file too slow or too large
 * to read ends its worker and answers what was wrong; the server goes on.
 */
export async function importFile(workers: WorkerPool, fileName: string, bytes: Uint8Array): Promise<ConvertedImport & { name: string }> {
  const dot = fileName.lastIndexOf('.');
  const ext = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  const kind = KINDS.find(([e]) => e === ext)?.[1];
  if (!kind) throw unsupported('Cabinet imports Markdown (.md), HTML (.html) and Word (.docx) files.');
  const stem = ZItemName.safeParse(fileName.slice(0, dot).trim());
  const name = stem.success ? stem.data : DEFAULT_NAME;
  try {
    return { name, ...(await workers.run<ConvertedImport>(SELF, 'convertImport', { kind, bytes })) };
  } catch (error) {
    throw taskFailure(error, TOO_COMPLEX, workers.options.timeoutMs);
  }
}
