import { createRequire } from 'node:module';
import path from 'node:path';
import type { JSONContent } from '@cabinet/doc-schema/server';
import pdfmake from 'pdfmake';
import type { Content, ContentText, TDocumentDefinitions } from 'pdfmake';

const fontsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')), 'fonts', 'Roboto');
const COURIER = { normal: 'Courier', bold: 'Courier-Bold', italics: 'Courier-Oblique', bolditalics: 'Courier-BoldOblique' };
pdfmake.setFonts({
  Roboto: {
    normal: path.join(fontsDir, 'Roboto-Regular.ttf'),
    bold: path.join(fontsDir, 'Roboto-Medium.ttf'),
    italics: path.join(fontsDir, 'Roboto-Italic.ttf'),
    bolditalics: path.join(fontsDir, 'Roboto-MediumItalic.ttf'),
  },
  Courier: COURIER,
});
// A document's addresses are the author's: the server fetches none of them while printing.
pdfmake.setUrlAccessPolicy(() => false);
// The fonts are the only files it reads (Courier is built into PDF readers).
pdfmake.setLocalAccessPolicy((file) => Object.values(COURIER).includes(file) || path.resolve(file).startsWith(fontsDir + path.sep));

const HEADING_SIZES = [22, 18, 15, 13, 12, 11];
const LINK_COLOUR = '#1c64d6';
type Inline = ContentText | string;

function inlines(nodes: JSONContent[] | undefined): Inline[] {
  const out: Inline[] = [];
  for (const n of nodes ?? []) {
    if (n.type === 'hardBreak') out.push('\n');
    else if (n.type === 'mention') out.push({ text: `@${n.attrs?.label ?? n.attrs?.id ?? ''}`, color: LINK_COLOUR });
    else if (n.type === 'image') out.push({ text: `[image${n.attrs?.alt ? `: ${n.attrs.alt}` : ''}]`, italics: true, color: '#666666' });
    else if (n.type === 'text') {
      const run: ContentText = { text: n.text ?? '' };
      for (const mark of n.marks ?? []) {
        if (mark.type === 'bold') run.bold = true;
        else if (mark.type === 'italic') run.italics = true;
        else if (mark.type === 'strike') run.decoration = 'lineThrough';
        else if (mark.type === 'underline') run.decoration = 'underline';
        else if (mark.type === 'code') Object.assign(run, { font: 'Courier', background: '#eeeeee' });
        else if (mark.type === 'link' && typeof mark.attrs?.href === 'string')
          Object.assign(run, { link: mark.attrs.href, color: LINK_COLOUR, decoration: 'underline' });
      }
      out.push(run);
    }
  }
  return out;
}

const textOf = (node: JSONContent): string => (node.type === 'text' ? (node.text ?? '') : (node.content ?? []).map(textOf).join(''));

function blocks(nodes: JSONContent[] | undefined, images: Images): Content[] {
  return (nodes ?? []).map((n) => block(n, images));
}

/** The pictures an export can show, by `src` (as data URLs). */
type Images = Map<string, string>;

/** A paragraph's text; pictures the export carries stand between its runs of text, each on its own line. */
function paragraph(content: JSONContent[] | undefined, margin: [number, number, number, number], images: Images): Content {
  if (!content?.length) return { text: ' ', margin };
  const parts: Content[] = [];
  let run: JSONContent[] = [];
  const flush = () => {
    if (run.length) parts.push({ text: inlines(run) });
    run = [];
  };
  for (const n of content) {
    const data = n.type === 'image' && typeof n.attrs?.src === 'string' ? images.get(n.attrs.src) : undefined;
    if (data) {
      flush();
      parts.push({ image: data, fit: [515, 400], margin: [0, 4, 0, 4] });
    } else run.push(n);
  }
  flush();
  return parts.length === 1 && 'text' in (parts[0] as object) ? { ...(parts[0] as object), margin } : { stack: parts, margin };
}

/** A list item's blocks, closer together than the document's. */
function listBlocks(nodes: JSONContent[] | undefined, images: Images): Content[] {
  return (nodes ?? []).map((n) => (n.type === 'paragraph' ? paragraph(n.content, [0, 0, 0, 2], images) : block(n, images)));
}

/** A task's box, drawn (the text fonts have no ballot box), ticked when done. */
function checkbox(checked: boolean): Content {
  const box = { type: 'rect', x: 0, y: 2.5, w: 8, h: 8, r: 1, lineWidth: 0.8, lineColor: '#555555' };
  const tick = {
    type: 'polyline',
    points: [
      { x: 1.6, y: 6.5 },
      { x: 3.4, y: 8.6 },
      { x: 6.6, y: 4.2 },
    ],
    lineWidth: 1.2,
    lineColor: '#222222',
  };
  return { canvas: checked ? [box, tick] : [box] };
}

