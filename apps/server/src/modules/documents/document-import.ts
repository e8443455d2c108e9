import { IMPORT_EXTENSIONS } from '@cabinet/contracts';
import { fromHTML, fromMarkdown, type PMNode } from '@cabinet/doc-schema/server';
import mammoth from 'mammoth';
import { AppError } from '../../errors.ts';

type ImportKind = keyof typeof IMPORT_EXTENSIONS;

const KINDS = Object.entries(IMPORT_EXTENSIONS).flatMap(([kind, exts]) => exts.map((ext) => [ext, kind as ImportKind] as const));

/** Signatures of files that are not text, whatever their name says. */
const BINARY_SIGNATURES = [[0x50, 0x4b, 0x03, 0x04], [0x25, 0x50, 0x44, 0x46], [0x89, 0x50, 0x4e, 0x47], [0x47, 0x49, 0x46, 0x38], [0xff, 0xd8, 0xff], [0x1f, 0x8b]];
const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);

const unsupported = (message: string) => new AppError('unsupported_media_type', message);

function text(bytes: Uint8Array, what: string): string {
  const notText = unsupported(`This file is not ${what}: its contents are not text.`);
  if (BINARY_SIGNATURES.some((sig) => startsWith(bytes, sig)) || bytes.includes(0)) throw notText;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw notText;
  }
}

async function docxToHtml(bytes: Buffer): Promise<string> {
  const notWord = unsupported('This file is not a Word document (.docx).');
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) throw notWord;
  try {
    // Pictures inside the file are left out: a document's images are files of their own in Cabinet.
    const result = await mammoth.convertToHtml({ buffer: bytes }, { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) });
    return result.value;
  } catch {
    throw notWord;
  }
}

/**
 * A file made into a document's content: Markdown, HTML or Word by its extension, and only if the
 * bytes are what the extension says. Everything goes through the document schema, so scripts,
 * event handlers and unsafe links never get in. Answers the document's name (the file's, less
 * its extension) and its content.
 */
export async function readImport(fileName: string, bytes: Buffer): Promise<{ name: string; content: PMNode }> {
  const dot = fileName.lastIndexOf('.');
  const ext = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  const kind = KINDS.find(([e]) => e === ext)?.[1];
  if (!kind) throw unsupported('Cabinet imports Markdown (.md), HTML (.html) and Word (.docx) files.');
  const name = fileName.slice(0, dot).trim() || 'Untitled';
  const content =
    kind === 'markdown' ? fromMarkdown(text(bytes, 'Markdown'))
    : kind === 'html' ? fromHTML(text(bytes, 'HTML'))
    : fromHTML(await docxToHtml(bytes));
  return { name, content };
}
