import { buffer } from 'node:stream/consumers';
import type { TExportFormat, TItem, TRevision, TRevisionDetail } from '@cabinet/contracts';
import { attachmentId } from '@cabinet/doc-schema';
import { documentNode, documentText, documentUpdate, replaceDocument, stateDoc, toHTML, toMarkdown, type JSONContent } from '@cabinet/doc-schema/server';
import type { AppContext } from '../../context.ts';
import { findVersion } from '../files/files.repo.ts';
import * as Y from 'yjs';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { requireDocument, requireItem } from '../items/items.policy.ts';
import { createItem } from '../items/items.service.ts';
import { readImport } from './document-import.ts';
import { documentPdf } from './document-pdf.ts';
import { findDocumentState, findRevision, findRevisions, insertRevision, saveDocumentState, type RevisionRow } from './documents.repo.ts';

/** Documents open for editing on this instance (the collaboration server). */
export interface LiveDocuments {
  /** The document as it stands in memory, when someone has it open here. */
  openDocument(itemId: string): Y.Doc | undefined;
  /** Changes a document as one more editor would: everyone with it open sees the change, and it is saved. */
  edit(itemId: string, change: (document: Y.Doc) => void): Promise<void>;
}

/** A new document in a folder, made from a Markdown, HTML or Word file; nothing is created when the file is not what it says. */
export async function importDocument(db: Db, actor: Actor, ws: string, q: { parentId: string; fileName: string; onConflict: 'fail' | 'keep_both' }, bytes: Buffer): Promise<TItem> {
  // Who may write there is known before the file is read.
  await requireItem(db, actor, q.parentId, 'edit');
  const { name, content } = await readImport(q.fileName, bytes);
  const document = { state: documentUpdate(content), text: documentText(content) };
  const create = (documentName: string) => createItem(db, actor, ws, { kind: 'document', name: documentName, parentId: q.parentId, content: document });
  try {
    return await create(name);
  } catch (error) {
    const suggested = error instanceof AppError && error.code === 'name_conflict' ? error.details?.suggestedName : undefined;
    if (q.onConflict === 'keep_both' && typeof suggested === 'string') return create(suggested);
    throw error;
  }
}

const PDF_IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);
const MAX_PDF_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_PDF_IMAGES = 100;

/**
 * The images a PDF can carry: the document's own pictures (Cabinet files the caller may see, PNG
 * or JPEG, up to 10 MiB), read from storage as data URLs, by their `src`. Web images are not
 * fetched; they print as their descriptions.
 */
async function embeddableImages(ctx: AppContext, actor: Actor, content: JSONContent): Promise<Map<string, string>> {
  const srcs = new Map<string, string>();
  const walk = (n: JSONContent) => {
    const id = n.type === 'image' && typeof n.attrs?.src === 'string' ? attachmentId(n.attrs.src) : undefined;
    if (id) srcs.set(n.attrs!.src as string, id);
    n.content?.forEach(walk);
  };
  walk(content);
  const images = new Map<string, string>();
  for (const [src, id] of [...srcs].slice(0, MAX_PDF_IMAGES)) {
    const access = await requireItem(ctx.db, actor, id, 'view').catch(() => undefined);
    const versionId = access?.item.kind === 'file' ? access.item.current_version_id : null;
    const version = versionId ? await findVersion(ctx.db, versionId) : undefined;
    if (!version || !PDF_IMAGE_TYPES.has(version.mime_type) || Number(version.size_bytes) > MAX_PDF_IMAGE_BYTES) continue;
    try {
      const bytes = await buffer(await ctx.storage.read(version.blob_key));
      images.set(src, `data:${version.mime_type};base64,${bytes.toString('base64')}`);
    } catch {
      // Storage away: the picture prints as its description.
    }
  }
  return images;
}

