import {
  encodeCursor,
  LIMITS,
  LINK_PREVIEW_IMAGE_TYPES,
  viewerKind,
  type TLinkStartedUpload,
  type TLinkStartUploadRequest,
  type TLinkUpload,
  type TLinkUploadStatus,
  type TPublicDocument,
  type TPublicFolder,
  type TPublicFolderQuery,
  type TPublicItem,
  type TPublicLink,
  type TPreviewHtml,
  type TSheetPreview,
  type TContentUrl,
  type TExportFormat,
  type TLinkCreateFolderRequest,
  type TLinkFolder,
  type TSignedPart,
  type TUpload,
} from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import type { ItemRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { rateKey } from '../../lib/client-address.ts';
import { hmac, safeEqual, sha256 } from '../../lib/crypto.ts';
import { htmlOfFile, sheetsOfFile } from '../conversions/index.ts';
import { documentFile, documentHtml, documentMarkdown, type ExportedDocument, type LiveDocuments } from '../documents/index.ts';
import { countRecorded, record, recordVisit, type LinkVisitor } from '../events/index.ts';
import {
  abortUpload,
  completeLinkUpload,
  fileViewerUrl,
  getUpload,
  signedFileUrl,
  signedPictureUrls,
  signParts,
  startUpload,
  visitorFolders,
  zipFolder,
  type LinkUploader,
  type Zip,
} from '../files/index.ts';
import { createFolderThroughLink, findPlace, mayShareNow, presentPreview, type PreviewColumns } from '../items/index.ts';
import { verifyLinkPassword } from './link-password.ts';
import { linkState } from './links.service.ts';
import {
  countUploads,
  countUse,
  findActiveChildren,
  findLinkByHash,
  findNames,
  findUploadedBytes,
  forgetAttempt,
  takeAttempt,
  type LinkRow,
} from './links.repo.ts';
import { thumbnailOf, type Thumbnail } from '../previews/index.ts';

/** How long a link's password, once given, holds in that browser. */
export const LINK_SESSION_SECONDS = 12 * 60 * 60;
export const LINK_COOKIE = 'cabinet_link';
/** A visitor's views of a link are all counted, and recorded at most this often per address. */
const VIEW_RECORDED_EVERY_MS = 60 * 60_000;

/** Who is visiting and with what: the token from the path, the cookie set by `unlock` (if any), and where they are. */
export interface Visit {
  token: string;
  cookie: string | undefined;
  ip: string;
  userAgent: string | null;
}

const visitorOf = (link: LinkRow, v: Visit): LinkVisitor => ({ via: 'link', linkId: link.id, ip: v.ip, userAgent: v.userAgent });

/**
 * The proof that this browser gave the link's password: `<expiry>.<mac>`, the MAC over the link,
 * its current password hash and the expiry. A new password (or none) and the end of the link end
 * it; it is sent only to this link's API paths (the cookie's path holds the token).
 */
export function linkSessionFor(secret: string, link: Pick<LinkRow, 'id' | 'password_hash'>, expiresAt: number): string {
  return `${expiresAt}.${hmac(secret, `link-session:${link.id}:${link.password_hash ?? ''}:${expiresAt}`)}`;
}

function unlocked(secret: string, link: LinkRow, cookie: string | undefined): boolean {
  if (!link.password_hash) return true;
  const [exp, mac] = (cookie ?? '').split('.');
  const expiresAt = Number(exp);
  if (!mac || !Number.isSafeInteger(expiresAt) || expiresAt * 1000 <= Date.now()) return false;
  return safeEqual(cookie!, linkSessionFor(secret, link, expiresAt));
}

/** The link behind a token, if it still works: revoked or past its expiry → `link_expired`; its item in the trash or gone → `not_found`. */
async function liveLink(db: Db, token: string): Promise<{ link: LinkRow; root: ItemRow }> {
  const link = await findLinkByHash(db, sha256(token));
  if (!link) throw new AppError('not_found', 'No such link.');
  const state = linkState(link);
  if (state !== 'active')
    throw new AppError('link_expired', state === 'revoked' ? 'This link was turned off by the person who shared it.' : 'This link has expired.', {
      reason: state,
    });
  const place = await findPlace(db, link.item_id);
  if (!place || place.item.state !== 'active' || place.trashedAbove) throw new AppError('not_found', 'What this link shared is no longer there.');
  // A link is its maker's sharing: it ends when they may no longer share the item (they left the
  // workspace, their account was disabled, their access was lowered or withdrawn).
  if (!link.created_by || link.created_by_status !== 'active' || !(await mayShareNow(db, link.created_by, link.item_id))) {
    throw new AppError('link_expired', 'This link has ended: the person who shared it may no longer share it.', { reason: 'maker' });
  }
  return { link, root: place.item };
}

async function openLink(ctx: AppContext, v: Visit): Promise<{ link: LinkRow; root: ItemRow }> {
  const found = await liveLink(ctx.db, v.token);
  if (!unlocked(ctx.env.SESSION_SECRET, found.link, v.cookie)) throw new AppError('link_password_required', 'This link needs its password.');
  return found;
}

/** A view link, open: a file request shows nothing of its folder (ADR 0035). */
async function openViewLink(ctx: AppContext, v: Visit): Promise<{ link: LinkRow; root: ItemRow }> {
  const found = await openLink(ctx, v);
  if (found.link.kind !== 'view') throw new AppError('forbidden', 'This link only takes files; it shows nothing.');
  return found;
}

/** An item under the link's item (or that item itself), with the ids from it up to the link's item. */
async function itemUnder(ctx: AppContext, link: LinkRow, itemId: string): Promise<{ item: ItemRow; trail: string[] }> {
  const place = await findPlace(ctx.db, itemId);
  const at = place ? place.chain.indexOf(link.item_id) : -1;
  if (!place || at < 0 || place.item.state !== 'active' || place.trashedAbove) throw new AppError('not_found');
  return { item: place.item, trail: place.chain.slice(0, at + 1).reverse() };
}

/** An item as the link's page shows it: a file with its preview as the app's listings carry it, its thumbnail at the link's address. */
function presentPublic(i: ItemRow & Partial<PreviewColumns>): TPublicItem {
  const preview = presentPreview(i);
  return {
    id: i.id,
    kind: i.kind,
    name: i.name,
    size: Number(i.size_bytes),
    mimeType: i.mime_type,
    updatedAt: new Date(i.updated_at).toISOString(),
    ...(preview !== undefined ? { preview } : {}),
  };
}

/** What a link opens; counts a view and records it (actor: the link). */
export async function visitLink(ctx: AppContext, v: Visit): Promise<TPublicLink> {
  const { link, root } = await openLink(ctx, v);
  await inTransaction(ctx.db, async (tx) => {
    await countUse(tx, link.id, 'views');
    await recordVisit(
      tx,
      visitorOf(link, v),
      { workspaceId: link.workspace_id, action: 'link.viewed', itemId: root.id, data: { linkId: link.id } },
      VIEW_RECORDED_EVERY_MS,
    );
  });
  const expiresAt = link.expires_at ? new Date(link.expires_at).toISOString() : null;
  if (link.kind === 'file_request') {
    // Its folder by name alone: not its size or when it last changed, which would tell of others' uploads.
    const { preview: _none, ...folder } = presentPublic(root);
    const item = { ...folder, size: 0, updatedAt: new Date(link.created_at).toISOString() };
    // With a cap on its total, what it still takes: its maker chose to have that said.
    const remaining = link.max_bytes === null ? {} : { remainingBytes: Math.max(0, Number(link.max_bytes) - Number(link.uploaded_bytes)) };
    return { kind: link.kind, item, downloadAllowed: false, expiresAt, requestedBy: link.created_by_name, maxFileSize: ctx.env.MAX_FILE_SIZE, ...remaining };
  }
  return { kind: link.kind, item: presentPublic(root), downloadAllowed: link.download_allowed, expiresAt, requestedBy: null, maxFileSize: null };
}

/**
 * Checks a link's password. From one address, at most `LIMITS.linkPasswordTries` tries that were
 * not the right password in the window; past that the address is refused (`rate_limited`), and
 * each refused try counts too, until the tries leave the window — whatever it sends, so a guesser
 * learns nothing — while other addresses still get in.
 * Answers the cookie's value and lifetime.
 */
export async function unlockLink(ctx: AppContext, v: Visit, password: string): Promise<{ value: string; maxAge: number; path: string }> {
  const { link } = await liveLink(ctx.db, v.token);
  const window = LIMITS.linkPasswordWindowMinutes * 60_000;
  const since = new Date(Date.now() - window);
  if (link.password_hash) {
    // Counted before the (slow) check: tries sent all at once cannot slip past the limit together.
    // An IPv6 caller counts by their /64: the addresses in it are all theirs to change.
    const from = rateKey(v.ip);
    const attempt = await takeAttempt(ctx.db, link.id, from, since);
    // A refused try still counts: forgetting it would let tries sent at the same moment through.
    if (attempt.count > LIMITS.linkPasswordTries) {
      const retryAfter = Math.max(1, Math.ceil(((attempt.oldest?.getTime() ?? Date.now()) + window - Date.now()) / 1000));
      throw new AppError('rate_limited', 'Too many wrong passwords from here. Wait a while before trying again.', { retryAfter });
    }
    if (!(await verifyLinkPassword(password, link.password_hash)))
      throw new AppError('link_password_required', 'That is not the password of this link.', { wrong: true });
    await forgetAttempt(ctx.db, link.id, from, attempt.at);
  }
  const expiresAt = Math.floor(Date.now() / 1000) + LINK_SESSION_SECONDS;
  return { value: linkSessionFor(ctx.env.SESSION_SECRET, link, expiresAt), maxAge: LINK_SESSION_SECONDS, path: linkCookiePath(v.token) };
}

export const linkCookiePath = (token: string) => `/api/v1/links/${token}`;

/** An item under the link: the folders from the link's item down to it, and a folder's contents. */
export async function visitItem(ctx: AppContext, v: Visit, itemId: string, q: TPublicFolderQuery): Promise<TPublicFolder> {
  const { link } = await openViewLink(ctx, v);
  const { item, trail } = await itemUnder(ctx, link, itemId);
  const names = await findNames(ctx.db, trail);
  const rows = item.kind === 'folder' ? await findActiveChildren(ctx.db, item.id, q.limit + 1, q.cursor) : [];
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    item: presentPublic(item),
    trail: trail.map((id) => ({ id, name: names.get(id) ?? '' })),
    children: page.map(presentPublic),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ folder: last.kind === 'folder', name: last.name_key, id: last.id }) : null,
  };
}

