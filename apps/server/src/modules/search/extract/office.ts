import path from 'node:path';
import type { Handler } from 'htmlparser2';
import mammoth from 'mammoth';
import { BoundedZip, type ZipLimits } from '../../../lib/bounded-zip.ts';
import { MAX_UNPACKED_BYTES } from './limits.ts';
import { markupParser, TooDeep } from './markup.ts';
import { ExtractFailure, type TextSink } from './text-sink.ts';

export type OfficeKind = 'docx' | 'xlsx' | 'pptx' | 'odf';

const MiB = 1024 * 1024;

/** An office file's zip is read within MAX_UNPACKED_BYTES; what stops it is said in the details panel's words. */
const ZIP_LIMITS: ZipLimits = {
  maxUnpacked: MAX_UNPACKED_BYTES,
  damaged: () => new ExtractFailure('It is damaged: its contents cannot be unpacked.'),
  tooLarge: () => new ExtractFailure(`It unpacks to more than ${MAX_UNPACKED_BYTES / MiB} MiB of content, more than is read.`),
};

/** Opens an office file's zip: its central directory only, nothing is unpacked. */
export const openOfficeZip = (bytes: Uint8Array): Promise<BoundedZip> => BoundedZip.open(bytes, ZIP_LIMITS);

const ODF_TYPES = /^application\/vnd\.oasis\.opendocument\.(text|spreadsheet|presentation)/;

/** Which office format a zip holds, by the parts each format must have; null for any other zip. */
export async function officeKindOf(zip: BoundedZip): Promise<OfficeKind | null> {
  if (zip.has('word/document.xml')) return 'docx';
  if (zip.has('xl/workbook.xml')) return 'xlsx';
  if (zip.has('ppt/presentation.xml')) return 'pptx';
  // ODF names its type in a small first entry, `mimetype`.
  if (zip.has('content.xml') && ODF_TYPES.test((await zip.text('mimetype'))?.trim() ?? '')) return 'odf';
  return null;
}

/** An office file's text into `sink`, for a zip `officeKindOf` recognised. */
export async function readOffice(kind: OfficeKind, zip: BoundedZip, bytes: Uint8Array, sink: TextSink): Promise<void> {
  if (kind === 'docx') return readDocx(zip, bytes, sink);
  if (kind === 'xlsx') return readXlsx(zip, sink);
  if (kind === 'pptx') return readPptx(zip, sink);
  return readOdf(zip, sink);
}

/** An element's name without its namespace prefix: producers do not all use the usual prefixes. */
const local = (name: string) => name.slice(name.indexOf(':') + 1);
/** A relationship id attribute (`r:id`, whatever the prefix). */
const relId = (attrs: Record<string, string>) => Object.entries(attrs).find(([k]) => k.includes(':') && local(k) === 'id')?.[1];

/** A part's XML, streamed through `handler`; a part that nests too deeply is read up to there (and the text marked truncated). */
async function parse(zip: BoundedZip, name: string, sink: TextSink | null, handler: Partial<Handler>): Promise<void> {
  const parser = markupParser(handler, true);
  try {
    await zip.readText(
      name,
      (text) => parser.write(text),
      () => !!sink?.full,
    );
    parser.end();
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    sink?.cut();
  }
}

/**
 * Word: mammoth reads the text. What it may unpack (any part: relationships can name a main
 * document of any name) is first unpacked once and counted, so a bomb stops before mammoth holds it.
 */
async function readDocx(zip: BoundedZip, bytes: Uint8Array, sink: TextSink): Promise<void> {
  await zip.checkUnpacked();
  let text: string;
  try {
    text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
  } catch {
    throw new ExtractFailure('It is damaged: it cannot be read as a Word document.');
  }
  sink.text(text);
}

/**
 * The parts a main part lists, in its order: sheets in the workbook's order, slides in the
 * presentation's. They are named by relationship ids, resolved through the main part's `.rels`;
 * a file without them falls back to the parts' numbers (sheet1, sheet2, …).
 */
async function listedParts(zip: BoundedZip, main: string, element: string, fallback: RegExp): Promise<{ part: string; name?: string }[]> {
  const targets = new Map<string, string>();
  const rels = path.posix.join(path.posix.dirname(main), '_rels', `${path.posix.basename(main)}.rels`);
  await parse(zip, rels, null, {
    onopentag(name, attrs) {
      if (local(name) !== 'Relationship' || !attrs.Id || !attrs.Target || attrs.TargetMode === 'External') return;
      const target = attrs.Target.startsWith('/') ? attrs.Target.slice(1) : path.posix.join(path.posix.dirname(main), attrs.Target);
      targets.set(attrs.Id, path.posix.normalize(target));
    },
  });
  const listed: { part: string; name?: string }[] = [];
  await parse(zip, main, null, {
    onopentag(name, attrs) {
      const part = local(name) === element ? targets.get(relId(attrs) ?? '') : undefined;
      if (part && zip.has(part)) listed.push({ part, name: attrs.name });
    },
  });
  if (listed.length > 0) return listed;
  const number = (n: string) => Number(fallback.exec(n)?.[1]);
  return zip
    .names()
    .filter((n) => fallback.test(n))
    .sort((a, b) => number(a) - number(b))
    .map((part) => ({ part }));
}

