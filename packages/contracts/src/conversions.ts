import { z } from 'zod';
import { PREVIEW_LIMITS } from './limits.ts';

/** Which version of a file to show: the current one unless `version` names an older one of the same file. */
export const ZPreviewQuery = z.object({ version: z.uuid().optional() });

/**
 * The one picture address a converted document holds: a picture of the file itself, made into WebP
 * by the server and written in the HTML (ADR 0039). Nothing else is ever a picture's `src`.
 */
export const PREVIEW_PICTURE_SRC = /^data:image\/webp;base64,[A-Za-z0-9+/=]+$/;

/**
 * A document (DOCX, ODT, Markdown) as HTML: only the document schema's elements, links only to
 * http(s) and mail, pictures only as `PREVIEW_PICTURE_SRC`, no scripts or styles.
 */
export const ZPreviewHtml = z.object({
  html: z.string(),
  /** The document was longer than a preview holds (`html` ends at a block before the limit), or some of its pictures are left out for the limits. */
  truncated: z.boolean(),
});
export type TPreviewHtml = z.infer<typeof ZPreviewHtml>;

const pageQuery = {
  /** The sheet's index in `sheets`. */
  sheet: z.coerce.number().int().min(0).max(PREVIEW_LIMITS.sheets).default(0),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(PREVIEW_LIMITS.sheetPageRows).default(PREVIEW_LIMITS.sheetPageRows),
};
export const ZSheetPreviewQuery = z.object({ version: z.uuid().optional(), ...pageQuery });
export const ZLinkSheetPreviewQuery = z.object(pageQuery);

export const ZSheetInfo = z.object({
  name: z.string(),
  /** Rows kept of the sheet (trailing empty rows left out). */
  rows: z.number().int(),
  /** Columns kept (at most `PREVIEW_LIMITS.sheetColumns`). */
  columns: z.number().int(),
});

/** A page of a sheet (XLSX, ODS, CSV, TSV): every cell as the text it shows; merged cells' others blank. */
export const ZSheetPreview = z.object({
  sheets: z.array(ZSheetInfo),
  sheet: z.number().int(),
  offset: z.number().int(),
  rows: z.array(z.array(z.string())),
  /** Something of the sheet is left out: rows or columns past the limits, or sheets past the first 50. */
  truncated: z.boolean(),
});
export type TSheetPreview = z.infer<typeof ZSheetPreview>;
export type TSheetInfo = z.infer<typeof ZSheetInfo>;

/** How the viewer shows a file converted on the server: a document as HTML, or a sheet table. */
export type PreviewKind = 'markdown' | 'docx' | 'odt' | 'xlsx' | 'ods' | 'csv' | 'tsv';

const PREVIEW_BY_EXTENSION = new Map<string, PreviewKind>(
  Object.entries({
    md: 'markdown',
    markdown: 'markdown',
    docx: 'docx',
    odt: 'odt',
    xlsx: 'xlsx',
    xlsm: 'xlsx',
    ods: 'ods',
    csv: 'csv',
    tsv: 'tsv',
    tab: 'tsv',
  } satisfies Record<string, PreviewKind>),
);
const PREVIEW_BY_MIME = new Map<string, PreviewKind>(
  Object.entries({
    'text/markdown': 'markdown',
    'text/x-markdown': 'markdown',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
    'application/vnd.oasis.opendocument.text': 'odt',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
    'application/vnd.oasis.opendocument.spreadsheet': 'ods',
    'text/csv': 'csv',
    'text/tab-separated-values': 'tsv',
  } satisfies Record<string, PreviewKind>),
);

/** Which conversion shows a file, by its name's extension, else its media type; null for a file not converted. */
export function previewKindOf(f: { name: string; mimeType: string | null }): PreviewKind | null {
  const name = f.name.toLowerCase();
  const dot = name.lastIndexOf('.');
  const byName = dot > 0 ? PREVIEW_BY_EXTENSION.get(name.slice(dot + 1)) : undefined;
  return byName ?? PREVIEW_BY_MIME.get((f.mimeType ?? '').toLowerCase().split(';')[0]!.trim()) ?? null;
}

/** Whether a kind is shown as a sheet table (else as a document). */
export const isSheetKind = (kind: PreviewKind) => kind === 'xlsx' || kind === 'ods' || kind === 'csv' || kind === 'tsv';
