/** Documents' stored state, revisions, import and export: the one writer of documents' tables (ADR 0025). */
export { documentsRoutes } from './documents.routes.ts';
export { warmImports } from './document-import.ts';
export {
  copyDocuments,
  documentContent,
  documentFile,
  documentHtml,
  documentMarkdown,
  exportedMarkdown,
  loadDocumentState,
  recordRevision,
  restoreDocuments,
  storeDocument,
  type BackedUpDocuments,
  type DocumentContent,
  type ExportedDocument,
  type LiveDocuments,
} from './documents.service.ts';
