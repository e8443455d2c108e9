import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { jobDefinitions } from '../../jobs.ts';
import { enqueue } from '../../infra/jobs/queue.ts';
import { JobPostponed } from '../../infra/jobs/runner.ts';
import { tempFolders } from '../../testing/temp-folders.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { blobPath, listBackups } from './backup-folder.ts';
import { BackupRefused, createBackup, forEachBlob } from './backup.service.ts';
import { nextScheduledBackup, startScheduledBackup } from './scheduled-backup.ts';
import { startRun } from './backups.repo.ts';
import { verifyBackup } from './verify-backup.ts';

const test = useTestApp();
const newFolder = tempFolders('cabinet-backups');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('a backup while Cabinet runs', () => {
  it('holds the database as of one moment and every file’s bytes, copied once over the backups of a folder, each checked', async () => {
    const ada = await test.given.person('Ada');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Reports');
    for (const [name, text] of [
      ['q1.txt', 'first quarter'],
      ['q2.txt', 'second quarter'],
      ['copy of q1.txt', 'first quarter'],
    ] as const)
      expect((await test.given.upload(ada, folder.id, name, bytes(text))).status).toBe(200);
    const location = await newFolder();
    const ctx = test.app.ctx;

    const first = await createBackup(ctx, location, { trigger: 'command' });
    const m = first.manifest;
    // The database goes on as before: on PGlite, pg_dump's transaction on its one session was ended.
    const after = await sql<{ isolation: string; path: string }>`
      SELECT current_setting('transaction_isolation') AS isolation, current_setting('search_path') AS path`.execute(ctx.db);
    expect(after.rows[0]!.isolation).toBe('read committed');
    expect(after.rows[0]!.path).not.toBe('');
    expect(m).toMatchObject({ format: 'cabinet-backup', version: 1, database: { kind: ctx.database.kind }, problems: [] });
    expect(m.migrations).toContain('0028_backups.sql');
    // Earlier tests in this file's database may have left files: this one's are among what was listed and copied.
    const s = m.storage;
    expect(s.withBytes).toBe(true);
    expect(s.count).toBeGreaterThanOrEqual(3);
    // Two of the three files have the same bytes: kept once.
    expect(s.copied.count).toBe(s.count - 1);
    // (restore.system.test.ts restores the dump itself and compares every file and document.)
    const files = (
      await sql<{ f: string }>`SELECT i.name || ':' || v.sha256 AS f FROM items i JOIN file_versions v ON v.id = i.current_version_id ORDER BY i.name`.execute(
        ctx.db,
      )
    ).rows.map((r) => r.f);
    for (const name of ['q1.txt', 'q2.txt', 'copy of q1.txt']) expect(files.some((f) => f.startsWith(`${name}:`))).toBe(true);
    // Each file's bytes are in the folder, under the hash the restored database gives them.
    for (const f of files) {
      const sha = f.slice(f.lastIndexOf(':') + 1);
      expect(
        createHash('sha256')
          .update(await readFile(blobPath(location, sha)))
          .digest('hex'),
      ).toBe(sha);
    }
    expect(await verifyBackup(location)).toMatchObject({ name: m.name, problems: [] });

    // The next backup copies only what is new.
    expect((await test.given.upload(ada, folder.id, 'q3.txt', bytes('third quarter'))).status).toBe(200);
    const second = await createBackup(ctx, location, { trigger: 'command' });
    expect(second.manifest.storage.count).toBe(s.count + 1);
    expect(second.manifest.storage.copied).toEqual({ count: 1, bytes: 'third quarter'.length });
    expect((await listBackups(location)).map((b) => b.name)).toEqual([m.name, second.manifest.name]);
    const runs = await ctx.db.selectFrom('backups').selectAll().where('location', '=', location).orderBy('started_at').execute();
    expect(runs.map((r) => [r.state, r.copied_count, r.error])).toEqual([
      ['done', s.count - 1, null],
      ['done', 1, null],
    ]);

    // A damaged blob, or a damaged dump, is found by checking; nothing is repaired by it.
    await writeFile(blobPath(location, createHash('sha256').update('third quarter').digest('hex')), 'tampered');
    const damaged = await verifyBackup(location);
    expect(damaged.problems).toEqual([expect.stringMatching(/do not match their SHA-256/)]);
    await writeFile(path.join(second.dir, second.manifest.database.file), 'not a dump');
    expect((await verifyBackup(location, { name: second.manifest.name })).problems).toEqual([
      `${second.manifest.database.file} does not match its SHA-256 (damaged)`,
    ]);
    // The first backup is still whole, though it shares the blob folder: q3 is not in it.
    expect((await verifyBackup(location, { name: m.name })).problems).toEqual([]);
  });

  it('is one at a time; one that was killed is taken over and its unfinished folder removed; bytes are not deleted while one runs', async () => {
    const ctx = test.app.ctx;
    const location = await newFolder();
    const running = await startRun(ctx.db, { trigger: 'command', location, name: 'elsewhere' });
    expect(running).toBeDefined();
    await expect(createBackup(ctx, location, { trigger: 'command' })).rejects.toBeInstanceOf(BackupRefused);
    // A blob's deletion waits for the backup, whose snapshot may still name it: every one due waits with it, in one statement.
    for (const key of ['a', 'b', 'c']) await enqueue(ctx.db, 'blob.delete', { key: `waiting/${key}` });
    await expect(jobDefinitions(ctx)['blob.delete']!.run({ key: 'any' }, undefined as never)).rejects.toBeInstanceOf(JobPostponed);
    const waiting = await ctx.db.selectFrom('jobs').select('run_at').where('kind', '=', 'blob.delete').execute();
    expect(waiting.length).toBeGreaterThanOrEqual(3);
    for (const j of waiting) expect(j.run_at.getTime()).toBeGreaterThan(Date.now() + 50_000);
    await ctx.db.deleteFrom('jobs').where('kind', '=', 'blob.delete').execute();

    // Killed: its heartbeat stopped; it left a folder with no manifest and a partial blob.
    await ctx.db
      .updateTable('backups')
      .set({ heartbeat_at: new Date(Date.now() - 10 * 60_000) })
      .where('id', '=', running!)
      .execute();
    await createBackup(ctx, location, { trigger: 'command' });
    await mkdir(path.join(location, '2020-01-01T00-00-00Z'));
    await mkdir(path.join(location, 'blobs', '.partial'), { recursive: true });
    await writeFile(path.join(location, 'blobs', '.partial', 'half'), 'half a blob');
    const next = await createBackup(ctx, location, { trigger: 'command' });
    expect((await listBackups(location)).every((b) => b.finished)).toBe(true);
    expect((await listBackups(location)).map((b) => b.name)).not.toContain('2020-01-01T00-00-00Z');
    expect(next.manifest.problems).toEqual([]);
    const killed = await ctx.db.selectFrom('backups').select(['state', 'error']).where('id', '=', running!).executeTakeFirstOrThrow();
    expect(killed).toEqual({ state: 'failed', error: 'It stopped before it ended (the process was stopped or lost).' });
    // With none running, a blob no file uses is deleted as before.
    await expect(jobDefinitions(ctx)['blob.delete']!.run({ key: 'no-such-blob' }, undefined as never)).resolves.toBeUndefined();
  });

  it('says which blobs storage lacked, and still writes the rest; refuses a folder that holds other things', async () => {
    const ada = await test.given.person('Ada');
    const up = await test.given.upload(ada, ada.workspace.rootId, 'lost.txt', bytes(`lost ${Date.now()}`));
    const version = await test.app.ctx.db
      .selectFrom('file_versions')
      .select(['blob_key', 'sha256'])
      .where('item_id', '=', up.body.item.id)
      .executeTakeFirstOrThrow();
    await test.app.ctx.storage.delete(version.blob_key);
    const location = await newFolder();
    const { manifest } = await createBackup(test.app.ctx, location, { trigger: 'command' });
    expect(manifest.problems).toContainEqual({ key: version.blob_key, sha256: version.sha256, problem: 'missing' });
    const run = await test.app.ctx.db
      .selectFrom('backups')
      .select(['state', 'error'])
      .where('name', '=', manifest.name)
      .where('location', '=', location)
      .executeTakeFirstOrThrow();
    expect(run.state).toBe('done');
    expect(run.error).toMatch(/blob\(s\) missing from storage/);
    expect(await verifyBackup(location)).toMatchObject({ problems: [], recorded: [`when backed up, ${version.blob_key} was missing from storage`] });

    const other = await newFolder();
    await writeFile(path.join(other, 'holiday.jpg'), 'x');
    await expect(createBackup(test.app.ctx, other, { trigger: 'command' })).rejects.toThrow(/already holds other files/);
  });
});