/** Excel: each sheet's name, then its cells row by row: shared and inline strings, numbers and formulas' results. */
async function readXlsx(zip: BoundedZip, sink: TextSink): Promise<void> {
  const sheets = await listedParts(zip, 'xl/workbook.xml', 'sheet', /^xl\/worksheets\/sheet(\d+)\.xml$/);
  zip.checkDeclared(['xl/sharedStrings.xml', ...sheets.map((s) => s.part)]);
  // Cells name shared strings by index, so they are all kept; they are bounded by what the zip may unpack.
  const strings: string[] = [];
  let item: string[] | null = null;
  let phonetic = 0;
  await parse(zip, 'xl/sharedStrings.xml', null, {
    onopentag(name) {
      if (local(name) === 'si') item = [];
      else if (local(name) === 'rPh') phonetic++;
    },
    ontext(text) {
      if (item && phonetic === 0) item.push(text);
    },
    onclosetag(name) {
      if (local(name) === 'rPh') phonetic--;
      else if (local(name) === 'si' && item) {
        strings.push(item.join(''));
        item = null;
      }
    },
  });
  for (const sheet of sheets) {
    if (sink.full) return;
    if (sheet.name) sink.text(sheet.name);
    sink.line();
    let type: string | undefined;
    let value: string[] | null = null;
    await parse(zip, sheet.part, sink, {
      onopentag(name, attrs) {
        const n = local(name);
        if (n === 'c') type = attrs.t;
        // A cell's value is in <v> (numbers, shared string indexes, formula results) or inline in <is><t>.
        else if (n === 'v' || (n === 't' && type === 'inlineStr')) value = [];
      },
      ontext(text) {
        value?.push(text);
      },
      onclosetag(name) {
        const n = local(name);
        if (n === 'row') sink.line();
        if ((n !== 'v' && n !== 't') || !value) return;
        const raw = value.join('');
        value = null;
        // Booleans and error codes are not words anyone searches for.
        if (type === 'b' || type === 'e') return;
        sink.text(type === 's' ? (strings[Number(raw)] ?? '') : raw);
        sink.space();
      },
    });
  }
}

/** PowerPoint: the text runs (<a:t>) of each slide, in the presentation's order. */
async function readPptx(zip: BoundedZip, sink: TextSink): Promise<void> {
  const slides = await listedParts(zip, 'ppt/presentation.xml', 'sldId', /^ppt\/slides\/slide(\d+)\.xml$/);
  zip.checkDeclared(slides.map((s) => s.part));
  for (const { part } of slides) {
    if (sink.full) return;
    let inRun = false;
    await parse(zip, part, sink, {
      onopentag(name) {
        const n = local(name);
        if (n === 't') inRun = true;
        else if (n === 'br') sink.line();
      },
      ontext(text) {
        if (inRun) sink.text(text);
      },
      onclosetag(name) {
        const n = local(name);
        if (n === 't') inRun = false;
        else if (n === 'p') sink.line();
      },
    });
    sink.line();
  }
}

/** OpenDocument (text, spreadsheet, presentation): content.xml's text, a line per paragraph or table row, deleted tracked changes left out. */
async function readOdf(zip: BoundedZip, sink: TextSink): Promise<void> {
  // An encrypted OpenDocument keeps a readable manifest that says so; its content.xml is ciphertext.
  if ((await zip.text('META-INF/manifest.xml'))?.includes('encryption-data')) throw new ExtractFailure('It is protected by a password.');
  zip.checkDeclared(['content.xml']);
  let deleted = 0;
  let cells = 0;
  await parse(zip, 'content.xml', sink, {
    onopentag(name) {
      const n = local(name);
      if (n === 'tracked-changes') deleted++;
      else if (n === 'table-cell') cells++;
      else if (n === 's' || n === 'tab') sink.space();
      else if (n === 'line-break') sink.line();
    },
    ontext(text) {
      if (deleted === 0) sink.text(text);
    },
    onclosetag(name) {
      const n = local(name);
      if (n === 'tracked-changes') deleted--;
      else if (n === 'table-cell') {
        cells--;
        sink.space();
      } else if (n === 'table-row') sink.line();
      // A cell's paragraphs stay on its row.
      else if (n === 'p' || n === 'h') {
        if (cells > 0) sink.space();
        else sink.line();
      }
    },
  });
}
