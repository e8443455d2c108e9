import { sql, type Kysely } from 'kysely';
import type { Database, PreviewKind, PreviewState } from '../../db/schema.ts';

/* The preview store (ADR 0040): rows keyed by the bytes' SHA-256 and kind, and what they are made from. */

type Q = Kysely<Database>;

export interface ClaimedPreview {
  sha256: string;
  attempts: number;
}

/**
 * The next byte content whose previews are due and held by nobody (the oldest; or `sha256`'s), held
 * for `leaseMs`: a worker that died mid-way (its object half written or written without its row)
 * lets another take it again after that, and the retry writes the same keys over.
 */
export async function claimNext(db: Q, leaseMs: number, sha256?: string): Promise<ClaimedPreview | undefined> {
  // The row is chosen once, in a CTE: as a subquery of the UPDATE's FROM the planner may scan it
  // again for each row it joins, each scan taking the next unlocked row, so claiming several.
  const rows = await sql<ClaimedPreview>`
    WITH due AS MATERIALIZED (
      SELECT sha256 FROM previews
      WHERE state = 'pending' AND run_after <= now() AND (locked_until IS NULL OR locked_until < now())
        ${sha256 ? sql`AND sha256 = ${sha256}` : sql``}
      ORDER BY run_after LIMIT 1 FOR UPDATE SKIP LOCKED)
    UPDATE previews p SET locked_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = p.attempts + 1
    FROM due
    WHERE p.sha256 = due.sha256 AND p.state = 'pending'
    RETURNING p.sha256, p.attempts`.execute(db);
  const [first] = rows.rows;
  return first && { sha256: first.sha256, attempts: Math.max(...rows.rows.map((r) => r.attempts)) };
}

/** A ready version holding the bytes (any: they are the same bytes), or undefined when none does any more. */
export function findSource(db: Q, sha256: string) {
  return db
    .selectFrom('file_versions')
    .select(['blob_key', 'size_bytes', 'mime_type'])
    .where('sha256', '=', sha256)
    .where('state', '=', 'ready')
    .limit(1)
    .executeTakeFirst();
}

/** The previews are made and their objects written: ready, in one statement (both sizes at once). */
export async function markReady(
  db: Q,
  sha256: string,
  made: { kind: PreviewKind; blobKey: string; size: number; width: number; height: number }[],
  placeholder: string,
): Promise<void> {
  for (const m of made) {
    await db
      .updateTable('previews')
      .set({
        state: 'ready',
        error: null,
        blob_key: m.blobKey,
        size_bytes: m.size,
        width: m.width,
        height: m.height,
        placeholder,
        locked_until: null,
        last_used_at: new Date(),
        updated_at: new Date(),
      })
      .where('sha256', '=', sha256)
      .where('kind', '=', m.kind)
      .execute();
  }
}

/** An answer without a picture: `failed` (with the reason) or `unsupported`, for every kind. */
export async function markAnswered(db: Q, sha256: string, state: Extract<PreviewState, 'failed' | 'unsupported'>, error: string | null): Promise<void> {
  await db
    .updateTable('previews')
    .set({ state, error, blob_key: null, size_bytes: 0, locked_until: null, updated_at: new Date() })
    .where('sha256', '=', sha256)
    .execute();
}

/** Not the file's fault (the pool was full, a worker crashed): tried again after `retryMs`. */
export async function postpone(db: Q, sha256: string, retryMs: number, o: { refund?: boolean } = {}): Promise<void> {
  await db
    .updateTable('previews')
    .set({
      locked_until: null,
      run_after: sql`now() + ${`${retryMs} milliseconds`}::interval`,
      ...(o.refund ? { attempts: sql<number>`greatest(attempts - 1, 0)` } : {}),
    })
    .where('sha256', '=', sha256)
    .where('state', '=', 'pending')
    .execute();
}

/** No version holds the bytes any more: their previews go. */
export async function deletePreviews(db: Q, sha256: string): Promise<void> {
  await db.deleteFrom('previews').where('sha256', '=', sha256).execute();
}

export function findPreview(db: Q, sha256: string, kind: PreviewKind) {
  return db.selectFrom('previews').selectAll().where('sha256', '=', sha256).where('kind', '=', kind).executeTakeFirst();
}

/** Served: its last use noted, at most once a minute (a grid of a hundred thumbnails writes nothing while they are fresh). */
export async function touch(db: Q, sha256: string, kind: PreviewKind): Promise<void> {
  await db
    .updateTable('previews')
    .set({ last_used_at: new Date() })
    .where('sha256', '=', sha256)
    .where('kind', '=', kind)
    .where('last_used_at', '<', new Date(Date.now() - 60_000))
    .execute();
}

/** An evicted preview asked for: made again, first. */
export async function requeue(db: Q, sha256: string): Promise<void> {
  await db
    .updateTable('previews')
    .set({ state: 'pending', attempts: 0, run_after: sql`now()`, locked_until: null, updated_at: new Date() })
    .where('sha256', '=', sha256)
    .where('state', '=', 'evicted')
    .execute();
}

/** The bytes the ready previews take in storage. */
export async function readyBytes(db: Q): Promise<number> {
  const row = await db
    .selectFrom('previews')
    .select(sql<string>`coalesce(sum(size_bytes), 0)`.as('total'))
    .where('state', '=', 'ready')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The least recently used ready previews, oldest first. */
export function leastUsed(db: Q, limit: number) {
  return db
    .selectFrom('previews')
    .select(['sha256', 'kind', 'blob_key', 'size_bytes', 'last_used_at'])
    .where('state', '=', 'ready')
    .orderBy('last_used_at')
    .limit(limit)
    .execute();
}

/** Evicted unless used since it was chosen: its row stays (`evicted`), its object goes next. */
export async function markEvicted(db: Q, p: { sha256: string; kind: PreviewKind; last_used_at: Date }): Promise<boolean> {
  const r = await db
    .updateTable('previews')
    .set({ state: 'evicted', blob_key: null, size_bytes: 0, updated_at: new Date() })
    .where('sha256', '=', p.sha256)
    .where('kind', '=', p.kind)
    .where('state', '=', 'ready')
    .where('last_used_at', '=', p.last_used_at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Previews of bytes no version holds any more (deleted for good), a batch at a time. */
export function findUnheld(db: Q, limit: number) {
  return db
    .selectFrom('previews as p')
    .select(['p.sha256', 'p.kind', 'p.blob_key'])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('file_versions as v').select('v.id').where('v.sha256', '=', eb.ref('p.sha256')))))
    .where('p.locked_until', 'is', null)
    .limit(limit)
    .execute();
}

export async function deletePreview(db: Q, sha256: string, kind: PreviewKind): Promise<void> {
  await db.deleteFrom('previews').where('sha256', '=', sha256).where('kind', '=', kind).execute();
}

/** The active files whose current version holds the bytes (at most `limit`): told their preview is ready. */
export function findHolders(db: Q, sha256: string, limit: number) {
  return db
    .selectFrom('file_versions as v')
    .innerJoin('items as i', 'i.current_version_id', 'v.id')
    .select(['i.id', 'i.workspace_id', 'i.parent_id'])
    .where('v.sha256', '=', sha256)
    .where('i.state', '=', 'active')
    .limit(limit)
    .execute();
}

/** A version's bytes and whose it is. */
export function findVersionBytes(db: Q, versionId: string) {
  return db.selectFrom('file_versions').select(['item_id', 'sha256', 'state']).where('id', '=', versionId).executeTakeFirst();
}
