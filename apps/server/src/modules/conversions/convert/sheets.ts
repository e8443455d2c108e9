import { Readable } from 'node:stream';
import { PREVIEW_LIMITS, type PreviewKind } from '@cabinet/contracts';
import ExcelJS from 'exceljs';
import { Parser } from 'htmlparser2';
import { BoundedZip } from '../../../lib/bounded-zip.ts';
import { decodeText } from './document.ts';
import { noPreview, zipLimits } from './failure.ts';
import { attr, local, openOdf } from './odt.ts';

/** A workbook as shown: each sheet's rows of display strings (trailing empty rows and cells left out). */
export interface SheetData {
  name: string;
  rows: string[][];
  columns: number;
}
export interface Workbook {
  sheets: SheetData[];
  truncated: boolean;
}

/** What a workbook's parts may unpack to, all together. */
export const MAX_SHEET_UNPACKED = 200 * 1024 * 1024;
/** Cells kept of a whole workbook (all sheets): past them the rest is left out. Half a million short strings are a few tens of MB. */
export const MAX_CELLS = 500_000;
/** A cell's text shown at most. */
export const MAX_CELL_CHARS = 1000;

const { sheetColumns: MAX_COLUMNS, sheetRows: MAX_ROWS, sheets: MAX_SHEETS } = PREVIEW_LIMITS;

/** Collects a workbook within the limits: rows past the sheet's, columns past 100, cells past the workbook's are left out and `truncated` set. */
class Collector {
  readonly sheets: SheetData[] = [];
  truncated = false;
  private cells = 0;
  private sheet: SheetData | null = null;
  /** Empty rows seen since the last row with content: written only when content follows. */
  private pendingRows = 0;

  get full(): boolean {
    return this.cells >= MAX_CELLS;
  }

  startSheet(name: string): boolean {
    this.endSheet();
    if (this.sheets.length >= MAX_SHEETS) {
      this.truncated = true;
      return false;
    }
    this.sheet = { name: name.slice(0, 200), rows: [], columns: 0 };
    this.sheets.push(this.sheet);
    this.pendingRows = 0;
    return true;
  }

  /** A row: its cells (column index → text); `repeat` copies of it (ODS repeats rows). Empty rows count only when content follows. */
  row(cells: string[], repeat = 1): void {
    const sheet = this.sheet;
    if (!sheet) return;
    let last = cells.length;
    while (last > 0 && !cells[last - 1]) last--;
    if (last === 0) {
      this.pendingRows += repeat;
      return;
    }
    if (last > MAX_COLUMNS) {
      last = MAX_COLUMNS;
      this.truncated = true;
    }
    const kept = cells.slice(0, last).map((c) => c ?? '');
    for (let i = 0; i < this.pendingRows + repeat; i++) {
      if (sheet.rows.length >= MAX_ROWS || this.full) {
        this.truncated = true;
        return;
      }
      const row = i < this.pendingRows ? [] : kept;
      sheet.rows.push(row);
      this.cells += Math.max(1, row.length);
    }
    this.pendingRows = 0;
    sheet.columns = Math.max(sheet.columns, last);
  }

  /** Whether more rows of the current sheet would be kept. */
  get wantsRows(): boolean {
    return !!this.sheet && this.sheet.rows.length < MAX_ROWS && !this.full;
  }

  endSheet(): void {
    this.pendingRows = 0;
    this.sheet = null;
  }

  done(): Workbook {
    this.endSheet();
    if (this.sheets.length === 0) this.sheets.push({ name: 'Sheet 1', rows: [], columns: 0 });
    return { sheets: this.sheets, truncated: this.truncated };
  }
}

const cap = (s: string) => (s.length > MAX_CELL_CHARS ? `${s.slice(0, MAX_CELL_CHARS)}…` : s);
const pad = (n: number) => String(n).padStart(2, '0');

/** A date as it reads everywhere: 2024-01-05, with the time when it has one (dates in a workbook carry no zone: read as UTC). */
function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  if (!h && !m && !s) return day;
  return `${day} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`;
}

