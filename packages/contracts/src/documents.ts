import { z } from 'zod';
import { ZId } from './common.ts';
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
