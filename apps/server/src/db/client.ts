import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresDialect, type KyselyConfig } from 'kysely';
import pg from 'pg';
import { pgDumpPGlite, pgDumpPostgres } from './dump.ts';
import { newPGlite } from './pglite.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { plannedOncePool } from './planned-once.ts';
import type { Database as Tables } from './schema.ts';

export type Db = Kysely<Tables>;

/** Runs statements inside one locked transaction; `sql` may hold several statements when no params are given. */
export type ScriptRunner = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Plain SQL for packages that keep their own tables (the embedded identity provider). */
export interface SqlClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlClient;
  /** One transaction holding an advisory lock, so concurrent instances migrate one at a time. */
  locked<T>(fn: (run: ScriptRunner) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * Calls `onMessage` with every NOTIFY on `channel` (from any instance on this database), until
   * the returned function is called. A lost connection is re-established, and then `onReconnect`
   * is called: whatever was sent while it was away is lost.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /**
   * Runs `fn` on one snapshot of the database, given `dump`, which writes the whole database as of that very snapshot
   * to a file (ADR 0057): on PostgreSQL, `pg_dump` on the snapshot `fn`'s transaction exports (custom format); on
   * PGlite, its own pg_dump in this process, while `fn` holds the one connection (plain SQL, gzip).
   */
  onDumpSnapshot<T>(fn: (tx: Db, dump: (file: string) => Promise<void>) => Promise<T>): Promise<T>;
  /** The pool's connections now (PostgreSQL); none for the embedded database, which has one connection on this thread. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Tells `observe` of every statement run through the query builder from now on (a database opened with `onQuery` only). */
  observeStatements(observe: StatementObserver): void;
  close(): Promise<void>;
}

const MIGRATION_LOCK = 727_401_001;
const toNumber = (v: string) => Number(v);

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** An already-open PGlite (tests clone a migrated template instead of running initdb each time). */
  pglite?: PGlite;
  /** Called with every statement run through the query builder (benchmarks and tests count them). */
  onQuery?: StatementObserver;
}

/** A statement run through the query builder: its text, its time and whether it failed. */
export type StatementObserver = (sql: string, ended: { ms: number; failed: boolean }) => void;

/**
 * Kysely's log when someone watches the statements (`onQuery`, then whatever observes them since: traces, ADR 0061);
 * none otherwise, so that nobody watching costs nothing (Kysely then times nothing).
 */
function statementLog(onQuery: StatementObserver | undefined, observers: Set<StatementObserver>): Pick<KyselyConfig, 'log'> {
  if (!onQuery) return {};
  return {
    log: (event) => {
      const ended = { ms: event.queryDurationMillis, failed: event.level === 'error' };
      onQuery(event.query.sql, ended);
      for (const observe of observers) observe(event.query.sql, ended);
    },
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.onQuery) : openPGlite(options);
}

async function openPostgres(url: string, poolSize: number, onQuery?: StatementObserver): Promise<Database> {
  const observers = new Set<StatementObserver>();
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? toNumber : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A connection losing its server must not crash the process: the query in flight, or
  // the next one, reports it as database_unavailable.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Tables>({
    dialect: new PostgresDialect({ pool: plannedOncePool(pool) }),
    ...statementLog(onQuery, observers),
  });
  return {
    kind: 'postgres',
    observeStatements: (observe) => void observers.add(observe),
    db,
    sql: kyselySql(db),
    async locked(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        const result = await fn(async (sql, params) => (await client.query(sql, params)).rows);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async ping() {
      await pool.query('SELECT 1');
    },
    listen: (channel, onMessage, onReconnect) => listenPostgres(url, channel, onMessage, onReconnect),
    onDumpSnapshot: (fn) =>
      db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (tx) => {
          const { snapshot } = (await tx.executeQuery<{ snapshot: string }>(CompiledQuery.raw('SELECT pg_export_snapshot() AS snapshot'))).rows[0]!;
          return fn(tx, (file) => pgDumpPostgres(url, snapshot, file));
        }),
    async close() {
      await db.destroy();
      // Kysely ends the pool only if it ever used it; `locked` (migrations) uses it directly.
      if (!pool.ended) await pool.end();
    },
  };
}

/** A connection of its own (LISTEN holds it), reconnecting after a second when the server goes away. */
async function listenPostgres(url: string, channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let closed = false;
  let listened = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onMessage(n.payload);
    });
    c.on('error', () => {});
    c.on('end', () => {
      if (closed) return;
      retry = setTimeout(() => void connect().catch(() => {}), 1000);
      retry.unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      client = c;
      if (listened) onReconnect?.();
      listened = true;
    } catch (error) {
      await c.end().catch(() => {});
      throw error;
    }
  };
  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

async function openPGlite(options: DatabaseOptions): Promise<Database> {
  let pglite = options.pglite;
  if (!pglite) {
    const dir = path.join(options.dataDir, 'db');
    mkdirSync(dir, { recursive: true });
    pglite = await newPGlite(dir);
  }
  await pglite.waitReady;
  const handle = pglite;
  const observers = new Set<StatementObserver>();
  const db = new Kysely<Tables>({ dialect: new PGliteDialect(handle), ...statementLog(options.onQuery, observers) });
  return {
    kind: 'pglite',
    observeStatements: (observe) => void observers.add(observe),
    db,
    sql: kyselySql(db),
    async locked(fn) {
      // Through Kysely's connection so nothing else interleaves with the script.
      return db.connection().execute(async (conn) => {
        const run: ScriptRunner = async (sql, params) => {
          if (params?.length) return (await conn.executeQuery<Record<string, unknown>>(CompiledQuery.raw(sql, params))).rows;
          await handle.exec(sql);
          return [];
        };
        await handle.exec('BEGIN');
        try {
          const result = await fn(run);
          await handle.exec('COMMIT');
          return result;
        } catch (error) {
          await handle.exec('ROLLBACK');
          throw error;
        }
      });
    },
    async ping() {
      await handle.query('SELECT 1');
    },
    async listen(channel, onMessage) {
      const unlisten = await handle.listen(channel, onMessage);
      return async () => {
        await unlisten().catch(() => {});
      };
    },
    // The one connection held: nothing else runs between the reads of `fn` and the dump, which runs on this thread.
    onDumpSnapshot: (fn) => db.connection().execute((conn) => fn(conn, (file) => pgDumpPGlite(handle, file))),
    close: () => db.destroy(),
  };
}

function kyselySql(db: Db): SqlClient {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.executeQuery<T>(CompiledQuery.raw(sql, params))).rows;
    },
  };
}

/** Runs `fn` in a transaction, joining the caller's when there already is one. */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/**
 * Runs reads that must agree with each other (a page and its count) on one snapshot: a repeatable
 * read transaction on PostgreSQL; on PGlite, whose one connection the transaction holds, nothing is
 * written between them either.
 */
export function onOneSnapshot<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().setIsolationLevel('repeatable read').execute(fn);
}
