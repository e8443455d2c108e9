import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** A backup whose heartbeat is older than this was killed: it no longer holds the slot nor keeps bytes from deletion. */
export const STALE_AFTER_MS = 2 * 60_000;
/** The database's clock, not this process's: instances whose clocks differ agree on which run is alive. */
const stale = sql<Date>`now() - ${`${STALE_AFTER_MS} milliseconds`}::interval`;

/**
 * Takes the one running slot for a new backup (ADR 0057): a run whose heartbeat stopped is marked failed first; while
 * another is alive, none is taken (undefined).
 */
export async function startRun(db: Q, run: { trigger: 'command' | 'schedule'; location: string; name: string }): Promise<string | undefined> {
  await db
    .updateTable('backups')
    .set({ state: 'failed', finished_at: new Date(), error: 'It stopped before it ended (the process was stopped or lost).' })
    .where('state', '=', 'running')
    .where('heartbeat_at', '<', stale)
    .execute();
  const id = uuidv7();
  const inserted = await db
    .insertInto('backups')
    .values({ id, ...run })
    .onConflict((oc) =>
      oc
        .expression(sql`(true)`)
        .where('state', '=', 'running')
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

/** The running backup that holds the slot now, if any (alive: its heartbeat recent). */
export async function runningBackup(db: Q): Promise<{ id: string; location: string; name: string; started_at: Date } | undefined> {
  return db
    .selectFrom('backups')
    .select(['id', 'location', 'name', 'started_at'])
    .where('state', '=', 'running')
    .where('heartbeat_at', '>=', stale)
    .executeTakeFirst();
}

/** The latest runs, newest first. */
export function recentBackups(db: Q, limit: number) {
  return db.selectFrom('backups').selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Whether a scheduled backup started at `since` or later (done, failed or running). */
export async function scheduledSince(db: Q, since: Date): Promise<boolean> {
  const row = await db.selectFrom('backups').select('id').where('trigger', '=', 'schedule').where('started_at', '>=', since).limit(1).executeTakeFirst();
  return !!row;
}

/** The run's sign of life; false when it is no longer running (taken over). */
export async function beat(db: Q, id: string): Promise<boolean> {
  const row = await db
    .updateTable('backups')
    .set({ heartbeat_at: sql`now()` })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/** A scheduled backup that failed before it could run (its folder refused, say), recorded so that it is tried at the schedule's next time, not every minute. */
export async function recordFailedRun(db: Q, run: { trigger: 'command' | 'schedule'; location: string; name: string; error: string }): Promise<void> {
  await db
    .insertInto('backups')
    .values({ id: uuidv7(), state: 'failed', finished_at: new Date(), ...run })
    .execute();
}

export async function endRun(
  db: Q,
  id: string,
  outcome: {
    state: 'done' | 'failed';
    error?: string | null;
    blobCount?: number;
    blobBytes?: number;
    copiedCount?: number;
    copiedBytes?: number;
    databaseBytes?: number;
  },
): Promise<void> {
  await db
    .updateTable('backups')
    .set({
      state: outcome.state,
      finished_at: new Date(),
      error: outcome.error ?? null,
      blob_count: outcome.blobCount ?? null,
      blob_bytes: outcome.blobBytes ?? null,
      copied_count: outcome.copiedCount ?? null,
      copied_bytes: outcome.copiedBytes ?? null,
      database_bytes: outcome.databaseBytes ?? null,
    })
    .where('id', '=', id)
    .execute();
}

export interface BlobRow {
  key: string;
  sha256: string;
  size: number;
}

/** One page of the files' bytes (each blob once, by key), after `after`: what a backup copies or lists. */
export async function blobPage(db: Q, after: string | null, limit: number): Promise<BlobRow[]> {
  const rows = await sql<{ key: string; sha256: string; size: number }>`
    SELECT DISTINCT ON (blob_key) blob_key AS key, sha256, size_bytes AS size FROM file_versions
    WHERE state = 'ready' ${after === null ? sql`` : sql`AND blob_key > ${after}`}
    ORDER BY blob_key LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => ({ key: r.key, sha256: r.sha256, size: Number(r.size) }));
}

/** The migrations the database has had, by name: which Cabinet's schema a backup holds. */
/** One page of the thumbnails' objects (ready ones, by key), after `after`: what moving storage copies besides the files' bytes. */
export async function previewObjectPage(db: Q, after: string | null, limit: number): Promise<{ key: string; size: number }[]> {
  const rows = await sql<{ key: string; size: number }>`
    SELECT blob_key AS key, size_bytes AS size FROM previews
    WHERE state = 'ready' AND blob_key IS NOT NULL ${after === null ? sql`` : sql`AND blob_key > ${after}`}
    ORDER BY blob_key LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => ({ key: r.key, size: Number(r.size) }));
}

/** Whether a ready thumbnail names the object at `key`. */
export async function previewNamed(db: Q, key: string): Promise<boolean> {
  return !!(await db.selectFrom('previews').select('sha256').where('blob_key', '=', key).where('state', '=', 'ready').executeTakeFirst());
}

export async function appliedMigrations(db: Q): Promise<string[]> {
  const rows = await sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Every key storage may hold that something names: any version's (a deleted one's bytes go by a job), an upload's under way, a thumbnail's. */
export async function namedKeys(db: Q): Promise<Set<string>> {
  const rows = await sql<{ key: string }>`
    SELECT blob_key AS key FROM file_versions
    UNION SELECT blob_key FROM uploads WHERE state IN ('created', 'uploading')
    UNION SELECT dedup_blob_key FROM uploads WHERE state IN ('created', 'uploading') AND dedup_blob_key IS NOT NULL
    UNION SELECT blob_key FROM previews WHERE blob_key IS NOT NULL`.execute(db);
  return new Set(rows.rows.map((r) => r.key));
}

/** A ready version holding `key`, if any. */
export async function readyVersionOf(db: Q, key: string): Promise<{ id: string } | undefined> {
  return db.selectFrom('file_versions').select('id').where('blob_key', '=', key).where('state', '=', 'ready').limit(1).executeTakeFirst();
}
