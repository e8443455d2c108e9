import { z } from 'zod';
import { ZCursor, ZId, ZIsoTime, ZPageQuery, ZWorkspaceRef } from './common.ts';
import { ZItemKind, ZItemName, ZItemPreview } from './items.ts';
import { LIMITS } from './limits.ts';
import { ZCompleteUploadRequest, ZSignedPart, ZStartUploadRequest, ZUpload, ZUploadPart } from './uploads.ts';

export const ZLinkKind = z.enum(['view', 'file_request']);
export type TLinkKind = z.infer<typeof ZLinkKind>;

/** A file request's cap on the bytes sent through it, all its files together. */
const ZLinkMaxBytes = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** PRODUCT.md §5: a link's password has at least 8 characters. */
const ZLinkPassword = z.string().min(LIMITS.linkPasswordMin, `At least ${LIMITS.linkPasswordMin} characters`).max(256, 'At most 256 characters');

/**
 * `POST /items/:id/links`: a public link to the item. `view` opens it (and what is under it);
 * `file_request`, on a folder only, lets visitors upload into it without seeing anything in it
 * (ADR 0035) — downloads do not apply to it.
 */
export const ZCreateLinkRequest = z.object({
  kind: ZLinkKind,
  password: ZLinkPassword.optional(),
  expiresAt: ZIsoTime.nullable().optional(),
  downloadAllowed: z.boolean().optional(),
  /** A file request only: the most its files may hold together, in bytes (none: no cap but the workspace's quota). */
  maxBytes: ZLinkMaxBytes.nullable().optional(),
});
export type TCreateLinkRequest = z.infer<typeof ZCreateLinkRequest>;

/** `PATCH /items/:id/links/:linkId`: a new password (null: none), expiry (null: never), download rule or a file request's cap (null: none). */
export const ZUpdateLinkRequest = z
  .object({
    password: ZLinkPassword.nullable().optional(),
    expiresAt: ZIsoTime.nullable().optional(),
    downloadAllowed: z.boolean().optional(),
    maxBytes: ZLinkMaxBytes.nullable().optional(),
  })
  .refine((v) => v.password !== undefined || v.expiresAt !== undefined || v.downloadAllowed !== undefined || v.maxBytes !== undefined, {
    message: 'Give something to change',
    path: ['expiresAt'],
  });
export type TUpdateLinkRequest = z.infer<typeof ZUpdateLinkRequest>;

export const ZLinkState = z.enum(['active', 'expired', 'revoked']);

/** A public link as its item's managers (and the workspace's admins) see it, with its URL to copy. */
export const ZLink = z.object({
  id: ZId,
  /** Null when its address cannot be read back (kept sealed under an earlier SESSION_SECRET): the link works, but a new one must be made to share it again. */
  url: z.string().nullable(),
  itemId: ZId,
  /** Its place among the links ever made on its item, 1 for the first: its name ("Link 3"), which revoking or paging never changes. */
  number: z.number().int().min(1),
  kind: ZLinkKind,
  state: ZLinkState,
  expiresAt: ZIsoTime.nullable(),
  /** When it was revoked (the day it ended, whatever its planned expiry); null while it is not. */
  revokedAt: ZIsoTime.nullable(),
  hasPassword: z.boolean(),
  downloadAllowed: z.boolean(),
  views: z.number().int(),
  downloads: z.number().int(),
  /** Files uploaded through it (a file request). */
  uploads: z.number().int(),
  /** A file request's cap on the bytes of all its files together; null: none. */
  maxBytes: z.number().int().nullable(),
  /** Bytes of the files uploaded through it (a file request). */
  uploadedBytes: z.number().int(),
  createdBy: z.object({ id: ZId, name: z.string() }).nullable(),
  createdAt: ZIsoTime,
});
export type TLink = z.infer<typeof ZLink>;
export const ZLinkList = z.object({ items: z.array(ZLink), nextCursor: z.string().nullable() });
export type TLinkList = z.infer<typeof ZLinkList>;
export const ZLinkParams = z.object({ id: ZId, linkId: ZId });
/** `?cursor=&limit=` of a list of links, newest first (ids are time-ordered). */
export const ZLinksPosition = z.object({ id: ZId });
export const ZLinksQuery = ZPageQuery(ZCursor(ZLinksPosition));
export type TLinksQuery = z.infer<typeof ZLinksQuery>;
export const ZWorkspaceLinkParams = z.object({ ws: ZWorkspaceRef, linkId: ZId });

/** A live link of the workspace, for its admins: with the item it opens (null name: deleted) and who made it. */
export const ZWorkspaceLink = ZLink.extend({ item: z.object({ id: ZId, name: z.string(), kind: ZItemKind }) });
export type TWorkspaceLink = z.infer<typeof ZWorkspaceLink>;
export const ZWorkspaceLinkList = z.object({ items: z.array(ZWorkspaceLink), nextCursor: z.string().nullable() });
export type TWorkspaceLinkList = z.infer<typeof ZWorkspaceLinkList>;

/** The workspace's link policy (admins change it; PRODUCT.md §3 Workspace.settings). */
export const ZLinkPolicy = z.object({
  linksAllowed: z.boolean(),
  passwordRequired: z.boolean(),
  /** Days a link may live at most; null: unlimited. */
  maxLifetimeDays: z.number().int().min(1).max(3650).nullable(),
});
export type TLinkPolicy = z.infer<typeof ZLinkPolicy>;
export const ZUpdateLinkPolicy = ZLinkPolicy.partial();
export type TUpdateLinkPolicy = z.infer<typeof ZUpdateLinkPolicy>;

