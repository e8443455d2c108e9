import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database, JobRow } from '../../db/schema.ts';

type Q = Kysely<Database>;

/**
 * Adds a job. Inside a transaction it is queued only if that transaction commits, which is how
 * work on the outside world (deleting bytes) follows a database change without ever running
 * for a change that did not happen. A `singleton` key keeps one queued copy.
 */
export async function enqueue(
  db: Q,
  kind: string,
  payload: Record<string, unknown> = {},
  o: { runAt?: Date; singleton?: string; maxAttempts?: number } = {},
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: uuidv7(),
      kind,
      payload: JSON.stringify(payload),
      singleton: o.singleton ?? null,
      run_at: o.runAt ?? new Date(),
      ...(o.maxAttempts ? { max_attempts: o.maxAttempts } : {}),
    })
    .onConflict((oc) => oc.column('singleton').doNothing())
    .execute();
}

/**
 * Takes the next due job and leases it for `leaseMs`: the row lock (SKIP LOCKED) keeps two
 * runners from taking it at the same moment, the lease keeps others off it while it runs, and a
 * lease that lapses (its runner died) lets another runner take it again.
 */
export async function claimJob(db: Q, leaseMs: number): Promise<JobRow | undefined> {
  return db.transaction().execute(async (tx) => {
    const job = await tx
      .selectFrom('jobs')
      .selectAll()
      .where('run_at', '<=', new Date())
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', new Date())]))
      .where(sql<boolean>`attempts < max_attempts`)
      .orderBy('run_at')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!job) return undefined;
    return tx
      .updateTable('jobs')
      .set({ locked_until: new Date(Date.now() + leaseMs), attempts: sql`attempts + 1` })
      .where('id', '=', job.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function finishJob(db: Q, job: JobRow, next?: Date): Promise<void> {
  if (next) {
    await db.updateTable('jobs').set({ run_at: next, locked_until: null, attempts: 0, last_error: null }).where('id', '=', job.id).execute();
  } else {
    await db.deleteFrom('jobs').where('id', '=', job.id).execute();
  }
}

/** Retries with exponential backoff (a second, doubling, at most an hour); after the last attempt the row stays, with its error, for an operator. */
export async function failJob(db: Q, job: JobRow, error: unknown): Promise<void> {
  const delay = Math.min(3_600_000, 1000 * 2 ** Math.max(0, job.attempts - 1));
  await db
    .updateTable('jobs')
    .set({
      locked_until: null,
      run_at: new Date(Date.now() + delay),
      last_error: String((error as Error)?.message ?? error).slice(0, 2000),
      last_attempt_at: new Date(),
    })
    .where('id', '=', job.id)
    .execute();
}

/** Runs the job again after `postponed.ms`, the attempt its claim counted given back (it was not a failure). */
export async function postponeJob(db: Q, job: JobRow, postponed: { ms: number; message: string }): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ locked_until: null, run_at: new Date(Date.now() + postponed.ms), attempts: sql`greatest(attempts - 1, 0)`, last_error: postponed.message })
    .where('id', '=', job.id)
    .execute();
}

/** Every job of `kind` due within `ms` and not held by a runner, run `ms` from now instead (a whole kind waiting for something). */
export async function postponeKind(db: Q, kind: string, ms: number): Promise<void> {
  const until = new Date(Date.now() + ms);
  await db
    .updateTable('jobs')
    .set({ run_at: until })
    .where('kind', '=', kind)
    .where('run_at', '<', until)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', new Date())]))
    .execute();
}

/**
 * The queue by kind and state, as the runners see it: `running` (held by a runner's lease), `failed` (out of attempts),
 * `due` (to be taken now) and `scheduled` (later). One statement, for the instance's metrics.
 */
export async function countJobs(db: Q): Promise<{ kind: string; state: string; count: number }[]> {
  const now = new Date();
  const state = sql<string>`CASE WHEN locked_until > ${now} THEN 'running' WHEN attempts >= max_attempts THEN 'failed'
    WHEN run_at <= ${now} THEN 'due' ELSE 'scheduled' END`;
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', state.as('state'), (eb) => eb.fn.countAll<string>().as('count')])
    .groupBy(['kind', sql`2`])
    .execute();
  return rows.map((r) => ({ kind: r.kind, state: r.state, count: Number(r.count) }));
}

/**
 * Out of attempts and held by no runner: kept with its error for an operator. (A job on its last attempt has counted
 * it as it was claimed: while its lease lasts it is running, not failed.)
 */
const failed = sql<boolean>`attempts >= max_attempts AND (locked_until IS NULL OR locked_until < now())`;

/** The jobs out of attempts, newest failure first (at most `limit`), for the instance's administrators. */
export function failedJobs(db: Q, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['id', 'kind', 'attempts', 'last_error', 'created_at', sql<Date>`coalesce(last_attempt_at, created_at)`.as('failed_at')])
    .where(failed)
    .orderBy(sql`coalesce(last_attempt_at, created_at)`, 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A failed job run once more now (one attempt left); undefined when `id` is no failed job. */
export function retryFailedJob(db: Q, id: string) {
  return db
    .updateTable('jobs')
    .set({ attempts: sql`max_attempts - 1`, run_at: new Date(), locked_until: null })
    .where('id', '=', id)
    .where(failed)
    .returning(['id', 'kind'])
    .executeTakeFirst();
}

/** A failed job removed; undefined when `id` is no failed job. */
export function discardFailedJob(db: Q, id: string) {
  return db.deleteFrom('jobs').where('id', '=', id).where(failed).returning(['id', 'kind']).executeTakeFirst();
}
