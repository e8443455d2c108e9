import { readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Db } from '../../db/client.ts';
import { newPGlite } from '../../db/pglite.ts';
import { pgRestorePGlite, pgRestorePostgres } from '../../db/dump.ts';
import { fsyncPath } from '../../lib/fsync.ts';
import { allMigrations, migrate } from '../../db/migrate.ts';
import type { Env } from '../../env.ts';
import { createStorage } from '../../infra/storage/index.ts';
import { isLocalStorage } from '../../infra/storage/local.ts';
import type { StorageDriver } from '../../infra/storage/index.ts';
import { openBlob, SECRET_FILE, writeDurably, type Manifest } from './backup-folder.ts';
import { BackupRefused, forEachBlob, secretFingerprint, type BackupIo } from './backup.service.ts';
import { verifyBackup } from './verify-backup.ts';

/** Where the installation stands for a restore: empty; holding this very backup already (a restore that was stopped after its database); or holding data. */
type Target = 'empty' | 'this backup' | 'data';

/**
 * Brings a backup back onto an installation that holds nothing (ADR 0057), in an order that a rerun after a stop at any
 * point finishes: the whole backup checked first (nothing is changed when it is not whole, is from a newer Cabinet, or
 * is of another kind of database or storage); the files' bytes put in storage (each skipped when already there); the
 * database restored in one step (PostgreSQL: one transaction; embedded: a new folder renamed into place); migrations
 * to this Cabinet's schema; then what a backup leaves out made right (thumbnails made again, the backup's own run
 * recorded as done). A database that holds this very backup's run is taken as a restore stopped part-way: it is
 * finished, not refused.
 */
export async function restoreBackup(env: Env, location: string, options: { name?: string; io: BackupIo }): Promise<{ manifest: Manifest; copied: number }> {
  const { io } = options;
  const storage = createStorage(env);
  io.progress(`Checking the backup in ${location}…`);
  const verified = await verifyBackup(location, { ...(options.name ? { name: options.name } : {}), ...(storage.kind === 's3' ? { bucket: storage } : {}) });
  const m = verified.manifest;
  if (verified.recorded.length) io.progress(`Storage lacked ${verified.recorded.length} blob(s) when this backup was taken: those files will have no bytes.`);
  if (verified.absent.length)
    io.progress(
      `The bucket no longer has ${verified.absent.length} of the objects this backup lists: ` +
        'those files will have no bytes unless their earlier versions are brought back in the bucket.',
    );
  if (verified.problems.length)
    throw new BackupRefused(`Backup ${verified.name} is not whole, so nothing was changed:\n${verified.problems.map((p) => `  - ${p}`).join('\n')}`);
  const known = new Set(allMigrations().map((x) => x.name));
  const unknown = m.migrations.filter((n) => !known.has(n));
  if (unknown.length) throw new BackupRefused(`Backup ${m.name} was taken by a newer Cabinet (its schema has ${unknown.join(', ')}). Upgrade Cabinet first.`);
  const kind = env.DATABASE_URL ? 'postgres' : 'pglite';
  if (m.database.kind !== kind)
    throw new BackupRefused(
      m.database.kind === 'pglite'
        ? `Backup ${m.name} is of an embedded database: restore it with DATABASE_URL unset.`
        : `Backup ${m.name} is of a PostgreSQL database: restore it with DATABASE_URL set to an empty database.`,
    );
  if (m.storage.withBytes && !isLocalStorage(storage))
    throw new BackupRefused(`Backup ${m.name} holds the files' bytes for local storage: restore it with STORAGE_DRIVER=local.`);
  if (!m.storage.withBytes && storage.kind !== 's3')
    throw new BackupRefused(`The files' bytes of backup ${m.name} are in the S3 bucket it was taken from: set STORAGE_DRIVER=s3 and S3_* to that bucket.`);

  const target = kind === 'postgres' ? await postgresTarget(env.DATABASE_URL!, m.id) : await pgliteTarget(path.join(env.DATA_DIR, 'db'), m.id);
  if (target === 'data') {
    const where = kind === 'postgres' ? 'the database at DATABASE_URL' : `${env.DATA_DIR}/db`;
    throw new BackupRefused(`This installation holds data (${where}): a backup is restored only onto an empty one, so nothing was changed.`);
  }

  let copied = 0;
  if (target === 'empty') {
    if (isLocalStorage(storage) && m.storage.withBytes) {
      io.progress(`Putting back the bytes of ${m.storage.count.toLocaleString('en')} blobs…`);
      const lacking = new Set(m.problems.map((p) => p.key));
      copied = await putBlobs(storage, location, path.join(location, verified.name, m.storage.list.file), lacking);
    }
    io.progress('Restoring the database…');
    const file = path.join(location, verified.name, m.database.file);
    if (kind === 'postgres') await restorePostgres(env.DATABASE_URL!, file);
    else await restorePGlite(env.DATA_DIR, file);
  } else io.progress('This installation already holds this backup’s database (a restore stopped part-way): finishing it…');

  await restoreSecret(env, path.join(location, verified.name), m, io);
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await migrate(database);
    await afterRestore(database.db, m);
  } finally {
    await database.close();
  }
  return { manifest: m, copied };
}

