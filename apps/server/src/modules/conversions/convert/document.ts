import { PREVIEW_LIMITS, type PreviewKind } from '@cabinet/contracts';
import { fromHTML, fromMarkdown, nodeFromJSON, toHTML, type JSONContent } from '@cabinet/doc-schema/server';
import mammoth from 'mammoth';
import { BoundedZip } from '../../../lib/bounded-zip.ts';
import { DocumentPictures } from './document-pictures.ts';
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

async function docxToHtml(bytes: Uint8Array, pictures: DocumentPictures): Promise<string> {
  const zip = await BoundedZip.open(bytes, zipLimits('a Word document', MAX_DOCUMENT_UNPACKED));
  if (!zip.has('word/document.xml')) throw damaged('a Word document');
  // mammoth unpacks every part it reads: each is unpacked and counted first, so a bomb stops here.
  await zip.checkUnpacked();
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // Pictures are read later, those the preview keeps (see document-pictures.ts); mammoth adds their description as alt.
      // A linked picture's read fails (mammoth reads no file outside the document): it stays its description.
      { convertImage: mammoth.images.imgElement(async (image) => ({ src: pictures.add(() => image.readAsBuffer().catch(() => undefined)) })) },
    );
    return result.value;
  } catch {
    throw damaged('a Word document');
  }
}

/** The places of a document's pictures, in its order. */
function picturePlaces(json: JSONContent, places: string[] = []): string[] {
  if (json.type === 'image' && typeof json.attrs?.src === 'string') places.push(json.attrs.src);
  for (const child of json.content ?? []) picturePlaces(child, places);
  return places;
}

/**
 * The preview's own rules on top of the schema's: a picture is shown only when it is one of the
 * file's own, made into WebP (`shown`, by place); any other becomes its description in italics
 * (a remote one is never fetched). A link goes only to the web or mail (not to Cabinet's own
 * paths, nor to an anchor).
 */
function forPreview(json: JSONContent, shown: ReadonlyMap<string, string>): JSONContent {
  if (json.type === 'image') {
    const alt = typeof json.attrs?.alt === 'string' ? json.attrs.alt.trim().slice(0, 200) : '';
    if (typeof json.attrs?.src === 'string' && shown.has(json.attrs.src)) return { type: 'image', attrs: { src: json.attrs.src, alt } };
    return { type: 'text', text: `[Picture${alt ? `: ${alt}` : ''}]`, marks: [{ type: 'italic' }] };
  }
  const marks = json.marks?.filter((m) => m.type !== 'link' || (typeof m.attrs?.href === 'string' && isPreviewLink(m.attrs.href)));
  return { ...json, ...(marks ? { marks } : {}), ...(json.content ? { content: json.content.map((c) => forPreview(c, shown)) } : {}) };
}

/**
 * Runs in a worker of the pool: a document file (Markdown, DOCX, ODT) as HTML to show. Everything
 * goes through the document schema (ADR 0011) — its reader keeps only the elements a document has
 * — and is then written again from an allowlist (sanitize.ts): no scripts, styles or event
 * handlers, links only to http(s) and mail, pictures only the file's own, made into WebP and
 * written in the HTML. A document past the limits is shown cut, and says so.
 */
export async function documentPreview({ kind, bytes }: { kind: PreviewKind; bytes: Uint8Array }): Promise<{ html: string; truncated: boolean }> {
  try {
    let cut = false;
    let node;
    const pictures = new DocumentPictures();
    if (kind === 'markdown') {
      const bounded = boundedMarkdown(decodeText(bytes, 'Markdown text'));
      cut = bounded.cut;
      node = fromMarkdown(bounded.markdown);
    } else {
      const source =
        kind === 'docx' ? await docxToHtml(bytes, pictures) : kind === 'odt' ? await odtToHtml(bytes, MAX_DOCUMENT_UNPACKED, MAX_ELEMENTS, pictures) : null;
      if (source === null) throw noPreview('not_supported', 'This kind of file is not shown as a document.');
      const bounded = boundedHtml(typeof source === 'string' ? source : source.html);
      cut = bounded.cut || (typeof source !== 'string' && source.cut);
      node = await fromHTML(bounded.html);
    }
    const json = node.toJSON() as JSONContent;
    const shown = await pictures.embed(picturePlaces(json));
    const html = await toHTML(nodeFromJSON(forPreview(json, shown.pictures)));
    const clean = sanitizeHtml(html, PREVIEW_LIMITS.htmlBytes, shown.pictures);
    return { html: clean.html, truncated: cut || shown.cut || clean.truncated };
  } catch (error) {
    // Nesting deeper than the parsers' stack: as complex as a file gets.
    if (error instanceof RangeError) throw noPreview('too_complex', 'This file cannot be shown: it nests too deeply.');
    throw error;
  }
}
