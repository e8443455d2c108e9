import {
  encodeCursor,
  type TCreateLinkRequest,
  type TLink,
  type TLinkList,
  type TLinksQuery,
  type TLinkPolicy,
  type TUpdateLinkPolicy,
  type TUpdateLinkRequest,
  type TWorkspaceLinkList,
} from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { decrypt, deriveKey, encrypt, randomToken, sha256 } from '../../lib/crypto.ts';
import { record } from '../events/index.ts';
import { abortLinkUploads } from '../files/index.ts';
import { findPlaces, maySeeGrants, requireItem } from '../items/index.ts';
import { getWorkspace, mergeSettings, requireWorkspace } from '../workspaces/index.ts';
import { hashLinkPassword } from './link-password.ts';
import { findLinksOf, findLiveLinks, findPolicySettings, findWorkspaceLink, insertLink, updateLinkRow, type LinkRow } from './links.repo.ts';

const DAY = 24 * 60 * 60_000;
const invalid = (path: string, message: string) => new AppError('invalid_input', message, { fields: [{ path, message }] });

/** PRODUCT.md §4: active → expired | revoked; expired is read from expires_at. */
export const linkState = (l: Pick<LinkRow, 'revoked_at' | 'expires_at'>, now = Date.now()): TLink['state'] =>
  l.revoked_at ? 'revoked' : l.expires_at && new Date(l.expires_at).getTime() <= now ? 'expired' : 'active';

/** The key tokens are sealed with: derived from the instance secret for this use alone. */
const sealKey = (ctx: AppContext) => deriveKey(ctx.env.SESSION_SECRET, 'share-link-token');

/**
 * The link's address, or null when its token was sealed under another secret (SESSION_SECRET changed since):
 * the link still works, but its address cannot be given again.
 */
function urlOf(ctx: AppContext, l: LinkRow): string | null {
  try {
    return `${ctx.env.PUBLIC_URL}/s/${decrypt(sealKey(ctx), l.token_sealed)}`;
  } catch {
    return null;
  }
}

export function presentLink(ctx: AppContext, l: LinkRow): TLink {
  return {
    id: l.id,
    url: urlOf(ctx, l),
    itemId: l.item_id,
    number: l.number,
    kind: l.kind,
    state: linkState(l),
    expiresAt: l.expires_at ? new Date(l.expires_at).toISOString() : null,
    revokedAt: l.revoked_at ? new Date(l.revoked_at).toISOString() : null,
    hasPassword: l.password_hash !== null,
    downloadAllowed: l.download_allowed,
    views: l.views,
    downloads: l.downloads,
    uploads: l.uploads,
    maxBytes: l.max_bytes === null ? null : Number(l.max_bytes),
    uploadedBytes: Number(l.uploaded_bytes),
    createdBy: l.created_by ? { id: l.created_by, name: l.created_by_name ?? '' } : null,
    createdAt: new Date(l.created_at).toISOString(),
  };
}

/** The workspace's link policy; what it does not say is PRODUCT.md §9's default (links allowed, no password needed, unlimited lifetime). */
export async function policyOf(db: Db, workspaceId: string): Promise<TLinkPolicy> {
  const s = await findPolicySettings(db, workspaceId);
  return {
    linksAllowed: s.linksAllowed !== false,
    passwordRequired: s.linkPasswordRequired === true,
    maxLifetimeDays: typeof s.maxLinkLifetimeDays === 'number' ? s.maxLinkLifetimeDays : null,
  };
}

/** An expiry checked against now and the policy: in the future, and within the maximum lifetime when there is one. */
function checkExpiry(expiresAt: Date | null, policy: TLinkPolicy): void {
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalid('body.expiresAt', 'must be in the future');
  if (policy.maxLifetimeDays === null) return;
  if (!expiresAt) throw invalid('body.expiresAt', `links in this workspace expire within ${policy.maxLifetimeDays} days`);
  if (expiresAt.getTime() > Date.now() + policy.maxLifetimeDays * DAY) throw invalid('body.expiresAt', `must be within ${policy.maxLifetimeDays} days`);
}

