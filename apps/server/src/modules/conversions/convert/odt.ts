import { Parser } from 'htmlparser2';
import { BoundedZip } from '../../../lib/bounded-zip.ts';
import { UNREAD_PICTURE, type DocumentPictures } from './document-pictures.ts';
import { damaged, noPreview, zipLimits } from './failure.ts';

/** An element's name without its namespace prefix: producers do not all use the usual prefixes. */
export const local = (name: string) => name.slice(name.indexOf(':') + 1);
/** An attribute by its local name, whatever its prefix. */
export const attr = (attrs: Record<string, string>, name: string) => Object.entries(attrs).find(([k]) => local(k) === name)?.[1];

const escapeText = (s: string) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');

/** Elements nested deeper than this are read as text only: a real document nests a few dozen deep. */
const MAX_DEPTH = 200;

/** An OpenDocument file's zip, its type checked, refused when encrypted. */
export async function openOdf(bytes: Uint8Array, maxUnpacked: number, type: 'text' | 'spreadsheet'): Promise<BoundedZip> {
  const what = type === 'text' ? 'an OpenDocument text (.odt)' : 'an OpenDocument spreadsheet (.ods)';
  const zip = await BoundedZip.open(bytes, zipLimits(what, maxUnpacked));
  const mimetype = (await zip.text('mimetype'))?.trim() ?? '';
  if (!zip.has('content.xml') || !mimetype.startsWith(`application/vnd.oasis.opendocument.${type}`)) throw damaged(what);
  if ((await zip.text('META-INF/manifest.xml'))?.includes('encryption-data'))
    throw noPreview('not_supported', 'This file cannot be shown: it is protected by a password.');
  zip.checkDeclared(['content.xml', 'styles.xml']);
  return zip;
}

interface TextStyle {
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
}

/** The bold, italic, underline and strike of named styles, and which list styles are numbered, from a part's style definitions. */
async function readStyles(zip: BoundedZip, part: string, styles: Map<string, TextStyle>, numbered: Set<string>): Promise<void> {
  let current: string | null = null;
  let list: string | null = null;
  let listLevelSeen = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const n = local(name);
        if (n === 'style') current = attr(attrs, 'name') ?? null;
        else if (n === 'text-properties' && current) {
          const s: TextStyle = styles.get(current) ?? {};
          if (attr(attrs, 'font-weight') === 'bold') s.bold = true;
          if (attr(attrs, 'font-style') === 'italic') s.italic = true;
          const u = attr(attrs, 'text-underline-style');
          if (u && u !== 'none') s.underline = true;
          const st = attr(attrs, 'text-line-through-style');
          if (st && st !== 'none') s.strike = true;
          styles.set(current, s);
        } else if (n === 'list-style') {
          list = attr(attrs, 'name') ?? null;
          listLevelSeen = false;
        } else if (list && !listLevelSeen && (n === 'list-level-style-number' || n === 'list-level-style-bullet')) {
          listLevelSeen = true;
          if (n === 'list-level-style-number') numbered.add(list);
        }
      },
      onclosetag(name) {
        const n = local(name);
        if (n === 'style') current = null;
        else if (n === 'list-style') list = null;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  // Style definitions come before the body: content.xml is read for its styles up to the body.
  let body = false;
  await zip.readText(
    part,
    (text) => {
      const at = text.indexOf('<office:body');
      if (at >= 0) body = true;
      parser.write(at >= 0 ? text.slice(0, at) : text);
    },
    () => body,
  );
  parser.end();
}

const MARKS: [keyof TextStyle, string][] = [
  ['bold', 'strong'],
  ['italic', 'em'],
  ['underline', 'u'],
  ['strike', 's'],
];

/**
 * An OpenDocument text's body as simple HTML for the document schema to read: headings, paragraphs,
 * bold, italic, underline and strike (from the styles), lists (numbered or not), tables (with
 * spans), links, line breaks; pictures as their place among `pictures` (those of the file's own
 * parts; a linked one is never read) with their frame's description; notes, annotations and
 * deleted tracked changes left out. At most `maxElements` elements (the rest left out, `cut`).
 */
