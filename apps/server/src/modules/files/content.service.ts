import { Readable } from 'node:stream';
import { LINK_PREVIEW_IMAGE_TYPES, type TContentUrl } from '@cabinet/contracts';
import { makeZip, predictLength } from 'client-zip';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { Names, safeSegment } from '../../lib/safe-names.ts';
import { requireItem, upsertVisit } from '../items/index.ts';
import { getWorkspace } from '../workspaces/index.ts';
import { findAttachedPictures, findSubtreeFiles, findVersion } from './files.repo.ts';

const DOWNLOAD_URL_TTL_SECONDS = 300;

/**
 * Types a browser may show in its own tab. None of them can run script on an origin: HTML, SVG,
 * XML and anything unknown always download as attachments.
 */
const SAFE_INLINE = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/flac',
  'audio/aac',
  'application/pdf',
  'text/plain',
]);

export const dispositionFor = (mimeType: string, wantDownload: boolean): 'inline' | 'attachment' =>
  !wantDownload && SAFE_INLINE.has(mimeType.toLowerCase()) ? 'inline' : 'attachment';

export interface Zip {
  filename: string;
  length: number;
  stream: Readable;
}

/**
 * A document's Markdown (ADR 0011), for its place in a zip: given by the module that owns
 * documents (the files module comes before it), as it stands when the zip is made.
 */
export type DocumentMarkdown = (documentId: string) => Promise<string>;

/**
 * A file's bytes (or an older version's) as a short-lived signed URL to redirect to, good for
 * `Range` and for the method asked; a folder's as a zip.
 */
export async function getContent(
  ctx: AppContext,
  actor: Actor,
  id: string,
  o: { versionId?: string | undefined; download: boolean; method: 'GET' | 'HEAD' },
  markdown: DocumentMarkdown,
): Promise<{ url: string } | Zip> {
  const { item } = await requireItem(ctx.db, actor, id, 'download');
  if (item.kind === 'folder') return zipItems(ctx, actor, item.workspace_id, [item.id], markdown);
  if (item.kind !== 'file') throw new AppError('not_found', 'This item has no bytes of its own to download.');
  const versionId = o.versionId ?? item.current_version_id;
  const version = versionId ? await findVersion(ctx.db, versionId) : undefined;
  if (!version || version.item_id !== item.id || version.state !== 'ready') throw new AppError('not_found');
  if (o.method === 'GET') await upsertVisit(ctx.db, actor.user.id, item.id);
  const url = await ctx.storage.signDownload(version.blob_key, {
    ttlSeconds: DOWNLOAD_URL_TTL_SECONDS,
    filename: item.name,
    contentType: version.mime_type,
    disposition: dispositionFor(version.mime_type, o.download),
    method: o.method,
  });
  return { url };
}

/**
 * A file's current bytes where storage keeps them, for a caller who may download it: a WebDAV client reads them through
 * Cabinet (it follows no redirect to a signed URL). Reading counts as a visit only for a whole GET, not a probe or a range.
 */
export async function currentBytes(ctx: AppContext, actor: Actor, id: string): Promise<{ blobKey: string; size: number; mimeType: string }> {
  const { item } = await requireItem(ctx.db, actor, id, 'download');
  if (item.kind !== 'file') throw new AppError('not_found', 'This item has no bytes of its own to download.');
  const version = await findVersion(ctx.db, item.current_version_id ?? '');
  if (!version || version.item_id !== item.id || version.state !== 'ready') throw new AppError('not_found');
  return { blobKey: version.blob_key, size: Number(version.size_bytes), mimeType: version.mime_type };
}

/**
 * Where the viewer reads a file's bytes (or an older version's): a short-lived signed URL that
 * answers `Range`, given as JSON rather than a redirect, so a reader of ranges (pdf.js, the text
 * pager) fetches the bucket directly and asks again when the URL expires. Opening counts as a visit.
 */
export async function getContentUrl(ctx: AppContext, actor: Actor, id: string, versionId: string | undefined): Promise<TContentUrl> {
  const { item } = await requireItem(ctx.db, actor, id, 'download');
  if (item.kind !== 'file') throw new AppError('not_found', 'This item has no bytes of its own to show.');
  const version = await findVersion(ctx.db, versionId ?? item.current_version_id ?? '');
  if (!version || version.item_id !== item.id || version.state !== 'ready') throw new AppError('not_found');
  await upsertVisit(ctx.db, actor.user.id, item.id);
  return signViewerUrl(ctx, item, version);
}

