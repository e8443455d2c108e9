import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, pgliteOptions, type Database } from '../db/client.ts';
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
  let database = spares.pop();
  if (!database) {
    database = await templateCopy();
    // The first copy is read for what emptying one puts back, before any file writes to it.
    templateRows ??= readTemplateRows(database);
    await templateRows;
  }
  let dropped: Promise<void> | undefined;
  return { database, url: undefined, drop: () => (dropped ??= putBack(database)) };
}

/**
 * PGlite databases of this worker's finished files, emptied back to the template, for its next files (ADR 0056):
 * opening one from the template costs 2–4 CPU-seconds, emptying one a fraction of that. Vitest runs a worker's files
 * one after another in one module graph (`isolate: false`), so a file never sees another's rows. One is kept: a file
 * rarely holds two at once, and each keeps the memory its largest file grew it to.
 */
const spares: Database[] = [];
const SPARES = 1;

/** A new PGlite database from the template. Exported for the test of emptying one. */
export async function templateCopy(): Promise<Database> {
  const blob = new Blob([readFileSync(process.env[PGLITE_TEMPLATE_ENV]!)]);
  const pglite = new PGlite(pgliteOptions({ loadDataDir: blob }));
  return openDatabase({ dataDir: '', pglite, onQuery: noteStatement });
}

async function putBack(database: Database): Promise<void> {
  if (spares.length < SPARES) {
    try {
      await emptied(database);
      spares.push(database);
      return;
    } catch {
      // Closed by its file, or left unusable: not reused.
    }
  }
  await database.close().catch(() => {});
}

/** What the template holds besides its migrations' record: the rows its migrations put in, read once per worker. */
let templateRows: Promise<{ tables: string[]; rows: { table: string; json: string }[] }> | undefined;

async function readTemplateRows(database: Database): NonNullable<typeof templateRows> {
  const tables = (await database.sql.query<{ name: string }>(USER_TABLES)).map((t) => t.name).filter((t) => t !== 'schema_migrations');
  const rows: { table: string; json: string }[] = [];
  for (const table of tables) {
    const [row] = await database.sql.query<{ json: string | null }>(`SELECT json_agg(t)::text AS json FROM ${table} t`);
    if (row?.json) rows.push({ table, json: row.json });
  }
  return { tables, rows };
}

const USER_TABLES = `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`;

/**
 * Back to the template's state: any transaction a file left open ended, the session's settings, locks and listeners
 * discarded, every table emptied (sequences restarted) and the template's own rows put back, and the planner's
 * statistics of the file's data (ANALYZE) forgotten.
 */
async function emptied(database: Database): Promise<void> {
  const { tables, rows } = await templateRows!;
  await database.sql.query('ROLLBACK');
  await database.sql.query('DISCARD ALL');
  await database.sql.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
  for (const { table, json } of rows) await database.sql.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [json]);
  await database.sql.query(
    `DELETE FROM pg_statistic WHERE starelid IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public')`,
  );
}