export async function odtToHtml(
  bytes: Uint8Array,
  maxUnpacked: number,
  maxElements: number,
  pictures: DocumentPictures,
): Promise<{ html: string; cut: boolean }> {
  const zip = await openOdf(bytes, maxUnpacked, 'text');
  const styles = new Map<string, TextStyle>();
  const numbered = new Set<string>();
  await readStyles(zip, 'styles.xml', styles, numbered);
  await readStyles(zip, 'content.xml', styles, numbered);

  const out: string[] = [];
  let elements = 0;
  let cut = false;
  let inBody = false;
  /** Depth inside something left out (notes, annotations, tracked changes). */
  let skipping = 0;
  let depth = 0;
  /** For each open element, what it closes with. */
  const closers: string[] = [];
  /** For each open list, its style (inherited by nested lists that name none). */
  const lists: (string | undefined)[] = [];
  let headerRows = 0;
  /** Open frames, by depth: the picture each holds (its place and where it is written) and its description as it is read. */
  const frames: { depth: number; picture?: { src: string; at: number }; title: string; desc: string }[] = [];
  /** Inside a frame's title or description: its text is the picture's description, not the document's. */
  let describing: 'title' | 'desc' | null = null;
  const picturePart = (href: string) => {
    const name = href.replace(/^\.\//, '');
    return zip.has(name) ? name : undefined;
  };
  const img = (src: string, alt: string) => `<img src="${escapeAttr(src)}" alt="${escapeAttr(alt)}">`;

  const open = (html: string, close: string) => {
    if (++elements > maxElements) cut = true;
    out.push(html);
    closers.push(close);
  };
  const marksOf = (styleName: string | undefined) => {
    const s = styleName ? styles.get(styleName) : undefined;
    const tags = MARKS.filter(([k]) => s?.[k]).map(([, t]) => t);
    return {
      start: tags.map((t) => `<${t}>`).join(''),
      end: [...tags]
        .reverse()
        .map((t) => `</${t}>`)
        .join(''),
    };
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        depth++;
        const n = local(name);
        if (cut) return;
        if (n === 'body') inBody = true;
        if (!inBody) return closers.push('');
        if (skipping || n === 'note' || n === 'annotation' || n === 'tracked-changes' || depth > MAX_DEPTH) {
          skipping++;
          return closers.push('');
        }
        if (n === 'h') {
          const level = Math.min(6, Math.max(1, Number(attr(attrs, 'outline-level')) || 1));
          const m = marksOf(attr(attrs, 'style-name'));
          return open(`<h${level}>${m.start}`, `${m.end}</h${level}>`);
        }
        if (n === 'p') {
          const m = marksOf(attr(attrs, 'style-name'));
          return open(`<p>${m.start}`, `${m.end}</p>`);
        }
        if (n === 'span') {
          const m = marksOf(attr(attrs, 'style-name'));
          return open(m.start, m.end);
        }
        if (n === 'a') {
          const href = attr(attrs, 'href') ?? '';
          return open(`<a href="${escapeAttr(href)}">`, '</a>');
        }
        if (n === 'list') {
          const style = attr(attrs, 'style-name') ?? lists.at(-1);
          lists.push(style);
          const tag = style && numbered.has(style) ? 'ol' : 'ul';
          return open(`<${tag}>`, `</${tag}>`);
        }
        if (n === 'list-item' || n === 'list-header') return open('<li>', '</li>');
        if (n === 'table') return open('<table>', '</table>');
        if (n === 'table-header-rows') {
          headerRows++;
          return closers.push('');
        }
        if (n === 'table-row') return open('<tr>', '</tr>');
        if (n === 'table-cell') {
          const tag = headerRows > 0 ? 'th' : 'td';
          const cols = Number(attr(attrs, 'number-columns-spanned')) || 1;
          const rows = Number(attr(attrs, 'number-rows-spanned')) || 1;
          const span = `${cols > 1 ? ` colspan="${Math.min(cols, 100)}"` : ''}${rows > 1 ? ` rowspan="${Math.min(rows, 1000)}"` : ''}`;
          // A repeated cell is written once per repeat (a few at most in a text's table).
          const repeat = Math.min(100, Math.max(1, Number(attr(attrs, 'number-columns-repeated')) || 1));
          for (let i = 1; i < repeat; i++) out.push(`<${tag}${span}></${tag}>`);
          return open(`<${tag}${span}>`, `</${tag}>`);
        }
        if (n === 'covered-table-cell') {
          skipping++;
          return closers.push('');
        }
        if (n === 'line-break') return open('<br>', '');
        if (n === 's') {
          out.push(' '.repeat(Math.min(100, Math.max(1, Number(attr(attrs, 'c')) || 1))));
          return closers.push('');
        }
        if (n === 'tab') {
          out.push(' ');
          return closers.push('');
        }
        if (n === 'frame') frames.push({ depth, title: '', desc: '' });
        const frame = frames.at(-1);
        if ((n === 'title' || n === 'desc') && frame?.depth === depth - 1) {
          describing = n;
          return closers.push('');
        }
        if (n === 'image') {
          // A picture of the file's own parts is read once the document is, if the preview keeps it.
          const part = picturePart(attr(attrs, 'href') ?? '');
          const src = part ? pictures.add(() => readPart(zip, part)) : UNREAD_PICTURE;
          if (frame && !frame.picture) frame.picture = { src, at: out.length };
          return open(img(src, ''), '');
        }
        closers.push('');
      },
      ontext(text) {
        if (cut || !inBody || skipping) return;
        const frame = frames.at(-1);
        if (describing && frame) {
          frame[describing] += text;
          return;
        }
        // Whitespace between elements is not content in OpenDocument; inside a paragraph it is.
        out.push(escapeText(text.replace(/\s+/g, ' ')));
      },
      onclosetag(name) {
        depth--;
        if (cut) return;
        const n = local(name);
        const closer = closers.pop() ?? '';
        if (skipping) {
          skipping--;
          return;
        }
        if (n === 'list') lists.pop();
        if (n === 'table-header-rows') headerRows--;
        if (n === 'title' || n === 'desc') describing = null;
        const frame = frames.at(-1);
        if (n === 'frame' && frame?.depth === depth + 1) {
          frames.pop();
          if (frame.picture) out[frame.picture.at] = img(frame.picture.src, (frame.desc.trim() || frame.title.trim()).replace(/\s+/g, ' '));
        }
        out.push(closer);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  await zip.readText(
    'content.xml',
    (text) => parser.write(text),
    () => cut,
  );
  if (!cut) parser.end();
  return { html: out.join(''), cut };
}

/** A part of the zip whole, counted against what the file may unpack to (past it, this rejects). */
async function readPart(zip: BoundedZip, name: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  await zip.read(name, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}
