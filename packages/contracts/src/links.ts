import { z } from 'zod';
import { ZId, ZIsoTime, ZWorkspaceRef } from './common.ts';
import { ZItemKind } from './items.ts';
import { LIMITS } from './limits.ts';

export const ZLinkKind = z.enum(['view', 'file_request']);
export type TLinkKind = z.infer<typeof ZLinkKind>;

/** PRODUCT §5: a link's password has at least 8 characters. */
const ZLinkPassword = z.string().min(LIMITS.linkPasswordMin, `At least ${LIMITS.linkPasswordMin} characters`).max(256, 'At most 256 characters');

/**
 * `POST /items/:id/links`: a public link to the item. Only view links are made for now (a
 * file-request link, which lets visitors upload, is not offered yet).
 */
export const ZCreateLinkRequest = z.object({
  kind: z.literal('view'),
  password: ZLinkPassword.optional(),
  expiresAt: ZIsoTime.nullable().optional(),
  downloadAllowed: z.boolean().optional(),
});
export type TCreateLinkRequest = z.infer<typeof ZCreateLinkRequest>;

/** `PATCH /items/:id/links/:linkId`: a new password (null: none), expiry (null: never) or download rule. */
export const ZUpdateLinkRequest = z
  .object({ password: ZLinkPassword.nullable().optional(), expiresAt: ZIsoTime.nullable().optional(), downloadAllowed: z.boolean().optional() })
  .refine((v) => v.password !== undefined || v.expiresAt !== undefined || v.downloadAllowed !== undefined, { message: 'Give something to change', path: ['expiresAt'] });
export type TUpdateLinkRequest = z.infer<typeof ZUpdateLinkRequest>;

export const ZLinkState = z.enum(['active', 'expired', 'revoked']);

/** A public link as its item's managers (and the workspace's admins) see it, with its URL to copy. */
export const ZLink = z.object({
  id: ZId,
  url: z.string(),
  itemId: ZId,
  kind: ZLinkKind,
  state: ZLinkState,
  expiresAt: ZIsoTime.nullable(),
  hasPassword: z.boolean(),
  downloadAllowed: z.boolean(),
  views: z.number().int(),
  downloads: z.number().int(),
  createdBy: z.object({ id: ZId, name: z.string() }).nullable(),
  createdAt: ZIsoTime,
});
export type TLink = z.infer<typeof ZLink>;
export const ZLinkList = z.object({ items: z.array(ZLink), nextCursor: z.string().nullable() });
export type TLinkList = z.infer<typeof ZLinkList>;
export const ZLinkParams = z.object({ id: ZId, linkId: ZId });
export const ZWorkspaceLinkParams = z.object({ ws: ZWorkspaceRef, linkId: ZId });

/** A live link of the workspace, for its admins: with the item it opens (null name: deleted) and who made it. */
export const ZWorkspaceLink = ZLink.extend({ item: z.object({ id: ZId, name: z.string(), kind: ZItemKind }) });
export type TWorkspaceLink = z.infer<typeof ZWorkspaceLink>;
export const ZWorkspaceLinkList = z.object({ items: z.array(ZWorkspaceLink), nextCursor: z.string().nullable() });
export type TWorkspaceLinkList = z.infer<typeof ZWorkspaceLinkList>;

/** The workspace's link policy (admins change it; PRODUCT §3 Workspace.settings). */
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
const ZLinkToken = z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/, 'not a link');
export const ZLinkTokenParams = z.object({ token: ZLinkToken });
export const ZLinkItemParams = z.object({ token: ZLinkToken, itemId: ZId });
export const ZUnlockLinkRequest = z.object({ password: z.string().min(1).max(256) });
export const ZLinkContentQuery = z.object({ download: z.enum(['0', '1']).optional() });

/** An item as a link's visitor sees it: nothing about who owns it or where it sits above the link. */
export const ZPublicItem = z.object({ id: ZId, kind: ZItemKind, name: z.string(), size: z.number().int(), mimeType: z.string().nullable(), updatedAt: ZIsoTime });
export type TPublicItem = z.infer<typeof ZPublicItem>;
/** `GET /links/:token`: what the link opens. */
export const ZPublicLink = z.object({ kind: ZLinkKind, item: ZPublicItem, downloadAllowed: z.boolean(), expiresAt: ZIsoTime.nullable() });
export type TPublicLink = z.infer<typeof ZPublicLink>;
/** `GET /links/:token/items/:itemId`: an item under the link, the folders from the link's item down to it, and a folder's contents. */
export const ZPublicFolder = z.object({ item: ZPublicItem, trail: z.array(z.object({ id: ZId, name: z.string() })), children: z.array(ZPublicItem) });
export type TPublicFolder = z.infer<typeof ZPublicFolder>;
/** `GET /links/:token/items/:itemId/document`: a document as HTML, to show in a sandboxed frame (no script runs in it). */
export const ZPublicDocument = z.object({ title: z.string(), html: z.string() });
export type TPublicDocument = z.infer<typeof ZPublicDocument>;
