import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { ItemRow, PreviewKind } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { requireItem } from '../items/index.ts';
import { findVersionBytes } from './previews.repo.ts';
import { previewBytes } from './previews.service.ts';

export interface Thumbnail {
  bytes: Buffer;
  /** The address named the bytes' hash: the answer never changes. */
  immutable: boolean;
}

const none = () => new AppError('not_found', 'This file has no thumbnail (yet).');

/** The thumbnail of a file's version (the current one unless `versionId`), whoever is asking: the caller has checked they may view it. */
export async function thumbnailOf(
  ctx: AppContext,
  item: ItemRow,
  q: { size: '256' | '1024'; version?: string | undefined; v?: string | undefined },
): Promise<Thumbnail> {
  const versionId = q.version ?? item.current_version_id;
  if (item.kind !== 'file' || !versionId) throw none();
  const version = await findVersionBytes(ctx.db, versionId);
  if (!version || version.item_id !== item.id || version.state !== 'ready') throw new AppError('not_found');
  // An address naming other bytes (an older version's hash): not these.
  if (q.v && !version.sha256.startsWith(q.v)) throw none();
  const bytes = await previewBytes(ctx, version.sha256, `thumb-${q.size}` as PreviewKind);
  if (!bytes) throw none();
  return { bytes, immutable: !!q.v };
}

/** `GET /items/:id/thumbnail`: for whoever may view the item (ADR 0024). */
export async function itemThumbnail(ctx: AppContext, actor: Actor, id: string, q: Parameters<typeof thumbnailOf>[2]): Promise<Thumbnail> {
  const { item } = await requireItem(ctx.db, actor, id, 'view');
  return thumbnailOf(ctx, item, q);
}

/**
 * Sends a thumbnail: WebP, inert (a sandbox CSP and nosniff, as every byte people uploaded is
 * served), kept for good by the browser when its address names the bytes' hash, else a minute.
 */
export function sendThumbnail(reply: FastifyReply, t: Thumbnail) {
  return reply
    .header('content-type', 'image/webp')
    .header('content-length', t.bytes.byteLength)
    .header('cache-control', t.immutable ? 'private, max-age=31536000, immutable' : 'private, max-age=60')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'same-origin')
    .send(t.bytes);
}