/** A file's current bytes for the viewer, for a caller whose right to it was checked elsewhere (a public link's visitor). */
export async function fileViewerUrl(ctx: AppContext, item: ItemRow): Promise<TContentUrl> {
  const version = item.current_version_id ? await findVersion(ctx.db, item.current_version_id) : undefined;
  if (!version || version.item_id !== item.id || version.state !== 'ready') throw new AppError('not_found');
  return signViewerUrl(ctx, item, version);
}

async function signViewerUrl(
  ctx: AppContext,
  item: ItemRow,
  version: { blob_key: string; size_bytes: string | number; mime_type: string },
): Promise<TContentUrl> {
  const expiresAt = new Date(Date.now() + DOWNLOAD_URL_TTL_SECONDS * 1000);
  const url = await ctx.storage.signDownload(version.blob_key, {
    ttlSeconds: DOWNLOAD_URL_TTL_SECONDS,
    filename: item.name,
    contentType: version.mime_type,
    disposition: dispositionFor(version.mime_type, false),
    method: 'GET',
  });
  return { url, expiresAt: expiresAt.toISOString(), size: Number(version.size_bytes), mimeType: version.mime_type };
}

interface ZipEntry {
  name: string;
  lastModified: Date;
  size?: number;
  blobKey?: string;
  /** A document's Markdown, made before the zip starts: its length is part of the zip's. */
  text?: Buffer;
}

/**
 * A zip of items (files, documents as Markdown, and folders with everything in them that the
 * caller can see), streamed as it is made, stored without compression so its exact length is known
 * up front — the browser's own download bar then shows real progress and time left.
 */
export async function zipItems(ctx: AppContext, actor: Actor, workspaceIdOrSlug: string, ids: string[], markdown: DocumentMarkdown): Promise<Zip> {
  const workspace = await getWorkspace(ctx.db, actor.user, workspaceIdOrSlug);
  const zip = new ZipBuilder(markdown);
  let single: ItemRow | undefined;
  for (const id of ids) {
    const { item } = await requireItem(ctx.db, actor, id, 'download');
    if (item.workspace_id !== workspace.id) throw new AppError('not_found');
    single = ids.length === 1 ? item : undefined;
    await zip.add(ctx.db, item, ids.length > 1);
  }
  return zip.finish(ctx, single?.kind === 'folder' ? `${single.name}.zip` : `${workspace.name} files.zip`);
}

/**
 * A folder (everything in it) as a zip, for a caller whose right to it was checked elsewhere (a
 * public link's visitor: the link holds for everything under its item).
 */
export async function zipFolder(ctx: AppContext, folder: ItemRow, markdown: DocumentMarkdown): Promise<Zip> {
  const zip = new ZipBuilder(markdown);
  await zip.add(ctx.db, folder, false);
  return zip.finish(ctx, `${folder.name}.zip`);
}

/** A file's current bytes as a short-lived signed URL, for a caller whose right to it was checked elsewhere (a public link's visitor). */
export async function signedFileUrl(ctx: AppContext, item: ItemRow, download: boolean): Promise<string> {
  const version = item.current_version_id ? await findVersion(ctx.db, item.current_version_id) : undefined;
  if (!version || version.item_id !== item.id || version.state !== 'ready') throw new AppError('not_found');
  return ctx.storage.signDownload(version.blob_key, {
    ttlSeconds: DOWNLOAD_URL_TTL_SECONDS,
    filename: item.name,
    contentType: version.mime_type,
    disposition: dispositionFor(version.mime_type, download),
    method: 'GET',
  });
}

/**
 * A document's own pictures (files in it a page shows: PNG, JPEG, GIF, WebP, AVIF, BMP) as
 * short-lived signed URLs of their bytes, by item id, for a caller whose right to the document was
 * checked elsewhere (a public link's visitor). Pictures of other items are not among them.
 */