/**
 * The backed-up installation's session secret, without which its sessions, API tokens' kept answers and signed
 * addresses do not verify: put in the data folder when the backup kept it and this installation's own was only
 * generated there (it has sealed nothing yet: it held nothing); otherwise, when the two differ, said.
 */
async function restoreSecret(env: Env, dir: string, m: Manifest, io: BackupIo): Promise<void> {
  if (secretFingerprint(env.SESSION_SECRET) === m.secret.fingerprint) return;
  const file = path.join(env.DATA_DIR, SECRET_FILE);
  const generated = (await readFile(file, 'utf8').catch(() => null))?.trim() === env.SESSION_SECRET;
  if (m.secret.file && generated) {
    const secret = await readFile(path.join(dir, m.secret.file), 'utf8');
    await writeDurably(file, secret, 0o600);
    return;
  }
  io.progress(
    'This installation’s SESSION_SECRET is not the one the backup was taken with: people must sign in again, and links and answers ' +
      'sealed with the old one no longer open. Set SESSION_SECRET to the old one to keep them.',
  );
}

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

/** The tables Cabinet's migrations make (read from their text), and the migrations' own record. */
function cabinetTables(): Set<string> {
  const names = new Set(['schema_migrations']);
  for (const m of allMigrations())
    for (const match of m.sql.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([a-z_][a-z0-9_]*)"?/gi)) names.add(match[1]!.toLowerCase());
  return names;
}

/**
 * Where a database stands (each question its own statement: a statement naming a table that is not there fails
 * whole): no relation at all, or Cabinet's tables with no person and no workspace (it only ran its migrations), is
 * empty; the run of this backup still running in it is this backup, restored before the restore was stopped; anything
 * else, Cabinet's data or another application's tables, is data.
 */
async function targetOf(query: Query, backupId: string): Promise<Target> {
  const [counted] = await query<{ relations: number }>(
    "SELECT count(*)::int AS relations FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'f')",
  );
  if (!counted?.relations) return 'empty';
  // Cabinet's own tables only, those its migrations make: another application's beside them is data.
  const others = await query<{ name: string }>(
    `SELECT relname AS name FROM pg_class
     WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT relname = ANY($1::text[])`,
    [[...cabinetTables()]],
  );
  if (others.length) return 'data';
  const [tables] = await query<{ cabinet: boolean; backups: boolean }>(`
    SELECT to_regclass('public.schema_migrations') IS NOT NULL AND to_regclass('public.users') IS NOT NULL
      AND to_regclass('public.workspaces') IS NOT NULL AS cabinet, to_regclass('public.backups') IS NOT NULL AS backups`);
  if (!tables?.cabinet) return 'data';
  if (tables.backups) {
    const [run] = await query<{ running: boolean }>("SELECT EXISTS (SELECT 1 FROM public.backups WHERE id = $1::uuid AND state = 'running') AS running", [
      backupId,
    ]);
    if (run?.running) return 'this backup';
  }
  const [held] = await query<{ held: boolean }>('SELECT EXISTS (SELECT 1 FROM public.users) OR EXISTS (SELECT 1 FROM public.workspaces) AS held');
  return held?.held ? 'data' : 'empty';
}

async function postgresTarget(url: string, backupId: string): Promise<Target> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await targetOf(async (text, params) => (await client.query(text, params)).rows, backupId);
  } finally {
    await client.end();
  }
}