/** What the link's page shows of a file itself (a picture, short plain text): served without counting as a download. */
const shownOnThePage = (item: ItemRow) =>
  item.kind === 'file' &&
  ((LINK_PREVIEW_IMAGE_TYPES as readonly string[]).includes(item.mime_type ?? '') ||
    (item.mime_type === 'text/plain' && Number(item.size_bytes) <= LIMITS.linkTextPreviewBytes));

/**
 * A file's bytes (a signed URL) or a folder as a zip. Anything but what the page shows in itself
 * counts as downloading, which the link may forbid. Downloading (`download`, and every zip) is
 * refused when the link forbids it, and counted; showing an image or text in the page is not.
 */
export async function visitContent(ctx: AppContext, v: Visit, itemId: string, download: boolean, live: LiveDocuments): Promise<{ url: string } | Zip> {
  const { link } = await openViewLink(ctx, v);
  const { item } = await itemUnder(ctx, link, itemId);
  const downloading = download || item.kind === 'folder' || !shownOnThePage(item);
  if (downloading && !link.download_allowed) throw new AppError('forbidden', 'This link does not allow downloads.');
  if (item.kind === 'document') throw new AppError('unsupported_media_type', 'A document is read on the page, or downloaded as Markdown or PDF.');
  // A folder's documents go in its zip as Markdown, as in a member's (ADR 0011).
  const answer =
    item.kind === 'folder' ? await zipFolder(ctx, item, (id) => documentMarkdown(ctx, id, live)) : { url: await signedFileUrl(ctx, item, download) };
  if (downloading) await countDownload(ctx, link, v, item);
  return answer;
}

