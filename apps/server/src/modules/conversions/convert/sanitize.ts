import { PREVIEW_PICTURE_SRC } from '@cabinet/contracts';
import { Parser } from 'htmlparser2';

/** Elements the document schema writes, each with the attributes kept; everything else is dropped (its text kept). */
const ALLOWED: Record<string, readonly string[]> = {
  p: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  strong: [],
  em: [],
  s: [],
  u: [],
  code: ['class'],
  pre: [],
  blockquote: [],
  ul: ['data-type'],
  ol: ['start'],
  li: ['data-type', 'data-checked'],
  hr: [],
  br: [],
  a: ['href'],
  table: [],
  colgroup: [],
  col: [],
  tbody: [],
  thead: [],
  tr: [],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  span: ['class', 'data-type'],
  label: [],
  input: ['type', 'checked'],
  div: [],
  img: ['src', 'alt'],
};
const VOID = new Set(['hr', 'br', 'col', 'input', 'img']);
/** Elements whose content is dropped with them (the schema never writes them; a belt to its braces). */
const DROP_CONTENT = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'noscript', 'textarea', 'select']);

/** Links go only to the web and to mail. */
export const isPreviewLink = (href: string) => /^(https?:\/\/|mailto:)/i.test(href.trim());

const escapeText = (s: string) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
const escapeAttr = (s: string) => s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

function attribute(tag: string, name: string, value: string): string | undefined {
  if (!ALLOWED[tag]?.includes(name)) return undefined;
  if (name === 'href') return isPreviewLink(value) ? value.trim() : undefined;
  if (name === 'src') return PREVIEW_PICTURE_SRC.test(value) ? value : undefined;
  if (name === 'alt') return value;
  if (name === 'class') return tag === 'code' ? (/^language-[\w+#-]{1,40}$/.test(value) ? value : undefined) : value === 'mention' ? value : undefined;
  if (name === 'type') return tag === 'input' ? (value === 'checkbox' ? value : undefined) : value;
  if (name === 'colspan' || name === 'rowspan' || name === 'start') return /^\d{1,4}$/.test(value) ? value : undefined;
  if (name === 'data-type') return /^[a-zA-Z]{1,20}$/.test(value) ? value : undefined;
  if (name === 'data-checked') return value === 'true' || value === 'false' ? value : undefined;
  if (name === 'checked') return 'checked';
  return undefined;
}

/**
 * HTML written again from an allowlist: only the elements a document has, only their harmless
 * attributes (no `style`, no `on…`, links only to http(s) and mail, opened in a new tab with
 * `noopener noreferrer`, pictures only as `data:image/webp;base64,…` with their description),
 * text escaped. What the document schema wrote already holds no more than this; the allowlist
 * makes it so whatever the schema's serializer does. A picture's `src` names one of `pictures` by
 * its place (see document-pictures.ts) and is written as its data; a picture without one is left
 * out. Past `maxBytes` (pictures' data not counted: they have their own limit) the HTML ends after
 * the last whole top-level block that fits, and `truncated` says so.
 */
export function sanitizeHtml(html: string, maxBytes: number, pictures: ReadonlyMap<string, string> = new Map()): { html: string; truncated: boolean } {
  const out: string[] = [];
  let length = 0;
  /** Where the last whole top-level block ended (in `out` entries and bytes). */
  let safeParts = 0;
  let truncated = false;
  const open: (string | null)[] = [];
  let dropping = 0;
  const push = (s: string, uncounted = 0) => {
    out.push(s);
    length += Buffer.byteLength(s) - uncounted;
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (truncated) return;
        if (dropping || DROP_CONTENT.has(name)) {
          if (!VOID.has(name)) dropping++;
          return;
        }
        if (!ALLOWED[name]) {
          if (!VOID.has(name)) open.push(null);
          return;
        }
        let tag = `<${name}`;
        let picture = 0;
        for (const [k, v] of Object.entries(attrs)) {
          const key = k.toLowerCase();
          const kept = attribute(name, key, key === 'src' ? (pictures.get(v) ?? '') : v);
          if (kept === undefined) continue;
          tag += ` ${key}="${escapeAttr(kept)}"`;
          if (key === 'src') picture = kept.length;
        }
        if (name === 'img' && !picture) return;
        if (name === 'a' && attrs.href && isPreviewLink(attrs.href)) tag += ' target="_blank" rel="noopener noreferrer"';
        if (name === 'input') tag += ' disabled';
        push(`${tag}>`, picture);
        if (!VOID.has(name)) open.push(name);
      },
      ontext(text) {
        if (!truncated && !dropping) push(escapeText(text));
      },
      onclosetag(name) {
        if (truncated) return;
        if (dropping) {
          if (!VOID.has(name)) dropping--;
          return;
        }
        if (VOID.has(name)) return;
        const tag = open.pop();
        if (tag) push(`</${tag}>`);
        if (open.length === 0) {
          if (length > maxBytes) {
            truncated = true;
            out.length = safeParts;
            return;
          }
          safeParts = out.length;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  if (!truncated && length > maxBytes) {
    truncated = true;
    out.length = safeParts;
  }
  return { html: out.join(''), truncated };
}
