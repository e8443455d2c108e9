import { z } from 'zod';
import { ZId, ZIsoTime, ZPageQuery } from './common.ts';
import { ZItemName } from './items.ts';

/** What a document can be made from, by the file's extension; the bytes must agree. */
export const IMPORT_EXTENSIONS = { markdown: ['md', 'markdown'], html: ['html', 'htm'], docx: ['docx'] } as const;
/** A file to import is read whole into memory, so it is kept to a size any document fits in. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

/** `POST /workspaces/:ws/documents/import?parentId&fileName` — the file's bytes are the body. */
export const ZImportQuery = z.object({
  parentId: ZId,
  /** The file's own name: its extension says what it is; without the extension it names the document. */
  fileName: ZItemName,
  /** A document of that name already there: fail with `name_conflict`, or take a free name. */
  onConflict: z.enum(['fail', 'keep_both']).default('fail'),
});

export const ZExportFormat = z.enum(['markdown', 'html', 'pdf']);
export type TExportFormat = z.infer<typeof ZExportFormat>;
export const ZExportQuery = z.object({ format: ZExportFormat });

/** Someone named on a revision or a comment; null when their account is gone. */
export const ZPersonRef = z.object({ id: ZId, name: z.string() });

/** A snapshot of a document: after ten minutes of editing, when the last editor leaves, and at each restore. */
export const ZRevision = z.object({
  id: ZId,
  itemId: ZId,
  createdAt: ZIsoTime,
  /** Who changed the document since the revision before. */
  authors: z.array(ZPersonRef),
  label: z.string().nullable(),
  /** On a restore: when the revision it brought back was taken. */
  restoredFrom: ZIsoTime.nullable(),
});
export type TRevision = z.infer<typeof ZRevision>;
/** A revisions page's cursor is the id of the last revision it showed. */
export const ZRevisionsQuery = ZPageQuery(ZId);
export const ZRevisionPage = z.object({ items: z.array(ZRevision), nextCursor: z.string().nullable() });
/** One revision with its content (ProseMirror JSON of the document schema), to show read-only and compare. */
export const ZRevisionDetail = ZRevision.extend({ content: z.record(z.string(), z.unknown()) });
export type TRevisionDetail = z.infer<typeof ZRevisionDetail>;
export const ZRevisionParams = z.object({ id: ZId, revisionId: ZId });