/** A download through the link: counted on it and recorded (actor: the link). */
async function countDownload(ctx: AppContext, link: LinkRow, v: Visit, item: ItemRow): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    await countUse(tx, link.id, 'downloads');
    await record(tx, visitorOf(link, v), {
      workspaceId: link.workspace_id,
      action: 'link.downloaded',
      itemId: item.id,
      data: { linkId: link.id, name: item.name },
    });
  });
}

/**
 * A document under the link as a file (Markdown, HTML or PDF), as a member exports it — when the
 * link allows downloads, and counted as one. A PDF carries the pictures under the link (the
 * document's own), read from storage; the others print as their descriptions.
 */
export async function visitExport(ctx: AppContext, v: Visit, itemId: string, format: TExportFormat, live: LiveDocuments): Promise<ExportedDocument> {
  const { link } = await openViewLink(ctx, v);
  const { item } = await itemUnder(ctx, link, itemId);
  if (item.kind !== 'document') throw new AppError('unsupported_media_type', 'Only documents are exported; download a file as it is.');
  if (!link.download_allowed) throw new AppError('forbidden', 'This link does not allow downloads.');
  const readable = async (id: string) => (await itemUnder(ctx, link, id).catch(() => undefined))?.item;
  const file = await documentFile(ctx, item, format, live, readable);
  await countDownload(ctx, link, v, item);
  return file;
}

