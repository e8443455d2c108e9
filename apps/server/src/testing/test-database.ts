import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';
import { pgliteOptions } from '../db/pglite.ts';
import { noteStatement } from './statements.ts';

export const PGLITE_TEMPLATE_ENV = 'CABINET_TEST_PGLITE_TEMPLATE';
export const PG_TEMPLATE_ENV = 'CABINET_TEST_PG_TEMPLATE';

export interface TestDatabase {
  database: Database;
  /** The DATABASE_URL of this copy (PostgreSQL only), for a second server on the same data. */
  url: string | undefined;
  drop(): Promise<void>;
}

/**
 * A private, migrated database for one test file: on PGlite a copy of the template (one a finished file of this worker
 * used, emptied back to the template), on PostgreSQL a database made from the template.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_DATABASE === 'postgres') {
    const base = process.env.DATABASE_URL!;
    const name = `cabinet_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    // A template's last connection may still be closing on the server side: wait for it.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${process.env[PG_TEMPLATE_ENV]}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: u.href, dataDir: '', onQuery: noteStatement });
    return {
      database,
      url: u.href,
      async drop() {
        await database.close();
        const a = new pg.Client({ connectionString: base });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    };
  }
  let pglite = spares.pop();
  if (!pglite) {
    pglite = await templateCopy();
    // The first copy is read for what emptying one puts back, before any file writes to it.
    templateRows ??= readTemplateRows(pglite);
    await templateRows;
  }
  const lent = lend(pglite);
  const database = await openDatabase({ dataDir: '', pglite: lent.handle, onQuery: noteStatement });
  let dropped: Promise<void> | undefined;
  return { database, url: undefined, drop: () => (dropped ??= lent.revoke().then(() => putBack(pglite))) };
}

/**
 * PGlite databases of this worker's finished files, emptied back to the template, for its next files (ADR 0056):
 * opening one from the template costs 2–4 CPU-seconds, emptying one a fraction of that. Vitest runs a worker's files
 * one after another in one module graph (`isolate: false`), so a file never sees another's rows. One is kept: a file
 * rarely holds two at once, and each keeps the memory its largest file grew it to.
 */
const spares: PGlite[] = [];
let emptying = 0;
const SPARES = 1;
/** Emptying that takes longer than this (a statement of the file's still running) gives the database up. */
const EMPTYING_MS = 15_000;

/**
 * Puts the run's migrated template in a new data folder as its embedded database (`<dataDir>/db`), as if a first start
 * had made it: a server or command started on the folder then opens it rather than creating a database and running every
 * migration (seconds of CPU a process, most of a test's start). What a first start does on an empty folder, the browser
 * tests' server and the `cabinet migrate` of the command tests still do.
 */
export function migratedDataFolder(dataDir: string): void {
  const db = path.join(dataDir, 'db');
  mkdirSync(db, { recursive: true });
  execFileSync('tar', ['-xzf', process.env[PGLITE_TEMPLATE_ENV]!, '-C', db]);
}

/** A new PGlite database from the template. Exported for the test of emptying one. */
export async function templateCopy(): Promise<PGlite> {
  const blob = new Blob([readFileSync(process.env[PGLITE_TEMPLATE_ENV]!)]);
  const pglite = new PGlite(pgliteOptions({ loadDataDir: blob }));
  await pglite.waitReady;
  return pglite;
}

/**
 * The database as one file sees it: every call goes through until the file drops it, and fails after (a timer or an
 * unawaited write of that file then fails loudly rather than writing into the next file's rows). Closing it closes
 * nothing: the worker keeps the database. What it listened to is unlistened when it is dropped.
 */