describe('backups kept', () => {
  it('keeps the newest backups asked for, and the bytes only older ones named go with them', async () => {
    const ada = await test.given.person('Ada');
    const location = await newFolder();
    const gone = await test.given.upload(ada, ada.workspace.rootId, 'gone.txt', bytes(`gone ${Date.now()}`));
    await createBackup(test.app.ctx, location, { trigger: 'command' });
    // Its version pruned since: no later backup names its bytes.
    const version = await test.app.ctx.db
      .updateTable('file_versions')
      .set({ state: 'pruned' })
      .where('item_id', '=', gone.body.item.id)
      .returning('sha256')
      .executeTakeFirstOrThrow();
    expect(await stat(blobPath(location, version.sha256))).toBeTruthy();
    const second = await createBackup(test.app.ctx, location, { trigger: 'command' });
    const third = await createBackup(test.app.ctx, location, { trigger: 'command', keep: 2 });
    expect((await listBackups(location)).map((b) => b.name)).toEqual([second.manifest.name, third.manifest.name]);
    expect(await stat(blobPath(location, version.sha256)).catch(() => null)).toBeNull();
    expect((await verifyBackup(location, { name: second.manifest.name })).problems).toEqual([]);
    expect((await verifyBackup(location)).problems).toEqual([]);
    // One renamed to keep it is not counted, and the bytes it names stay.
    await rename(path.join(location, second.manifest.name), path.join(location, 'pre-upgrade'));
    await test.given.upload(ada, ada.workspace.rootId, 'later.txt', bytes(`later ${Date.now()}`));
    await createBackup(test.app.ctx, location, { trigger: 'command', keep: 1 });
    expect((await listBackups(location)).length).toBe(1);
    expect((await verifyBackup(location, { name: 'pre-upgrade' })).problems).toEqual([]);
    // A list that cannot be read fails the loop that reads it (and nothing else).
    await expect(forEachBlob(path.join(location, 'no-such-list.jsonl.gz'), 1, async () => {})).rejects.toThrow(/ENOENT/);
  });

  it('runs the scheduled backup once for each time the schedule gives, one missed made up at the next look', async () => {
    const location = await newFolder();
    const ctx = { ...test.app.ctx, env: { ...test.app.ctx.env, BACKUP_DIR: location, BACKUP_SCHEDULE: '0 0 1 1 *', BACKUP_KEEP: 1 } };
    const { BACKUP_DIR: _none, ...unset } = ctx.env;
    expect(await startScheduledBackup({ ...ctx, env: unset })).toBe('off');
    // New Year's midnight has passed this year, with no backup since: due now.
    expect(await startScheduledBackup(ctx)).toBe('started');
    const state = async () => (await ctx.db.selectFrom('backups').select('state').where('location', '=', location).executeTakeFirst())?.state;
    for (let i = 0; i < 600 && (await state()) !== 'done'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await state()).toBe('done');
    expect(await startScheduledBackup(ctx)).toBe('not due');
    expect(await listBackups(location)).toHaveLength(1);
    expect(nextScheduledBackup(ctx.env)!.toISOString()).toBe(`${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`);
  });
});
