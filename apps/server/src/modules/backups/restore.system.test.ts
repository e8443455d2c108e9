import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/client.ts';
import { parseEnv, type Env } from '../../env.ts';
import { createStorage } from '../../infra/storage/index.ts';
import { documentFiles } from '../../testing/document-files.ts';
import { tempFolders } from '../../testing/temp-folders.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { createBackup } from './backup.service.ts';
import { restoreBackup } from './restore.service.ts';

/*
 * Restores open databases of their own (on PGlite, a new one loaded from the dump, then opened and migrated), several
 * per test: a system test, given the time a busy machine takes for that.
 */
const test = useTestApp();
const newFolder = tempFolders('cabinet-restore');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('a restore', () => {
  /** An installation of its own, empty: a data folder (its session secret generated there), and on PostgreSQL an empty database. */
  async function emptyInstallation(): Promise<{ env: Env; drop(): Promise<void> }> {
    const dataDir = await newFolder();
    const settings: Record<string, string> = { DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:1' };
    let drop = async () => {};
    if (process.env.TEST_DATABASE === 'postgres') {
      const name = `cabinet_restore_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      settings.DATABASE_URL = url.href;
      drop = async () => {
        const a = new pg.Client({ connectionString: process.env.DATABASE_URL });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      };
    }
    return { env: parseEnv(settings), drop };
  }
  const targetTables = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'");
    await client.end();
    return rows[0]!.n;
  };
  /** What must come back equal: every file's name and SHA-256, and every document's stored state and text. */
  const contents = async (db: Db) => ({
    files: (
      await sql<{ f: string }>`SELECT i.name || ':' || v.sha256 AS f FROM items i JOIN file_versions v ON v.item_id = i.id ORDER BY 1`.execute(db)
    ).rows.map((r) => r.f),
    documents: (
      await sql<{
        d: string;
      }>`SELECT i.name || ':' || md5(c.state) || ':' || c.text AS d FROM document_contents c JOIN items i ON i.id = c.item_id ORDER BY 1`.execute(db)
    ).rows.map((r) => r.d),
  });

  it('brings a backup back onto an empty installation, every SHA-256 and every document equal; refuses one that holds data; finishes one stopped part-way', async () => {
    const ada = await test.given.person('Ada');
    const docs = documentFiles(() => test.app.url);
    expect((await docs.importFile(ada, ada.workspace.rootId, 'plan.md', '# Plan\n\nShip the restore, then the schedule.')).status).toBe(201);
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Keep');
    const upload = await test.given.upload(ada, folder.id, 'keep.txt', bytes('kept across a restore'));
    expect(upload.status).toBe(200);
    const location = await newFolder();
    // As on one machine with no SESSION_SECRET set: the secret was generated into the data folder.
    const source = await newFolder();
    await writeFile(path.join(source, 'session-secret'), test.app.ctx.env.SESSION_SECRET);
    const { manifest } = await createBackup({ ...test.app.ctx, env: { ...test.app.ctx.env, DATA_DIR: source } }, location, { trigger: 'command' });
    expect(manifest.secret.file).toBe('session-secret');
    const before = await contents(test.app.ctx.db);
    expect(before.documents.some((d) => d.startsWith('plan:') && d.includes('Ship the restore'))).toBe(true);

    const target = await emptyInstallation();
    try {
      const io = { progress: () => {} };
      const restored = await restoreBackup(target.env, location, { io });
      expect(restored.manifest.id).toBe(manifest.id);
      // Its sessions and sealed answers open with the secret they were sealed with, put in the new data folder.
      expect(await readFile(path.join(target.env.DATA_DIR, 'session-secret'), 'utf8')).toBe(test.app.ctx.env.SESSION_SECRET);
      // Earlier tests of this file left a file whose bytes storage lost: the backup says so, and it is not put back.
      const lacking = new Set(manifest.problems.map((p) => p.key));
      expect(restored.copied).toBe(manifest.storage.count - lacking.size);
      const database = await openDatabase({ databaseUrl: target.env.DATABASE_URL, dataDir: target.env.DATA_DIR });
      try {
        expect(await contents(database.db)).toEqual(before);
        // Every blob is in the new storage, its bytes hashing to what the database says.
        const storage = createStorage(target.env);
        const versions = await database.db.selectFrom('file_versions').select(['blob_key', 'sha256']).where('state', '=', 'ready').execute();
        for (const v of versions.filter((x) => !lacking.has(x.blob_key)))
          expect(
            createHash('sha256')
              .update(await buffer(await storage.read(v.blob_key)))
              .digest('hex'),
            v.blob_key,
          ).toBe(v.sha256);
        // The backup's own run, running in its snapshot, is recorded as done.
        expect(await database.db.selectFrom('backups').select('state').where('id', '=', manifest.id).executeTakeFirstOrThrow()).toEqual({ state: 'done' });
      } finally {
        await database.close();
      }
      // Now it holds data: a second restore is refused, and changes nothing.
      await expect(restoreBackup(target.env, location, { io })).rejects.toThrow(/holds data/);
    } finally {
      await target.drop();
    }

    // Stopped after the database was put back (its run still running in it): the rerun finishes it rather than refusing.
    const again = await emptyInstallation();
    try {
      await restoreBackup(again.env, location, { io: { progress: () => {} } });
      const database = await openDatabase({ databaseUrl: again.env.DATABASE_URL, dataDir: again.env.DATA_DIR });
      await database.db.updateTable('backups').set({ state: 'running' }).where('id', '=', manifest.id).execute();
      await database.close();
      await expect(restoreBackup(again.env, location, { io: { progress: () => {} } })).resolves.toMatchObject({ copied: 0 });
    } finally {
      await again.drop();
    }
  });

  it('refuses, before changing anything, a backup that is damaged, from a newer Cabinet, or of another kind of database', async () => {
    const location = await newFolder();
    const { manifest, dir } = await createBackup(test.app.ctx, location, { trigger: 'command' });
    // The test app's secret is a setting, kept by whoever set it: only its fingerprint is in the backup.
    expect(manifest.secret.file).toBeUndefined();
    const target = await emptyInstallation();
    const said: string[] = [];
    const io = { progress: (line: string) => void said.push(line) };
    try {
      const otherKind = parseEnv({
        DATA_DIR: target.env.DATA_DIR,
        PUBLIC_URL: 'http://127.0.0.1:1',
        SESSION_SECRET: 'x'.repeat(64),
        ...(target.env.DATABASE_URL ? {} : { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }),
      });
      await expect(restoreBackup(otherKind, location, { io })).rejects.toThrow(
        manifest.database.kind === 'pglite' ? /with DATABASE_URL unset/ : /DATABASE_URL set/,
      );
      const file = path.join(dir, 'manifest.json');
      const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      await writeFile(file, JSON.stringify({ ...written, migrations: [...manifest.migrations, '0999_from_the_future.sql'] }));
      await expect(restoreBackup(target.env, location, { io })).rejects.toThrow(/taken by a newer Cabinet/);
      await writeFile(file, JSON.stringify({ ...written, version: 2 }));
      await expect(restoreBackup(target.env, location, { io })).rejects.toThrow(/written by a newer Cabinet/);
      await writeFile(file, JSON.stringify(written));
      const dump = await readFile(path.join(dir, manifest.database.file));
      await writeFile(path.join(dir, manifest.database.file), 'damaged');
      await expect(restoreBackup(target.env, location, { io })).rejects.toThrow(/is not whole, so nothing was changed/);
      // Nothing was made: no database folder (embedded), no table (PostgreSQL).
      if (!target.env.DATABASE_URL) expect(await stat(path.join(target.env.DATA_DIR, 'db')).catch(() => null)).toBeNull();
      else expect(await targetTables(target.env.DATABASE_URL)).toBe(0);
      // Another application's table beside nothing of Cabinet's: data, refused.
      if (target.env.DATABASE_URL) {
        const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
        await client.connect();
        await client.query('CREATE TABLE their_orders (id int)');
        await writeFile(path.join(dir, manifest.database.file), dump);
        await expect(restoreBackup(target.env, location, { io })).rejects.toThrow(/holds data/);
        await client.query('DROP TABLE their_orders');
        await client.end();
      }
      // Whole again, onto an installation with another secret: restored, and the restore says what that means.
      await writeFile(path.join(dir, manifest.database.file), dump);
      await restoreBackup(target.env, location, { io });
      expect(said).toContainEqual(expect.stringMatching(/SESSION_SECRET is not the one the backup was taken with/));
    } finally {
      await target.drop();
    }
  });
});