/** A file's thumbnail under the link: part of the page, never counted as a download. */
export async function visitThumbnail(ctx: AppContext, v: Visit, itemId: string, q: { size: '256' | '1024'; v?: string | undefined }): Promise<Thumbnail> {
  const { link } = await openViewLink(ctx, v);
  const { item } = await itemUnder(ctx, link, itemId);
  return thumbnailOf(ctx, item, q);
}

/**
 * Where the link page's viewer reads a file's bytes. A file the viewer shows (a picture, PDF,
 * video, audio, text) is viewed on the page, as pictures always were: answered even when the link
 * forbids downloads, and not counted. Any other file reaches the visitor only as a download, which
 * the link may forbid; the viewer offers its Download button instead of asking for it here.
 */
export async function visitContentUrl(ctx: AppContext, v: Visit, itemId: string): Promise<TContentUrl> {
  const { link } = await openViewLink(ctx, v);
  const { item } = await itemUnder(ctx, link, itemId);
  if (item.kind !== 'file')
    throw new AppError('unsupported_media_type', item.kind === 'document' ? 'A document is read on the page.' : 'A folder has no bytes of its own.');
  if (!viewerKind({ name: item.name, mimeType: item.mime_type }) && !link.download_allowed) {
    throw new AppError('forbidden', 'This link does not allow downloads.');
  }
  return fileViewerUrl(ctx, item);
}

/**
 * A document under the link as HTML (read-only), shown by the page in a sandboxed frame. The
 * frame has an origin of its own and sends no cookie, so the document's own pictures (files in it,
 * hence under the link) are given as short-lived signed URLs of their bytes; every other picture
 * keeps its address. Showing them is part of the page: not counted as downloads.
 */
export async function visitDocument(ctx: AppContext, v: Visit, itemId: string, live: LiveDocuments): Promise<TPublicDocument> {
  const { link } = await openViewLink(ctx, v);
  const { item } = await itemUnder(ctx, link, itemId);
  if (item.kind !== 'document') throw new AppError('not_found');
  return { title: item.name, html: await documentHtml(ctx, item, live, await signedPictureUrls(ctx, item.id)) };
}

/**
 * A document file under the link as HTML, or a page of a spreadsheet file (ADR 0039). Showing it is
 * part of the page, as a picture is: allowed when the link forbids downloads, and not counted as one.
 */
export async function visitPreviewHtml(ctx: AppContext, v: Visit, itemId: string): Promise<TPreviewHtml> {
  const { link } = await openViewLink(ctx, v);
  const { item } = await itemUnder(ctx, link, itemId);
  return htmlOfFile(ctx, item);
}

export async function visitPreviewSheets(
  ctx: AppContext,
  v: Visit,
  itemId: string,
  q: { sheet: number; offset: number; limit: number },
): Promise<TSheetPreview> {
  const { link } = await openViewLink(ctx, v);
  const { item } = await itemUnder(ctx, link, itemId);
  return sheetsOfFile(ctx, item, q);
}

/**
 * A file request's visitor, once its link is open (live, its folder in place, its password given):
 * an uploader who reaches the link's folder alone and whose uploads are the link's own. Checked
 * again on every call, so an upload stops the moment its link ends.
 */