function block(node: JSONContent, images: Images): Content {
  switch (node.type) {
    case 'heading': {
      const level = Math.min(Math.max(Number(node.attrs?.level ?? 1), 1), 6);
      return { text: inlines(node.content), fontSize: HEADING_SIZES[level - 1], bold: true, margin: [0, level === 1 ? 12 : 8, 0, 6] };
    }
    case 'paragraph':
      return paragraph(node.content, [0, 0, 0, 6], images);
    case 'bulletList':
      return { ul: (node.content ?? []).map((li) => ({ stack: listBlocks(li.content, images) })), margin: [0, 0, 0, 6] };
    case 'orderedList':
      return { ol: (node.content ?? []).map((li) => ({ stack: listBlocks(li.content, images) })), start: Number(node.attrs?.start ?? 1), margin: [0, 0, 0, 6] };
    case 'taskList':
      return {
        table: {
          widths: [12, '*'],
          body: (node.content ?? []).map((item) => [checkbox(Boolean(item.attrs?.checked)), { stack: listBlocks(item.content, images) }]),
        },
        layout: 'noBorders',
        margin: [0, 0, 0, 6],
      };
    case 'blockquote':
      return {
        table: { widths: ['*'], body: [[{ stack: blocks(node.content, images), color: '#555555' }]] },
        layout: { hLineWidth: () => 0, vLineWidth: (i: number) => (i === 0 ? 2 : 0), vLineColor: () => '#cccccc', paddingLeft: () => 10 },
        margin: [0, 0, 0, 6],
      };
    case 'codeBlock':
      return {
        table: { widths: ['*'], body: [[{ text: textOf(node), font: 'Courier', fontSize: 9, preserveLeadingSpaces: true }]] },
        layout: { hLineWidth: () => 0, vLineWidth: () => 0, fillColor: () => '#f3f3f3', paddingTop: () => 6, paddingBottom: () => 6, paddingLeft: () => 8 },
        margin: [0, 0, 0, 8],
      };
    case 'horizontalRule':
      return { canvas: [{ type: 'line', x1: 0, y1: 4, x2: 515, y2: 4, lineWidth: 0.5, lineColor: '#bbbbbb' }], margin: [0, 4, 0, 10] };
    case 'table':
      return table(node, images);
    default:
      return { stack: blocks(node.content, images) };
  }
}

/** Rows padded to one width (cells spanning columns leave the placeholders pdfmake expects). */
function table(node: JSONContent, images: Images): Content {
  const rows = (node.content ?? []).map((row) =>
    (row.content ?? []).flatMap((cell) => {
      const span = Math.max(1, Number(cell.attrs?.colspan ?? 1));
      const content = {
        stack: blocks(cell.content, images),
        bold: cell.type === 'tableHeader',
        fillColor: cell.type === 'tableHeader' ? '#f0f0f0' : undefined,
        ...(span > 1 ? { colSpan: span } : {}),
      };
      return [content, ...Array.from({ length: span - 1 }, () => ({ text: '' }))];
    }),
  );
  const width = Math.max(1, ...rows.map((r) => r.length));
  const body = rows.map((r) => [...r, ...Array.from({ length: width - r.length }, () => ({ text: '' }))]);
  const headerRows = (node.content?.[0]?.content ?? []).every((c) => c.type === 'tableHeader') ? 1 : 0;
  return { table: { headerRows, widths: Array.from({ length: width }, () => '*'), body: body.length ? body : [[{ text: '' }]] }, margin: [0, 0, 0, 8] };
}

/** The document as a PDF (A4): its text, structure, links, tables and the pictures given; other images as their descriptions. */
export async function documentPdf(content: JSONContent, title: string, images: Images = new Map()): Promise<Buffer> {
  const definition = (shown: Images): TDocumentDefinitions => ({
    info: { title },
    pageSize: 'A4',
    pageMargins: [40, 48, 40, 48],
    defaultStyle: { font: 'Roboto', fontSize: 10.5, lineHeight: 1.25 },
    content: blocks(content.content, shown),
  });
  try {
    return Buffer.from(await pdfmake.createPdf(definition(images)).getBuffer());
  } catch (error) {
    // A picture the PDF library cannot read (a file named .png that is not one) must not cost the export.
    if (!images.size) throw error;
    return Buffer.from(await pdfmake.createPdf(definition(new Map())).getBuffer());
  }
}