export async function listLinks(ctx: AppContext, actor: Actor, id: string, q: TLinksQuery): Promise<TLinkList> {
  const access = await requireItem(ctx.db, actor, id, 'view');
  if (!maySeeGrants(access)) throw new AppError('forbidden', 'Only those who may share it see its links.');
  const rows = await findLinksOf(ctx.db, access.item.id, { limit: q.limit + 1, beforeId: q.cursor?.id });
  const page = rows.slice(0, q.limit);
  return { items: page.map((l) => presentLink(ctx, l)), nextCursor: rows.length > q.limit ? encodeCursor({ id: page.at(-1)!.id }) : null };
}

/**
 * A public link to an item (whoever may share it), within the workspace's policy. With a maximum
 * lifetime and no expiry given, the link lives that long. The token is in the URL answered here
 * and nowhere else; only its hash is kept. A file request is made on a folder only; downloads do
 * not apply to it (ADR 0035).
 */
export async function createLink(ctx: AppContext, actor: Actor, id: string, input: TCreateLinkRequest): Promise<TLink> {
  const token = randomToken(32);
  const passwordHash = input.password ? await hashLinkPassword(input.password) : null;
  const link = await inTransaction(ctx.db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'share');
    const request = input.kind === 'file_request';
    if (request && item.kind !== 'folder') throw invalid('body.kind', 'a file request is made on a folder');
    if (request && input.downloadAllowed) throw invalid('body.downloadAllowed', 'a file request lets no one download');
    if (!request && input.maxBytes) throw invalid('body.maxBytes', 'only a file request takes files');
    const downloadAllowed = request ? false : (input.downloadAllowed ?? true);
    const policy = await policyOf(tx, item.workspace_id);
    if (!policy.linksAllowed) throw new AppError('forbidden', 'This workspace does not allow public links.');
    if (policy.passwordRequired && !passwordHash) throw invalid('body.password', 'links in this workspace need a password');
    const expiresAt = input.expiresAt
      ? new Date(input.expiresAt)
      : policy.maxLifetimeDays !== null
        ? new Date(Date.now() + policy.maxLifetimeDays * DAY)
        : null;
    checkExpiry(expiresAt, policy);
    const { id: linkId } = await insertLink(tx, {
      workspaceId: item.workspace_id,
      itemId: item.id,
      kind: input.kind,
      tokenHash: sha256(token),
      tokenSealed: encrypt(sealKey(ctx), token),
      passwordHash,
      expiresAt,
      downloadAllowed,
      maxBytes: request ? (input.maxBytes ?? null) : null,
      by: actor.user.id,
    });
    await record(tx, actor, {
      workspaceId: item.workspace_id,
      action: 'link.created',
      itemId: item.id,
      parentIds: [item.parent_id],
      data: {
        linkId,
        kind: input.kind,
        hasPassword: !!passwordHash,
        expiresAt: expiresAt?.toISOString() ?? null,
        downloadAllowed,
        ...(request && input.maxBytes ? { maxBytes: input.maxBytes } : {}),
      },
    });
    return (await findLinksOf(tx, item.id, { linkId }))[0]!;
  });
  return presentLink(ctx, link);
}

/** Changes a live link (whoever may share its item); one that has ended stays ended (`link_expired`). */
export async function updateLink(ctx: AppContext, actor: Actor, id: string, linkId: string, input: TUpdateLinkRequest): Promise<TLink> {
  const passwordHash = input.password ? await hashLinkPassword(input.password) : input.password === null ? null : undefined;
  return inTransaction(ctx.db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'share');
    const link = (await findLinksOf(tx, item.id, { linkId }))[0];
    if (!link) throw new AppError('not_found');
    const state = linkState(link);
    if (state !== 'active') throw new AppError('link_expired', 'This link has ended; make a new one.', { reason: state });
    if (link.kind === 'file_request' && input.downloadAllowed) throw invalid('body.downloadAllowed', 'a file request lets no one download');
    if (link.kind !== 'file_request' && input.maxBytes) throw invalid('body.maxBytes', 'only a file request takes files');
    const policy = await policyOf(tx, item.workspace_id);
    if (passwordHash === null && policy.passwordRequired) throw invalid('body.password', 'links in this workspace need a password');
    const expiresAt = input.expiresAt === undefined ? undefined : input.expiresAt === null ? null : new Date(input.expiresAt);
    if (expiresAt !== undefined) checkExpiry(expiresAt, policy);
    await updateLinkRow(tx, link.id, { passwordHash, expiresAt, downloadAllowed: input.downloadAllowed, maxBytes: input.maxBytes });
    const changed = (await findLinksOf(tx, item.id, { linkId }))[0]!;
    const data = {
      linkId,
      hasPassword: changed.password_hash !== null,
      passwordChanged: passwordHash !== undefined,
      expiresAt: changed.expires_at ? new Date(changed.expires_at).toISOString() : null,
      downloadAllowed: changed.download_allowed,
      ...(input.maxBytes !== undefined ? { maxBytes: input.maxBytes } : {}),
    };
    await record(tx, actor, { workspaceId: item.workspace_id, action: 'link.updated', itemId: item.id, parentIds: [item.parent_id], data });
    return presentLink(ctx, changed);
  });
}

