import { meApi, workspacesApi } from '@cabinet/contracts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { signIn } from '../testing/browser.ts';
import { callingRoutes, withToken } from '../testing/route-call.ts';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { freePort, startTestApp } from '../testing/test-app.ts';
import { cabinet, runInApp } from '../testing/cabinet-command.ts';

describe('the cabinet command', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-cli-'));
  let pg: TestDatabase | undefined;
  afterAll(async () => {
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates, creates a user and a token that work, and checks the installation', async () => {
    const port = await freePort();
    const env: Record<string, string> = { DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, PORT: String(port), SESSION_SECRET: 'x'.repeat(64) };
    if (process.env.TEST_DATABASE === 'postgres') {
      pg = await createTestDatabase();
      await pg.database.close();
      env.DATABASE_URL = pg.url!;
    }

    const migrated = await cabinet(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/Applied \d+ migration|up to date/);

    const created = await cabinet(
      ['user', 'create', '--email', 'ops@example.com', '--name', 'Olive Ops', '--password', 'correct-cabinet-staple-9', '--admin'],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('instance administrator');

    const token = await cabinet(['token', 'create', '--email', 'ops@example.com', '--name', 'backup'], env);
    expect(token.code, token.stderr).toBe(0);
    const secret = token.stdout.trim();
    expect(secret).toMatch(/^cab_/);

    const doctor = await cabinet(['doctor'], env);
    expect(doctor.code, doctor.stdout).toBe(0);
    expect(doctor.stdout).toContain('✓ database');
    expect(doctor.stdout).toContain('✓ storage');
    expect(doctor.stdout).toContain('✓ previews: pictures (JPEG, PNG, GIF, WebP, TIFF, AVIF, HEIC) and PDF first pages on; videos on (ffmpeg found)');

    const reindexed = await cabinet(['search', 'reindex'], env);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(reindexed.stderr).toMatch(/Reindexing [\d,]+ roots, files and documents/);
    expect(reindexed.stdout).toMatch(/Reindexed: [\d,]+ tasks done/);

    const backups = path.join(dataDir, 'backups');
    const backedUp = await cabinet(['backup', '--out', backups], env);
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(backedUp.stdout).toMatch(/^Backup written to .* the database \([\d.]+ MB\) and 0 blobs/);
    const checked = await cabinet(['backup', 'verify', '--from', backups], env);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/is whole/);
    const storage = await cabinet(['storage', 'verify'], env);
    expect(storage.code, storage.stderr).toBe(0);
    expect(storage.stdout).toMatch(/objects in storage; 0 files' bytes hashed\.\nStorage and the database agree\./);

    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    const t = await startTestApp(env, { db: { database, url: env.DATABASE_URL, drop: () => database.close() } });
    try {
      const me = await callingRoutes(withToken(t.url, secret)).call(meApi.get);
      expect(me.body.user).toMatchObject({ email: 'ops@example.com', name: 'Olive Ops', isInstanceAdmin: true });
      const { browser } = await signIn(t.url, 'ops@example.com', 'correct-cabinet-staple-9');
      const viaBrowser = await browser.call(meApi.get);
      expect(viaBrowser.body.user.email).toBe('ops@example.com');
      expect((await browser.call(workspacesApi.list)).body.items).toHaveLength(1);

      // Refusals, as a command handed to the running server says them (the same code a process of its own runs: each
      // such process opens the embedded database, seconds each on a busy machine).
      const refused = async (command: string, options: Record<string, unknown>) => {
        const io = await runInApp(t.ctx, command, options);
        expect(io.code, io.err).toBe(1);
        return io.err;
      };
      expect(await refused('user create', { email: 'ops2@example.com', name: 'Ops', password: 'short', admin: false })).toContain(
        'Password must be at least 12 characters',
      );
      expect(await refused('search reindex', { workspace: 'no-such-place' })).toContain('No workspace has the address no-such-place.');
      expect(await refused('restore-item', { from: backups, item: '0190a0a0-0000-7000-8000-000000000000' })).toContain(
        'holds no item 0190a0a0-0000-7000-8000-000000000000',
      );
      expect(await refused('export', { workspace: 'no-such-place', out: path.join(dataDir, 'export') })).toContain(
        'No workspace has the address no-such-place.',
      );
      expect(await refused('backup', { out: dataDir })).toContain('already holds other files');
    } finally {
      await t.close();
      await database.close();
    }
    // Each command is a process of its own, several of them opening the embedded database: on PGlite, on a machine
    // busy with the browser tests beside it, the whole took over 240 s (75 s on PostgreSQL). The limit is for a hang.
  }, 600_000);
});