export async function signedPictureUrls(ctx: AppContext, documentId: string): Promise<Map<string, string>> {
  const pictures = await findAttachedPictures(ctx.db, documentId, LINK_PREVIEW_IMAGE_TYPES);
  const urls = await Promise.all(
    pictures.map(
      async (p) =>
        [
          p.id,
          await ctx.storage.signDownload(p.blob_key, {
            ttlSeconds: DOWNLOAD_URL_TTL_SECONDS,
            filename: p.name,
            contentType: p.mime_type,
            disposition: 'inline',
            method: 'GET',
          }),
        ] as const,
    ),
  );
  return new Map(urls);
}

/**
 * The entries of a zip being made: names safe to unzip anywhere and unique in their folder (lib/safe-names.ts). A
 * document is its Markdown (`<name>.md`), made when it is added and held until the zip is sent: the
 * zip's length is known before its first byte, and a document edited meanwhile cannot change it.
 */
class ZipBuilder {
  private readonly entries: ZipEntry[] = [];
  private readonly names = new Names();

  constructor(private readonly markdown: DocumentMarkdown) {}

  private async document(name: string, documentId: string, lastModified: Date): Promise<ZipEntry> {
    const text = Buffer.from(await this.markdown(documentId), 'utf8');
    return { name, lastModified, size: text.length, text };
  }

  /** A free name in `dir` for an item of `kind`: a document's with its `.md`. */
  private name(dir: string, name: string, kind: ItemRow['kind']): string {
    return kind === 'document' ? `${this.names.take(dir, safeSegment(name), true, '.md')}.md` : this.names.take(dir, safeSegment(name), kind === 'folder');
  }

  /** An item: a folder with everything in it (in a folder of its own name when `nested`), or a file. */
  async add(db: Db, item: ItemRow, nested: boolean): Promise<void> {
    const { entries } = this;
    if (item.kind === 'folder') {
      const top = nested ? this.name('', item.name, 'folder') : '';
      if (top) entries.push({ name: `${top}/`, lastModified: item.updated_at });
      const rows = await findSubtreeFiles(db, item.id);
      // Each path made safe segment by segment, a folder before what is in it, kept unique once made safe; a folder's contents follow its new path.
      const paths = new Map<string, string>();
      for (const row of [...rows].sort((a, b) => a.path.split('/').length - b.path.split('/').length)) {
        const cut = row.path.lastIndexOf('/');
        const parent = cut < 0 ? top : paths.get(row.path.slice(0, cut))!;
        paths.set(row.path, this.name(parent, row.path.slice(cut + 1), row.kind));
      }
      for (const row of rows) {
        // Below a visible folder everything is visible (roles are inherited and only ever add).
        if (row.kind === 'folder') entries.push({ name: `${paths.get(row.path)}/`, lastModified: row.updated_at });
        else if (row.kind === 'document') entries.push(await this.document(paths.get(row.path)!, row.id, row.updated_at));
        else if (row.blob_key) entries.push({ name: paths.get(row.path)!, lastModified: row.updated_at, size: row.size, blobKey: row.blob_key });
      }
    } else if (item.kind === 'document') {
      entries.push(await this.document(this.name('', item.name, 'document'), item.id, item.updated_at));
    } else if (item.kind === 'file' && item.current_version_id) {
      const version = await findVersion(db, item.current_version_id);
      if (version)
        entries.push({ name: this.name('', item.name, 'file'), lastModified: item.updated_at, size: Number(version.size_bytes), blobKey: version.blob_key });
    }
  }

  finish(ctx: AppContext, filename: string): Zip {
    const { entries } = this;
    const length = Number(
      predictLength(
        entries.map((e) =>
          e.size !== undefined ? { name: e.name, size: e.size, lastModified: e.lastModified } : { name: e.name, lastModified: e.lastModified },
        ),
      ),
    );
    const storage = ctx.storage;
    async function* files() {
      for (const e of entries) {
        if (e.text) yield { name: e.name, lastModified: e.lastModified, size: e.size!, input: e.text };
        else if (!e.blobKey) yield { name: e.name, lastModified: e.lastModified };
        else yield { name: e.name, lastModified: e.lastModified, size: e.size!, input: (await storage.read(e.blobKey)) as AsyncIterable<Buffer> };
      }
    }
    return { filename, length, stream: Readable.fromWeb(makeZip(files(), { length }) as import('node:stream/web').ReadableStream) };
  }
}