async function pgliteTarget(dir: string, backupId: string): Promise<Target> {
  if (!(await stat(dir).catch(() => null))) return 'empty';
  const pglite = await newPGlite(dir);
  try {
    return await targetOf(async (text, params) => (await pglite.query(text, params)).rows as never, backupId);
  } finally {
    await pglite.close();
  }
}

/** An empty PostgreSQL database (its migrations may have run: their tables are empty) made anew from the dump. */
async function restorePostgres(url: string, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  } finally {
    await client.end();
  }
  await pgRestorePostgres(url, file);
}

/** The embedded database made from the dump in a folder beside it, then put in its place by renaming. */
async function restorePGlite(dataDir: string, file: string): Promise<void> {
  const restoring = path.join(dataDir, 'db.restoring');
  await rm(restoring, { recursive: true, force: true });
  await pgRestorePGlite(restoring, file);
  const dir = path.join(dataDir, 'db');
  await rm(dir, { recursive: true, force: true });
  await rename(restoring, dir);
  await fsyncPath(dataDir);
}

/**
 * Each listed blob put at its key from the folder of backups, unless storage already has it whole (or lacked it when
 * backed up): written by the driver's writeObject, so it appears only whole and with its SHA-256 (ADR 0062).
 */
async function putBlobs(storage: StorageDriver, location: string, list: string, lacking: Set<string>): Promise<number> {
  let copied = 0;
  await forEachBlob(list, 4, async (blob) => {
    if (lacking.has(blob.key) || (await storage.stat(blob.key))?.size === blob.size) return;
    const bytes = await openBlob(location, blob.sha256, blob.size);
    if (!bytes) throw new BackupRefused(`The bytes of ${blob.key} (${blob.sha256}) left the folder of backups while it was restored: run it again.`);
    await storage.writeObject(blob.key, bytes, blob.size, 'application/octet-stream', (sha) => sha === blob.sha256);
    copied++;
  });
  return copied;
}

/**
 * What a restored database needs beyond its rows: thumbnails are not in backups, so each is made again when next asked
 * for; the backup's own run, running in its snapshot, is recorded as done (and any other as stopped).
 */
async function afterRestore(db: Db, m: Manifest): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`UPDATE previews SET state = 'evicted', blob_key = NULL, size_bytes = 0, updated_at = now() WHERE blob_key IS NOT NULL`.execute(tx);
    await tx
      .updateTable('backups')
      .set({
        state: 'done',
        finished_at: new Date(m.finishedAt),
        blob_count: m.storage.count,
        blob_bytes: m.storage.bytes,
        copied_count: m.storage.copied.count,
        copied_bytes: m.storage.copied.bytes,
        database_bytes: m.database.bytes,
      })
      .where('id', '=', m.id)
      .where('state', '=', 'running')
      .execute();
    await tx
      .updateTable('backups')
      .set({ state: 'failed', finished_at: new Date(), error: 'It was running when the backup that was restored was taken.' })
      .where('state', '=', 'running')
      .execute();
  });
}
