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

/** A private, migrated database for one test file: a PGlite clone, or a PostgreSQL database from the template. */
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
  const blob = new Blob([readFileSync(process.env[PGLITE_TEMPLATE_ENV]!)]);
  const pglite = new PGlite(pgliteOptions({ loadDataDir: blob }));
  const database = await openDatabase({ dataDir: '', pglite, onQuery: noteStatement });
  return { database, url: undefined, drop: () => database.close() };
}