const EXPORTS: Record<TExportFormat, { extension: string; contentType: string }> = {
  markdown: { extension: 'md', contentType: 'text/markdown; charset=utf-8' },
  html: { extension: 'html', contentType: 'text/html; charset=utf-8' },
  pdf: { extension: 'pdf', contentType: 'application/pdf' },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page around the document's HTML; its own policy forbids scripts, so it is safe to open wherever it is saved. */
function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; line-height: 1.6; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
pre { background: #f3f3f3; padding: .75rem 1rem; overflow-x: auto; }
blockquote { border-left: 3px solid #ccc; margin-left: 0; padding-left: 1rem; color: #555; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: .3rem .6rem; } th { background: #f0f0f0; }
ul[data-type="taskList"] { list-style: none; padding-left: .2rem; } ul[data-type="taskList"] li { display: flex; gap: .5rem; }
img { max-width: 100%; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** A document as a file to download: Markdown, HTML or PDF, named after it. */
export async function exportDocument(ctx: AppContext, actor: Actor, id: string, format: TExportFormat, live: LiveDocuments): Promise<{ body: Buffer | string; contentType: string; filename: string }> {
  const { db } = ctx;
  const { item } = await requireItem(db, actor, id, 'view');
  if (item.kind !== 'document') throw new AppError('unsupported_media_type', 'Only documents can be exported; download a file as it is.');
  const node = documentNode(live.openDocument(item.id) ?? stateDoc(await findDocumentState(db, item.id)));
  const { extension, contentType } = EXPORTS[format];
  const filename = `${item.name}.${extension}`;
  const json = node.toJSON() as JSONContent;
  const body = format === 'markdown' ? toMarkdown(node) : format === 'html' ? htmlPage(item.name, toHTML(node)) : await documentPdf(json, item.name, await embeddableImages(ctx, actor, json));
  return { body, contentType, filename };
}

function presentRevision(r: RevisionRow): TRevision {
  return { id: r.id, itemId: r.item_id, createdAt: new Date(r.created_at).toISOString(), authors: r.authors, label: r.label, restoredFrom: r.restored_from_at ? new Date(r.restored_from_at).toISOString() : null };
}

/** A document's revisions, newest first. */
export async function listRevisions(db: Db, actor: Actor, id: string, q: { cursor?: string; limit: number }): Promise<{ items: TRevision[]; nextCursor: string | null }> {
  const { item } = await requireDocument(db, actor, id, 'view');
  const rows = await findRevisions(db, item.id, q.limit + 1, q.cursor);
  const page = rows.slice(0, q.limit);
  return { items: page.map(presentRevision), nextCursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null };
}

async function revisionContent(db: Db, itemId: string, revisionId: string) {
  const revision = await findRevision(db, itemId, revisionId);
  if (!revision) throw new AppError('not_found');
  return { revision, content: documentNode(stateDoc(revision.state)) };
}

/** One revision with its content, to show read-only beside the current document. */
export async function getRevision(db: Db, actor: Actor, id: string, revisionId: string): Promise<TRevisionDetail> {
  const { item } = await requireDocument(db, actor, id, 'view');
  const { revision, content } = await revisionContent(db, item.id, revisionId);
  return { ...presentRevision(revision), content: content.toJSON() as Record<string, unknown> };
}

/**
 * Brings a revision back (managers, as for file versions): the document becomes what it was, live
 * for everyone editing it, and the restore is itself a new revision.
 */
export async function restoreRevision(db: Db, actor: Actor, id: string, revisionId: string, live: LiveDocuments): Promise<TRevision> {
  const { item } = await requireDocument(db, actor, id, 'manage');
  const { revision, content } = await revisionContent(db, item.id, revisionId);
  let restored: { state: Uint8Array; text: string } | undefined;
  await live.edit(item.id, (doc) => {
    replaceDocument(doc, content);
    restored = { state: Y.encodeStateAsUpdate(doc), text: documentText(doc) };
  });
  // Stored here as well: with several instances another one may hold the document's save lock just now.
  const createdAt = await inTransaction(db, async (tx) => {
    await saveDocumentState(tx, item.id, restored!.state, restored!.text, actor.user.id);
    return insertRevision(tx, { itemId: item.id, ...restored!, authorIds: [actor.user.id], restoredFrom: revisionId });
  });
  return { ...createdAt, itemId: item.id, authors: [{ id: actor.user.id, name: actor.user.name || actor.user.email }], label: null, restoredFrom: new Date(revision.created_at).toISOString() };
}
