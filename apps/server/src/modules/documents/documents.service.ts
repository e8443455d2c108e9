import { buffer } from 'node:stream/consumers';
import { uuidv7, type TExportFormat, type TItem, type TRevision, type TRevisionDetail } from '@cabinet/contracts';
import { documentNode, documentSummary, replaceDocument, stateDoc, withItemsRenamed } from '@cabinet/doc-schema/server';
import type { AppContext } from '../../context.ts';
import { findVersion } from '../files/index.ts';
import * as Y from 'yjs';
import { inTransaction, type Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { taskFailure } from '../../infra/workers/pool.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { createItem, requireDocument, requireItem } from '../items/index.ts';
import type * as DocumentExport from './document-export.ts';
import { importFile } from './document-import.ts';
import {
  copyDocumentContents,
  findDocumentState,
  findNewestRevisionState,
  findRevision,
  findRevisions,
  insertDocuments,
  insertRevision,
  replaceDocumentState,
  saveDocumentState,
  type BackedUpDocuments,
  type DocumentContent,
  type RevisionRow,
} from './documents.repo.ts';

export type { BackedUpDocuments, DocumentContent };

/*
 * This module is the one writer of a document's stored state (document_contents) and its
 * revisions (document_revisions): the collaboration server's saves and revisions, a restore, a
 * new or imported document and a copy all come through the functions below (ADR 0025).
 */

/** What a document in memory stores: its whole state as one Yjs update, and the text and mentions read from it. */
export function documentContent(doc: Y.Doc): DocumentContent {
  return { state: Y.encodeStateAsUpdate(doc), ...documentSummary(doc) };
}

/** At most this many people are named as newly mentioned by one save (a pasted list of everyone is not a reason to mail everyone). */
const MAX_NEW_MENTIONS = 50;

/** A document's stored state (one Yjs update holding it all), if it was ever saved. */
export function loadDocumentState(db: Db, itemId: string): Promise<Uint8Array | undefined> {
  return findDocumentState(db, itemId);
}

/**
 * Stores a document's state and text, and the item shows it changed (when, by whom, its size), in
 * one transaction (the caller's, when it passes one); a state equal to the stored one changes
 * nothing and is not announced. With `revision` the same state is recorded
 * as a revision in it too. Others hear the item changed, unless `announce` is false (a document
 * being created: its creation is announced instead). Answers the item, and the revision recorded.
 */
export async function storeDocument(
  db: Db,
  itemId: string,
  content: DocumentContent,
  o: { by: Actor | null; revision?: { authorIds: string[]; restoredFrom?: string }; announce?: boolean },
): Promise<{ item: ItemRow; revision?: { id: string; createdAt: string } } | undefined> {
  return inTransaction(db, async (tx) => {
    const saved = await saveDocumentState(tx, itemId, content, o.by?.user.id ?? null);
    if (!saved) return undefined;
    const { item, changed, mentionedBefore } = saved;
    const revision = o.revision && (await insertRevision(tx, { itemId, ...content, ...o.revision }));
    // A save of what is stored already changed nothing: no one hears of it.
    if (changed && o.announce !== false) {
      // The people this save mentions who were not mentioned before: notifications read them from the record (ADR 0034).
      const before = new Set(mentionedBefore);
      const mentioned = (content.mentions ?? []).filter((id) => !before.has(id)).slice(0, MAX_NEW_MENTIONS);
      const data = {
        name: item.name,
        ...(o.revision?.restoredFrom ? { restoredRevision: o.revision.restoredFrom } : {}),
        ...(mentioned.length ? { mentioned } : {}),
      };
      await record(tx, o.by, { workspaceId: item.workspace_id, action: 'item.updated', itemId, parentIds: [item.parent_id], data });
    }
    return revision ? { item, revision } : { item };
  });
}

/** Records a revision of a document as it is in memory, without storing its state (which its own saves do). */
export async function recordRevision(db: Db, itemId: string, content: DocumentContent, authorIds: string[]): Promise<{ id: string; createdAt: string }> {
  return insertRevision(db, { itemId, ...content, authorIds });
}

/**
 * Documents copied with their items (in the copy's transaction, once the copied items exist): each
 * starts as its source is stored. One whose pictures and attached files were copied with it
 * (`relink`) names those copies instead of the originals (`renamed`: source id → copy id).
 */
export async function copyDocuments(
  db: Db,
  copies: { id: string; sourceId: string; relink: boolean }[],
  renamed: Map<string, string>,
  by: string,
): Promise<void> {
  await copyDocumentContents(db, copies, by);
  for (const copy of copies.filter((c) => c.relink)) {
    const state = await findDocumentState(db, copy.id);
    const relinked = state && withItemsRenamed(state, renamed);
    if (relinked) await replaceDocumentState(db, copy.id, relinked);
  }
}

/**
 * Documents brought back from a backup with their items (`cabinet restore-item`, ADR 0063), in its transaction, once
 * those items exist: each stored state and every revision as they were. Items that came back under new ids (`renamed`:
 * backed-up id → restored id, for every item brought back) are named by them: a document's rows, a revision that
 * restored another, and the pictures and files a document and its revisions name; revisions take new ids with them.
 */
export async function restoreDocuments(db: Db, backedUp: BackedUpDocuments, renamed: Map<string, string>): Promise<void> {
  const moved = [...renamed].some(([from, to]) => from !== to);
  if (!moved) return insertDocuments(db, backedUp);
  const relinked = (state: Uint8Array) => withItemsRenamed(state, renamed) ?? state;
  const revisionIds = new Map(backedUp.revisions.map((r) => [r.id, uuidv7()]));
  await insertDocuments(db, {
    contents: backedUp.contents.map((c) => ({ ...c, item_id: renamed.get(c.item_id)!, state: relinked(c.state) })),
    revisions: backedUp.revisions.map((r) => ({
      ...r,
      id: revisionIds.get(r.id)!,
      item_id: renamed.get(r.item_id)!,
      state: relinked(r.state),
      restored_from: (r.restored_from && revisionIds.get(r.restored_from)) ?? null,
    })),
  });
}

/** Documents open for editing on this instance (the collaboration server). */
export interface LiveDocuments {
  /** The document as it stands in memory, when someone has it open here. */
  openDocument(itemId: string): Y.Doc | undefined;
  /** Changes a document as `by` editing it would: everyone with it open sees the change. The caller stores what it made. */
  edit(itemId: string, change: (document: Y.Doc) => void, by: Actor): Promise<void>;
}

/** A new document in a folder, made from a Markdown, HTML or Word file; nothing is created when the file is not what it says. */
export async function importDocument(
  ctx: AppContext,
  actor: Actor,
  ws: string,
  q: { parentId: string; fileName: string; onConflict: 'fail' | 'keep_both' },
  bytes: Buffer,
): Promise<TItem> {
  const { db } = ctx;
  // Who may write there is known before the file is read.
  await requireItem(db, actor, q.parentId, 'createInside');
  const { name, ...document } = await importFile(ctx.workers, q.fileName, bytes);
  const fill = async (tx: Db, item: ItemRow) => (await storeDocument(tx, item.id, document, { by: actor, announce: false }))?.item ?? item;
  const create = (documentName: string) => createItem(db, actor, ws, { kind: 'document', name: documentName, parentId: q.parentId }, fill);
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

/** The item a picture of a document names, when whoever exports it may read it; undefined otherwise. */
export type PictureAccess = (itemId: string) => Promise<ItemRow | undefined>;

/**
 * The images a PDF can carry: the document's own pictures (Cabinet files the exporter may read,
 * PNG or JPEG, up to 10 MiB), read from storage as data URLs, by their `src`. Web images are not
 * fetched; they print as their descriptions.
 */
async function embeddableImages(ctx: AppContext, readable: PictureAccess, sources: [src: string, itemId: string][]): Promise<Map<string, string>> {
  const images = new Map<string, string>();
  for (const [src, id] of sources.slice(0, MAX_PDF_IMAGES)) {
    const item = await readable(id).catch(() => undefined);
    const versionId = item?.kind === 'file' ? item.current_version_id : null;
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

const EXPORT_MODULE = new URL('./document-export.ts', import.meta.url);

export interface ExportedDocument {
  body: Buffer | string;
  contentType: string;
  filename: string;
}

/** A document as a file to download: Markdown, HTML or PDF, named after it. Written in a worker: a long document does not hold up the server. */
export async function exportDocument(ctx: AppContext, actor: Actor, id: string, format: TExportFormat, live: LiveDocuments): Promise<ExportedDocument> {
  const { item } = await requireItem(ctx.db, actor, id, 'download');
  const readable: PictureAccess = async (pictureId) => (await requireItem(ctx.db, actor, pictureId, 'download')).item;
  return documentFile(ctx, item, format, live, readable);
}

/**
 * A document as a file to download, for a caller whose right to it was checked elsewhere (a public
 * link's visitor); a PDF carries the pictures `readable` lets them read.
 */
export async function documentFile(
  ctx: AppContext,
  item: ItemRow,
  format: TExportFormat,
  live: LiveDocuments,
  readable: PictureAccess,
): Promise<ExportedDocument> {
  const { db, workers } = ctx;
  if (item.kind !== 'document') throw new AppError('unsupported_media_type', 'Only documents can be exported; download a file as it is.');
  const open = live.openDocument(item.id);
  const state = open ? Y.encodeStateAsUpdate(open) : await loadDocumentState(db, item.id);
  const run = <T>(fn: keyof typeof DocumentExport, input: unknown) =>
    workers.run<T>(EXPORT_MODULE, fn, input).catch((error: unknown) => {
      throw taskFailure(error, 'This document is too large to export', workers.options.timeoutMs);
    });
  const images =
    format === 'pdf' ? await embeddableImages(ctx, readable, await run<[string, string][]>('pictureSources', { state })) : new Map<string, string>();
  const body = await run<string | Uint8Array>('renderExport', { state, format, title: item.name, images });
  const { extension, contentType } = EXPORTS[format];
  return {
    body: typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength),
    contentType,
    filename: `${item.name}.${extension}`,
  };
}

/**
 * A document's Markdown (ADR 0011) as it stands — in memory when someone has it open here — for a
 * caller whose right to it was checked elsewhere (a zip of its folder). A document that was never
 * saved is empty.
 */
export async function documentMarkdown(ctx: AppContext, id: string, live: LiveDocuments): Promise<string> {
  const open = live.openDocument(id);
  return markdownOf(ctx, open ? Y.encodeStateAsUpdate(open) : await loadDocumentState(ctx.db, id));
}

/**
 * A document's Markdown as last stored, with the Cabinet items it names (pictures, attached files, links) at the
 * addresses `addressOf` gives by item id, where it gives one: a workspace's export, whose files sit beside it.
 */
export async function exportedMarkdown(ctx: AppContext, id: string, addressOf: (itemId: string) => string | undefined): Promise<string> {
  const state = await loadDocumentState(ctx.db, id);
  const named = await ctx.workers.run<string[]>(EXPORT_MODULE, 'namedItems', { state }).catch((error: unknown) => {
    throw taskFailure(error, 'A document is too large to export', ctx.workers.options.timeoutMs);
  });
  const addresses = new Map(named.flatMap((itemId) => (addressOf(itemId) ? [[itemId, addressOf(itemId)!] as const] : [])));
  return markdownOf(ctx, state, addresses);
}

async function markdownOf(ctx: AppContext, state: Uint8Array | undefined, addresses = new Map<string, string>()): Promise<string> {
  const body = await ctx.workers
    .run<string | Uint8Array>(EXPORT_MODULE, 'renderExport', { state, format: 'markdown', title: '', images: new Map<string, string>(), pictures: addresses })
    .catch((error: unknown) => {
      throw taskFailure(error, 'A document is too large to export', ctx.workers.options.timeoutMs);
    });
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}

/**
 * A document as HTML, for a caller whose right to read it was checked elsewhere (a public link's
 * visitor). Pictures that are Cabinet items take the addresses `pictures` gives (by item id);
 * the others stay as the document names them.
 */
export async function documentHtml(ctx: AppContext, item: ItemRow, live: LiveDocuments, pictures = new Map<string, string>()): Promise<string> {
  const open = live.openDocument(item.id);
  const state = open ? Y.encodeStateAsUpdate(open) : await loadDocumentState(ctx.db, item.id);
  const body = await ctx.workers
    .run<string | Uint8Array>(EXPORT_MODULE, 'renderExport', { state, format: 'html', title: item.name, images: new Map<string, string>(), pictures })
    .catch((error: unknown) => {
      throw taskFailure(error, 'This document is too large to show', ctx.workers.options.timeoutMs);
    });
  return typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
}

function presentRevision(r: RevisionRow): TRevision {
  return {
    id: r.id,
    itemId: r.item_id,
    createdAt: new Date(r.created_at).toISOString(),
    authors: r.authors,
    label: r.label,
    restoredFrom: r.restored_from_at ? new Date(r.restored_from_at).toISOString() : null,
  };
}

/** A document's revisions, newest first. */
export async function listRevisions(
  db: Db,
  actor: Actor,
  id: string,
  q: { cursor?: string; limit: number },
): Promise<{ items: TRevision[]; nextCursor: string | null }> {
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
 * Brings a revision back (whoever may restore revisions: managers, as for file versions): the document becomes what it was, live
 * for everyone editing it, and the restore is itself a new revision.
 */
export async function restoreRevision(db: Db, actor: Actor, id: string, revisionId: string, live: LiveDocuments): Promise<TRevision> {
  const { item } = await requireDocument(db, actor, id, 'restoreRevision');
  const { revision, content } = await revisionContent(db, item.id, revisionId);
  let current: DocumentContent | undefined;
  let restored: DocumentContent | undefined;
  await live.edit(
    item.id,
    (doc) => {
      current = documentContent(doc);
      replaceDocument(doc, content);
      restored = documentContent(doc);
    },
    actor,
  );
  // What the document was is kept first, as a revision of its own, unless the newest one holds it
  // already: what was written since that revision stays in the history, and can be restored too.
  const newest = await findNewestRevisionState(db, item.id);
  if (!newest || !Buffer.from(newest).equals(current!.state))
    await insertRevision(db, { itemId: item.id, state: current!.state, text: current!.text, authorIds: item.updated_by ? [item.updated_by] : [] });
  // Stored here, with its revision, in one transaction (and on any instance: another one may hold the document's save lock just now).
  const stored = await storeDocument(db, item.id, restored!, { by: actor, revision: { authorIds: [actor.user.id], restoredFrom: revisionId } });
  if (!stored?.revision) throw new AppError('not_found');
  return {
    ...stored.revision,
    itemId: item.id,
    authors: [{ id: actor.user.id, name: actor.user.name || actor.user.email }],
    label: null,
    restoredFrom: new Date(revision.created_at).toISOString(),
  };
}