/** A number without binary noise (0.1 + 0.2 shows 0.3). */
const numberText = (n: number) => (Number.isFinite(n) ? String(Number(n.toPrecision(15))) : String(n));

/** An exceljs cell value as the text a sheet shows: formulas by their cached result, rich text and links by their text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return cap(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'object') {
    const v = value as { result?: unknown; formula?: unknown; sharedFormula?: unknown; richText?: { text?: unknown }[]; text?: unknown; error?: unknown };
    if ('formula' in v || 'sharedFormula' in v) return 'result' in v ? cellText(v.result) : '';
    if (Array.isArray(v.richText)) return cap(v.richText.map((r) => (typeof r.text === 'string' ? r.text : '')).join(''));
    if ('text' in v) return cellText(v.text);
    if (typeof v.error === 'string') return v.error;
  }
  return '';
}

/** What exceljs's reader reads of a workbook before its sheets, and the sheets and their relationships. */
const WORKBOOK_PARTS = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml'];
const SHEET_PART = /^xl\/worksheets\/(_rels\/)?sheet\d+\.xml(\.rels)?$/;
const NO_SHARED_STRINGS =
  '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>';

async function readXlsx(bytes: Uint8Array, c: Collector): Promise<void> {
  const zip = await BoundedZip.open(bytes, zipLimits('an Excel workbook (.xlsx)', MAX_SHEET_UNPACKED));
  if (!zip.has('xl/workbook.xml')) throw noPreview('damaged', 'This file cannot be shown: it is not an Excel workbook (.xlsx).');
  // exceljs takes the parts in the order they are stored. A sheet stored before the workbook's own part and its shared
  // strings (as exceljs itself and the tools built on it store them; a workbook of numbers alone has no shared strings)
  // goes through a temporary file and is read last, and that way fails now and then or is dropped (exceljs#3064): it is
  // given the parts it reads, the workbook's first, with no shared strings when there are none, each counted first.
  const ordered = await zip.only([...WORKBOOK_PARTS, ...zip.names().filter((name) => SHEET_PART.test(name))], { 'xl/sharedStrings.xml': NO_SHARED_STRINGS });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([ordered]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    let n = 0;
    for await (const sheet of reader) {
      n++;
      const reading = c.startSheet((sheet as { name?: string }).name || `Sheet ${n}`);
      let next = 1;
      for await (const row of sheet) {
        // The rest of a sheet past the limits is read through (the reader goes on to the next sheet) but not kept.
        if (!reading || !c.wantsRows) continue;
        if (row.number > next) c.row([], row.number - next);
        next = row.number + 1;
        const values = row.values as unknown[];
        const cells: string[] = [];
        for (let i = 1; i < values.length && i <= MAX_COLUMNS + 1; i++) cells.push(cellText(values[i]));
        c.row(cells);
      }
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error as { code?: string }).code === 'unsupported_media_type') throw error;
    throw noPreview('damaged', 'This file cannot be shown: it is damaged, or it is not an Excel workbook (.xlsx).');
  }
}