function lend(pglite: PGlite): { handle: PGlite; revoke(): Promise<void> } {
  let revoked = false;
  // PGlite keeps a listener's callback until it is unlistened with that very callback (UNLISTEN alone leaves it).
  const listeners: [string, (payload: string) => void][] = [];
  const handle = new Proxy(pglite, {
    get(target, prop) {
      if (prop === 'close') return async () => {};
      if (revoked && prop !== 'waitReady' && prop !== 'closed') throw new Error('this test database was handed back when its file ended');
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'listen') {
        return (channel: string, callback: (payload: string) => void, ...rest: unknown[]) => {
          listeners.push([channel, callback]);
          return (value as (...a: unknown[]) => unknown).call(target, channel, callback, ...rest);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return {
    handle,
    async revoke() {
      revoked = true;
      for (const [channel, callback] of listeners) await pglite.unlisten(channel, callback).catch(() => {});
    },
  };
}

async function putBack(pglite: PGlite): Promise<void> {
  if (spares.length + emptying < SPARES && !pglite.closed) {
    emptying++;
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not emptied within ${EMPTYING_MS} ms`)), EMPTYING_MS)));
      await Promise.race([emptied(pglite), late]);
      spares.push(pglite);
      return;
    } catch (error) {
      console.warn(`A test database was not reused: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
      emptying--;
    }
  }
  // Not awaited past a moment: a database still running a file's statement closes when that ends.
  await Promise.race([pglite.close().catch(() => {}), new Promise((r) => setTimeout(r, 1_000).unref())]);
}

/** What the template holds besides its migrations' record: the rows its migrations put in, read once per worker. */
let templateRows: Promise<{ tables: string[]; rows: { table: string; columns: string; json: string }[]; sizes: string }> | undefined;

async function readTemplateRows(pglite: PGlite): NonNullable<typeof templateRows> {
  const tables = (await pglite.query<{ name: string }>(USER_TABLES)).rows.map((t) => t.name).filter((t) => t !== 'schema_migrations');
  const rows: { table: string; columns: string; json: string }[] = [];
  for (const table of tables) {
    const [row] = (await pglite.query<{ json: string | null }>(`SELECT json_agg(t)::text AS json FROM ${table} t`)).rows;
    if (!row?.json) continue;
    // Every column but those the database computes (a generated column cannot be written).
    const columns = await pglite.query<{ name: string }>(
      `SELECT quote_ident(attname) AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [table],
    );
    rows.push({ table, columns: columns.rows.map((c) => c.name).join(', '), json: row.json });
  }
  // The sizes the planner reads for each table and index (never analyzed, in the template), which TRUNCATE and
  // ANALYZE change.
  const sizes = await pglite.query<{ json: string }>(
    `SELECT json_agg(json_build_object('oid', oid, 'relpages', relpages, 'reltuples', reltuples, 'relallvisible', relallvisible))::text AS json
     FROM pg_class WHERE ${IN_PUBLIC}`,
  );
  return { tables, rows, sizes: sizes.rows[0]!.json };
}

/** The app's own relations (tables, indexes, sequences), not the catalog's. */
const IN_PUBLIC = `relnamespace = 'public'::regnamespace`;
const USER_TABLES = `SELECT oid::regclass::text AS name FROM pg_class WHERE ${IN_PUBLIC} AND relkind IN ('r', 'p') ORDER BY 1`;

/**
 * Back to the template's state: any transaction a file left open ended, the session's settings, locks and listeners
 * discarded, every table emptied (sequences restarted) and the template's own rows put back as they were (no trigger
 * run, no key checked, identities as stored), and what the planner knew of the file's data (ANALYZE's statistics, the
 * tables' and indexes' sizes) set back to the template's.
 */
async function emptied(pglite: PGlite): Promise<void> {
  const { tables, rows, sizes } = await templateRows!;
  await pglite.exec('ROLLBACK');
  await pglite.exec('DISCARD ALL');
  await pglite.exec(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
  await pglite.transaction(async (tx) => {
    await tx.exec(`SET LOCAL session_replication_role = replica`);
    for (const { table, columns, json } of rows) {
      await tx.query(`INSERT INTO ${table} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $1)`, [json]);
    }
  });
  await pglite.exec(`DELETE FROM pg_statistic WHERE starelid IN (SELECT oid FROM pg_class WHERE ${IN_PUBLIC})`);
  await pglite.query(
    `UPDATE pg_class c SET relpages = t.relpages, reltuples = t.reltuples, relallvisible = t.relallvisible
     FROM json_to_recordset($1::json) AS t(oid oid, relpages int, reltuples real, relallvisible int) WHERE c.oid = t.oid`,
    [sizes],
  );
}