async function openRequest(ctx: AppContext, v: Visit): Promise<LinkUploader> {
  const { link, root } = await openLink(ctx, v);
  if (link.kind !== 'file_request' || root.kind !== 'folder') throw new AppError('forbidden', 'This link does not take files.');
  return {
    ...visitorOf(link, v),
    ownerId: link.created_by!,
    folder: root,
    maxBytes: link.max_bytes === null ? null : Number(link.max_bytes),
    uploadedBytes: (db) => findUploadedBytes(db, link.id),
    counted: (db, files, bytes) => countUploads(db, link.id, files, bytes),
  };
}

/**
 * A full workspace, as a visitor is told of it: the quota, the bytes used and those reserved
 * would let them follow what others put in the folder (and the workspace's size), so none is said.
 */
async function roomUntold<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    // The link's own cap is its maker's to set and the page's to say; the workspace's room is not told.
    if (error instanceof AppError && error.code === 'quota_exceeded' && error.details?.limit !== 'link') throw new AppError('quota_exceeded');
    throw error;
  }
}

/** An upload as its visitor sees it: nothing of where it went. */
const presentLinkUpload = (u: TUpload): TLinkUpload => ({
  id: u.id,
  name: u.name,
  size: u.size,
  mimeType: u.mimeType,
  partSize: u.partSize,
  partCount: u.partCount,
  state: u.state,
  expiresAt: u.expiresAt,
  createdAt: u.createdAt,
});

/**
 * Starts an upload into the file request's folder (or a folder made in it through the link); a name
 * already there is kept, and the new file takes a free one when it completes.
 */
export async function startLinkUpload(ctx: AppContext, v: Visit, input: TLinkStartUploadRequest): Promise<TLinkStartedUpload> {
  const visitor = await openRequest(ctx, v);
  const parentId = input.parentId ?? visitor.folder.id;
  const started = await roomUntold(startUpload(ctx, visitor, visitor.folder.workspace_id, { ...input, parentId, onConflict: 'keep_both' }));
  return { ...presentLinkUpload(started), parts: started.parts };
}

const HOUR = 60 * 60_000;

/**
 * A folder a file request's visitor sends arrives as folders they make here, one by one, inside the
 * request's folder or a folder they made: always a new one (under a free name when its own is
 * taken, ADR 0035), so their files never mix with anyone's. At most `LIMITS.linkFoldersPerHour` per
 * link and address.
 */
export async function createLinkFolder(ctx: AppContext, v: Visit, input: TLinkCreateFolderRequest): Promise<TLinkFolder> {
  const visitor = await openRequest(ctx, v);
  const parentId = input.parentId ?? visitor.folder.id;
  const parent = (await visitorFolders(ctx.db, visitor, [parentId])).get(parentId)!;
  if (parent instanceof AppError) throw parent;
  const made = await countRecorded(ctx.db, visitor, 'item.created', new Date(Date.now() - HOUR), { kind: 'folder' });
  if (made >= LIMITS.linkFoldersPerHour)
    throw new AppError('rate_limited', 'Too many folders from here through this link. Wait a while before sending more.', { retryAfter: 3600 });
  const folder = await createFolderThroughLink(ctx.db, visitor, { parent: parent.item, depth: parent.depth, name: input.name, ownerId: visitor.ownerId });
  return { id: folder.id };
}

export async function linkUploadStatus(ctx: AppContext, v: Visit, uploadId: string): Promise<TLinkUploadStatus> {
  const status = await getUpload(ctx, await openRequest(ctx, v), uploadId);
  return { ...presentLinkUpload(status), parts: status.parts };
}

export async function signLinkUploadParts(ctx: AppContext, v: Visit, uploadId: string, partNumbers: number[]): Promise<TSignedPart[]> {
  return signParts(ctx, await openRequest(ctx, v), uploadId, partNumbers);
}

/** Completes an upload: the file appears in the folder (its maker's), recorded as made by the link and counted on it. */
export async function completeUploadThroughLink(
  ctx: AppContext,
  v: Visit,
  uploadId: string,
  input: { sha256?: string | undefined },
): Promise<{ upload: TLinkUpload }> {
  return { upload: presentLinkUpload(await roomUntold(completeLinkUpload(ctx, await openRequest(ctx, v), uploadId, input))) };
}

export async function abortLinkUpload(ctx: AppContext, v: Visit, uploadId: string): Promise<void> {
  await abortUpload(ctx, await openRequest(ctx, v), uploadId);
}