async function readOds(bytes: Uint8Array, c: Collector): Promise<void> {
  const zip = await openOdf(bytes, MAX_SHEET_UNPACKED, 'spreadsheet');
  let inBody = false;
  /** The cells of the row being read, and the row's repeat. */
  let row: string[] | null = null;
  let rowRepeat = 1;
  let cell: string[] | null = null;
  let cellRepeat = 1;
  let cellValue = '';
  let paragraphs = 0;
  let skipping = 0;
  let reading = false;
  let stop = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const n = local(name);
        if (n === 'body') inBody = true;
        if (!inBody || stop) return;
        if (skipping) return void skipping++;
        if (n === 'annotation') return void skipping++;
        if (n === 'table') reading = c.startSheet(attr(attrs, 'name') ?? `Sheet ${c.sheets.length + 1}`);
        else if (n === 'table-row' && reading) {
          row = [];
          rowRepeat = Math.max(1, Number(attr(attrs, 'number-rows-repeated')) || 1);
        } else if ((n === 'table-cell' || n === 'covered-table-cell') && row) {
          cell = n === 'table-cell' ? [] : null;
          paragraphs = 0;
          cellRepeat = Math.max(1, Number(attr(attrs, 'number-columns-repeated')) || 1);
          // A value without text (rare): shown as its value.
          cellValue = attr(attrs, 'value') ?? attr(attrs, 'date-value') ?? attr(attrs, 'boolean-value') ?? '';
        } else if (n === 'p' && cell) {
          if (paragraphs++ > 0) cell.push('\n');
        } else if (n === 's' && cell) cell.push(' '.repeat(Math.min(100, Math.max(1, Number(attr(attrs, 'c')) || 1))));
        else if (n === 'tab' && cell) cell.push('\t');
        else if (n === 'line-break' && cell) cell.push('\n');
      },
      ontext(text) {
        if (cell && !skipping && cell.length < MAX_CELL_CHARS) cell.push(text);
      },
      onclosetag(name) {
        if (!inBody || stop) return;
        if (skipping) return void skipping--;
        const n = local(name);
        if ((n === 'table-cell' || n === 'covered-table-cell') && row) {
          const text = cell ? cap(cell.join('') || cellValue) : '';
          // Repeats past the columns shown are not written out (a row's last cell is often repeated to column 16,384).
          for (let i = 0; i < cellRepeat && row.length <= MAX_COLUMNS; i++) row.push(text);
          cell = null;
        } else if (n === 'table-row' && row) {
          c.row(row, rowRepeat);
          row = null;
        } else if (n === 'table') {
          reading = false;
          c.endSheet();
          if (c.full) stop = true;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  await zip.readText(
    'content.xml',
    (text) => parser.write(text),
    () => stop,
  );
  if (!stop) parser.end();
}

/** One line's fields, quotes as RFC 4180 has them (a quoted field may hold the delimiter, quotes doubled and line breaks). */
function readDelimited(text: string, delimiter: string, c: Collector): void {
  c.startSheet('');
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else if (field.length < MAX_CELL_CHARS + 1) field += ch;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      if (row.length <= MAX_COLUMNS) row.push(cap(field));
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (row.length <= MAX_COLUMNS) row.push(cap(field));
      c.row(row);
      row = [];
      field = '';
      if (!c.wantsRows) return;
    } else if (field.length < MAX_CELL_CHARS + 1) field += ch;
  }
  if (field || row.length) {
    row.push(cap(field));
    c.row(row);
  }
}

/** A CSV's delimiter: the comma, unless its first line has more semicolons (as spreadsheets write in much of Europe) or tabs. */
function csvDelimiter(text: string): string {
  const first = text.slice(0, Math.max(0, text.indexOf('\n')) || 4096).replace(/"[^"]*"/g, '');
  const count = (ch: string) => first.split(ch).length - 1;
  const [best] = [',', ';', '\t'].sort((a, b) => count(b) - count(a));
  return count(best!) > 0 ? best! : ',';
}

/**
 * Runs in a worker of the pool: a spreadsheet file (XLSX, ODS, CSV, TSV) as the text of its cells,
 * within the limits (sheets, rows, columns, cells, a cell's length; what its zip may unpack).
 */
export async function sheetsPreview({ kind, bytes }: { kind: PreviewKind; bytes: Uint8Array }): Promise<Workbook> {
  const c = new Collector();
  if (kind === 'xlsx') await readXlsx(bytes, c);
  else if (kind === 'ods') await readOds(bytes, c);
  else if (kind === 'csv' || kind === 'tsv') {
    const text = decodeText(bytes, 'text');
    readDelimited(text, kind === 'tsv' ? '\t' : csvDelimiter(text), c);
  } else throw noPreview('not_supported', 'This kind of file is not shown as a sheet.');
  return c.done();
}