/** Revokes a link (whoever may share its item); revoking one already revoked changes nothing. Its visitors' open uploads end with it. */
export async function revokeLink(db: Db, actor: Actor, id: string, linkId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { item } = await requireItem(tx, actor, id, 'share');
    const link = (await findLinksOf(tx, item.id, { linkId }))[0];
    if (!link) throw new AppError('not_found');
    if (link.revoked_at) return;
    await updateLinkRow(tx, link.id, { revoked: true });
    await abortLinkUploads(tx, link.id);
    await record(tx, actor, { workspaceId: item.workspace_id, action: 'link.revoked', itemId: item.id, parentIds: [item.parent_id], data: { linkId } });
  });
}

/**
 * Revokes any link of the workspace (its owner and admins), whoever made it: a link to something in
 * a member's My files, which admins have no role on, is theirs to end as well.
 */
export async function revokeWorkspaceLink(db: Db, actor: Actor, ws: string, linkId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'manageLinks');
    const link = await findWorkspaceLink(tx, workspace.id, linkId);
    if (!link) throw new AppError('not_found');
    if (link.revoked_at) return;
    await updateLinkRow(tx, link.id, { revoked: true });
    await abortLinkUploads(tx, link.id);
    await record(tx, actor, { workspaceId: workspace.id, action: 'link.revoked', itemId: link.item_id, data: { linkId, byAdmin: true } });
  });
}

/** Every live link of the workspace (not revoked or expired, its item in place), for its owner and admins. */
export async function workspaceLinks(ctx: AppContext, actor: Actor, ws: string, q: TLinksQuery): Promise<TWorkspaceLinkList> {
  const workspace = await requireWorkspace(ctx.db, actor.user, ws, 'manageLinks');
  const found = await findLiveLinks(ctx.db, workspace.id, q.limit + 1, q.cursor?.id);
  const read = found.slice(0, q.limit);
  // A link whose item is inside a folder in the trash does not work now: it is not live.
  // The cursor follows what was read, so leaving it out does not end the list early.
  const places = await findPlaces(ctx.db, [...new Set(read.map((r) => r.item_id))]);
  const rows = read.filter((r) => places.get(r.item_id)?.trashedAbove === false);
  return {
    items: rows.map((r) => ({ ...presentLink(ctx, r), item: { id: r.item_id, name: r.item_name, kind: r.item_kind } })),
    nextCursor: found.length > q.limit ? encodeCursor({ id: read.at(-1)!.id }) : null,
  };
}

export async function getPolicy(db: Db, actor: Actor, ws: string): Promise<TLinkPolicy> {
  const workspace = await getWorkspace(db, actor.user, ws);
  return policyOf(db, workspace.id);
}

/** Changes the link policy (owner and admins). Links made before keep working as they are; revoke them from the list if need be. */
export async function updatePolicy(db: Db, actor: Actor, ws: string, input: TUpdateLinkPolicy): Promise<TLinkPolicy> {
  return inTransaction(db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'manageLinks');
    const change: Record<string, unknown> = {};
    if (input.linksAllowed !== undefined) change.linksAllowed = input.linksAllowed;
    if (input.passwordRequired !== undefined) change.linkPasswordRequired = input.passwordRequired;
    if (input.maxLifetimeDays !== undefined) change.maxLinkLifetimeDays = input.maxLifetimeDays;
    await mergeSettings(tx, workspace.id, change);
    const policy = await policyOf(tx, workspace.id);
    await record(tx, actor, { workspaceId: workspace.id, action: 'link.policy_changed', itemId: null, data: { ...policy } });
    return policy;
  });
}
