import { PREVIEW_LIMITS, type PreviewKind } from '@cabinet/contracts';
import { fromHTML, fromMarkdown, nodeFromJSON, toHTML, type JSONContent } from '@cabinet/doc-schema/server';
import mammoth from 'mammoth';
import { BoundedZip } from '../../../lib/bounded-zip.ts';
import { damaged, noPreview, zipLimits } from './failure.ts';
import { odtToHtml } from './odt.ts';
import { isPreviewLink, sanitizeHtml } from './sanitize.ts';

/**
 * What a document to show may hold before the rest is left out (the preview says it is cut):
 * elements cost the schema's reader time and memory in proportion (30,000 read in seconds, ADR
 * 0016); a Markdown line past 20,000 characters costs its parser time in its square.
 */
export const MAX_ELEMENTS = 30_000;
export const MAX_LINE = 20_000;
/** What a Word or OpenDocument file may unpack to, all its parts together. */
export const MAX_DOCUMENT_UNPACKED = 64 * 1024 * 1024;

/** A picture's place in a preview: its text, never its bytes nor an address to fetch (see ADR 0039). */
export const PICTURE_SRC = '/picture';

/** Text of a file that says it is text: not if it starts like a binary format or holds NUL; UTF-8, else Windows-1252. */
export function decodeText(bytes: Uint8Array, what: string): string {
  const zipOrPdf = (bytes[0] === 0x50 && bytes[1] === 0x4b) || (bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46);
  if (zipOrPdf || bytes.subarray(0, 65536).includes(0)) throw damaged(what);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Markdown cut to the limits: long lines shortened, lines past the element limit left out. */
function boundedMarkdown(source: string): { markdown: string; cut: boolean } {
  const lines: string[] = [];
  let blocks = 0;
  let cut = false;
  for (let at = 0; at < source.length;) {
    const end = source.indexOf('\n', at);
    const stop = end < 0 ? source.length : end;
    let line = source.slice(at, stop);
    if (line.length > MAX_LINE) {
      line = line.slice(0, MAX_LINE);
      cut = true;
    }
    if (/\S/.test(line) && ++blocks > MAX_ELEMENTS) {
      cut = true;
      break;
    }
    lines.push(line);
    at = stop + 1;
  }
  return { markdown: lines.join('\n'), cut };
}

/** HTML cut before its element past the limit (the schema's reader closes what is left open). */
function boundedHtml(html: string): { html: string; cut: boolean } {
  const pattern = /<[a-zA-Z]/g;
  for (let n = 0; pattern.exec(html); n++) if (n >= MAX_ELEMENTS) return { html: html.slice(0, pattern.lastIndex - 2), cut: true };
  return { html, cut: false };
}

async function docxToHtml(bytes: Uint8Array): Promise<string> {
  const zip = await BoundedZip.open(bytes, zipLimits('a Word document', MAX_DOCUMENT_UNPACKED));
  if (!zip.has('word/document.xml')) throw damaged('a Word document');
  // mammoth unpacks every part it reads: each is unpacked and counted first, so a bomb stops here.
  await zip.checkUnpacked();
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // Pictures are not read: each leaves its place and its description, which mammoth adds as alt (see ADR 0039).
      { convertImage: mammoth.images.imgElement(async () => ({ src: PICTURE_SRC })) },
    );
    return result.value;
  } catch {
    throw damaged('a Word document');
  }
}

/**
 * The preview's own rules on top of the schema's: a picture becomes its description in italics
 * (its bytes are never read, a remote one never fetched), and a link goes only to the web or mail
 * (not to Cabinet's own paths, nor to an anchor).
 */
function forPreview(json: JSONContent): JSONContent {
  if (json.type === 'image') {
    const alt = typeof json.attrs?.alt === 'string' && json.attrs.alt.trim() ? `: ${json.attrs.alt.trim().slice(0, 200)}` : '';
    return { type: 'text', text: `[Picture${alt}]`, marks: [{ type: 'italic' }] };
  }
  const marks = json.marks?.filter((m) => m.type !== 'link' || (typeof m.attrs?.href === 'string' && isPreviewLink(m.attrs.href)));
  return { ...json, ...(marks ? { marks } : {}), ...(json.content ? { content: json.content.map(forPreview) } : {}) };
}

/**
 * Runs in a worker of the pool: a document file (Markdown, DOCX, ODT) as HTML to show. Everything
 * goes through the document schema (ADR 0011) — its reader keeps only the elements a document has
 * — and is then written again from an allowlist (sanitize.ts): no scripts, styles, event handlers
 * or pictures, links only to http(s) and mail. A document past the limits is shown cut, and says so.
 */
export async function documentPreview({ kind, bytes }: { kind: PreviewKind; bytes: Uint8Array }): Promise<{ html: string; truncated: boolean }> {
  try {
    let cut = false;
    let node;
    if (kind === 'markdown') {
      const bounded = boundedMarkdown(decodeText(bytes, 'Markdown text'));
      cut = bounded.cut;
      node = fromMarkdown(bounded.markdown);
    } else {
      const source = kind === 'docx' ? await docxToHtml(bytes) : kind === 'odt' ? await odtToHtml(bytes, MAX_DOCUMENT_UNPACKED, MAX_ELEMENTS) : null;
      if (source === null) throw noPreview('not_supported', 'This kind of file is not shown as a document.');
      const bounded = boundedHtml(typeof source === 'string' ? source : source.html);
      cut = bounded.cut || (typeof source !== 'string' && source.cut);
      node = fromHTML(bounded.html);
    }
    const html = toHTML(nodeFromJSON(forPreview(node.toJSON() as JSONContent)));
    const clean = sanitizeHtml(html, PREVIEW_LIMITS.htmlBytes);
    return { html: clean.html, truncated: cut || clean.truncated };
  } catch (error) {
    // Nesting deeper than the parsers' stack: as complex as a file gets.
    if (error instanceof RangeError) throw noPreview('too_complex', 'This file cannot be shown: it nests too deeply.');
    throw error;
  }
}