// The visitor's side: no account, only the link's token.
const ZLinkToken = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'not a link');
export const ZLinkTokenParams = z.object({ token: ZLinkToken });
export const ZLinkItemParams = z.object({ token: ZLinkToken, itemId: ZId });
export const ZUnlockLinkRequest = z.object({ password: z.string().min(1).max(256) });
export const ZLinkContentQuery = z.object({ download: z.enum(['0', '1']).optional() });

/** An item as a link's visitor sees it: nothing about who owns it or where it sits above the link. */
export const ZPublicItem = z.object({
  id: ZId,
  kind: ZItemKind,
  name: z.string(),
  size: z.number().int(),
  mimeType: z.string().nullable(),
  updatedAt: ZIsoTime,
  /**
   * A file's thumbnail as the app's listings carry it (ZItemPreview), fetched at
   * `GET /links/:token/items/:itemId/thumbnail?size=&v=`; absent or null otherwise.
   */
  preview: ZItemPreview.nullable().optional(),
});
export type TPublicItem = z.infer<typeof ZPublicItem>;
/**
 * `GET /links/:token`: what the link opens. A file request names its folder only (no size, the
 * time the link was made), who asks for the files, and the largest file it takes.
 */
export const ZPublicLink = z.object({
  kind: ZLinkKind,
  item: ZPublicItem,
  downloadAllowed: z.boolean(),
  expiresAt: ZIsoTime.nullable(),
  /** A file request: the name of who asks for the files; null for a view link. */
  requestedBy: z.string().nullable(),
  /** A file request: the largest file it takes, in bytes; null for a view link. */
  maxFileSize: z.number().int().nullable(),
  /** A file request with a cap on its total: the bytes it still takes (absent when it has no cap). */
  remainingBytes: z.number().int().optional(),
});
export type TPublicLink = z.infer<typeof ZPublicLink>;
/** `GET /links/:token/items/:itemId`: an item under the link, the folders from the link's item down to it, and a page of a folder's contents. */
export const ZPublicFolder = z.object({
  item: ZPublicItem,
  trail: z.array(z.object({ id: ZId, name: z.string() })),
  children: z.array(ZPublicItem),
  nextCursor: z.string().nullable(),
});
/** A position in a folder's listing for a link's visitor: folders first, then by name (case folded), then id. */
export const ZPublicChildPosition = z.object({ folder: z.boolean(), name: z.string().max(1000), id: ZId });
export const ZPublicFolderQuery = ZPageQuery(ZCursor(ZPublicChildPosition));
export type TPublicFolderQuery = z.infer<typeof ZPublicFolderQuery>;
export type TPublicFolder = z.infer<typeof ZPublicFolder>;
/** `GET /links/:token/items/:itemId/document`: a document as HTML, to show in a sandboxed frame (no script runs in it). */
export const ZPublicDocument = z.object({ title: z.string(), html: z.string() });
export type TPublicDocument = z.infer<typeof ZPublicDocument>;

/**
 * A file request's visitor uploads with the protocol of PRODUCT.md §7 (start, sign parts, PUT them,
 * complete), on routes under the link. What they are told of an upload says nothing of the folder:
 * not its workspace, not the name a file was stored under, not the file made.
 */
export const ZLinkUploadParams = z.object({ token: ZLinkToken, uploadId: ZId });
export const ZLinkStartUploadRequest = ZStartUploadRequest.pick({ name: true, size: true, mimeType: true, sha256: true }).extend({
  /** A folder the visitor made through the link (`POST /links/:token/folders`); none: the request's folder. */
  parentId: ZId.optional(),
});
export type TLinkStartUploadRequest = z.input<typeof ZLinkStartUploadRequest>;
export const ZLinkUpload = ZUpload.pick({
  id: true,
  name: true,
  size: true,
  mimeType: true,
  partSize: true,
  partCount: true,
  state: true,
  expiresAt: true,
  createdAt: true,
});
export type TLinkUpload = z.infer<typeof ZLinkUpload>;
export const ZLinkStartedUpload = ZLinkUpload.extend({ parts: z.array(ZSignedPart) });
export type TLinkStartedUpload = z.infer<typeof ZLinkStartedUpload>;
export const ZLinkUploadStatus = ZLinkUpload.extend({ parts: z.array(ZUploadPart) });
export type TLinkUploadStatus = z.infer<typeof ZLinkUploadStatus>;
export const ZLinkCompleteUploadRequest = ZCompleteUploadRequest.pick({ sha256: true });
export const ZLinkCompleteUploadResponse = z.object({ upload: ZLinkUpload });
export type TLinkCompleteUploadResponse = z.infer<typeof ZLinkCompleteUploadResponse>;

/**
 * `POST /links/:token/folders`: a folder a visitor sends arrives as folders made inside the request's
 * folder (or inside one they made): always a new folder, under a free name when the name is taken,
 * so no one's files mix with anyone else's and nothing tells the visitor what the folder holds.
 */
export const ZLinkCreateFolderRequest = z.object({ name: ZItemName, parentId: ZId.optional() });
export type TLinkCreateFolderRequest = z.input<typeof ZLinkCreateFolderRequest>;
/** The folder made: its id alone (to upload into), not the name it was stored under. */
export const ZLinkFolder = z.object({ id: ZId });
export type TLinkFolder = z.infer<typeof ZLinkFolder>;
