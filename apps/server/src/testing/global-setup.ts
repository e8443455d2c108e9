import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ensureSigningKey } from '@cabinet/idp';
import { openDatabase } from '../db/client.ts';
import { allMigrations, migrate } from '../db/migrate.ts';
import { newPGlite } from '../db/pglite.ts';
import { PGLITE_TEMPLATE_ENV, PG_TEMPLATE_ENV } from './test-database.ts';
import { ensureBuilt } from '../../build.mjs';

/**
 * Migrates one template per run, which test files then clone: a PGlite data dir (kept
 * between runs, keyed by the migrations) and, with DATABASE_URL, a PostgreSQL template database. Each holds the
 * embedded provider's signing key, as an instance's database does after its first start: every test app's provider
 * made one of its own before (an RSA key, a few hundred ms of CPU each, ~30 s of a run's integration tests). So every
 * test database, a second provider's too (testing/standalone-idp.ts), signs with the same key: a test of a key the
 * provider did not publish makes one of its own (`newRsaJwk`, as backchannel-logout's does).
 * Builds the server first when a source changed since its build: worker threads run the build's modules, and the
 * `cabinet` processes the system tests start run the build (ADR 0073); built once here, not by each at once.
 */
export default async function setup() {
  await ensureBuilt();
  const hash = createHash('sha256')
    .update(JSON.stringify([allMigrations(), 'signing key']))
    .digest('hex')
    .slice(0, 16);
  const cacheDir = path.resolve('node_modules/.cache/cabinet-tests');
  const file = path.join(cacheDir, `pglite-${hash}.tar.gz`);
  if (!existsSync(file)) {
    mkdirSync(cacheDir, { recursive: true });
    const pglite = await newPGlite();
    const database = await openDatabase({ dataDir: '', pglite });
    await migrate(database);
    await ensureSigningKey(database.sql);
    const dump = await pglite.dumpDataDir('gzip');
    writeFileSync(`${file}.tmp`, Buffer.from(await dump.arrayBuffer()));
    renameSync(`${file}.tmp`, file);
    await database.close();
  }
  process.env[PGLITE_TEMPLATE_ENV] = file;

  const url = process.env.DATABASE_URL;
  if (!url) return;
  const template = `cabinet_tpl_${hash}_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const database = await openDatabase({ databaseUrl: withDatabase(url, template), dataDir: '' });
  await migrate(database);
  await ensureSigningKey(database.sql);
  await database.close();
  process.env[PG_TEMPLATE_ENV] = template;
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  };
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}
