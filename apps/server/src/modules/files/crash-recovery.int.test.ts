import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { freePort } from '../../testing/test-app.ts';

const MiB = 1024 * 1024;
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/cabinet.mjs');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Every file under `dir` whose name says it is a temporary write. */
function temporaryFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.startsWith('.tmp-'))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * The server is killed (SIGKILL, no chance to tidy up) while 20 uploads stream their parts to local
 * disk. After a restart every upload resumes from the parts the storage kept and completes with
 * the right SHA-256, half-written parts are gone, and every file reads back whole.
 */
describe('a server killed during uploads', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-crash-'));
  let db: TestDatabase | undefined;
  let server: ChildProcess | undefined;
  afterAll(async () => {
    server?.kill('SIGKILL');
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes and completes every upload after a restart, with the right bytes', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // On PostgreSQL the server gets its own database; otherwise it keeps PGlite in its data folder.
    if (process.env.TEST_DATABASE === 'postgres') {
      db = await createTestDatabase();
      await db.database.close();
    }
    const env = { ...process.env, PORT: String(port), PUBLIC_URL: url, DATA_DIR: dataDir, DATABASE_URL: db?.url ?? '', UPLOAD_PART_SIZE: '5MiB', LOG_LEVEL: 'silent', HOST: '127.0.0.1' };
    const cli = (...args: string[]) => {
      const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      return r.stdout.trim();
    };
    cli('user', 'create', '--email', 'crash@example.com', '--name', 'Crash Test', '--password', 'crash-test-password-1');
    const token = cli('token', 'create', '--email', 'crash@example.com', '--name', 'crash');
    const start = async () => {
      server = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' });
      for (let i = 0; i < 300; i++) {
        if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the server did not start');
    };
    const call = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${url}/api/v1${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };

    await start();
    const workspace = (await call('GET', '/workspaces')).body.items[0];
    const files = Array.from({ length: 20 }, (_, i) => randomBytes(2 * 5 * MiB + 1000 * (i + 1)));
    const uploads: { id: string; partSize: number; partCount: number }[] = [];
    for (const [i, bytes] of files.entries()) {
      const res = await call('POST', `/workspaces/${workspace.id}/uploads`, { parentId: workspace.homeId, name: `file-${i}.bin`, size: bytes.length });
      expect(res.status).toBe(201);
      uploads.push(res.body);
    }

    // Every part of every upload at once; the server dies once a third of them have landed.
    let landed = 0;
    const total = uploads.reduce((sum, u) => sum + u.partCount, 0);
    let killed!: () => void;
    const killedNow = new Promise<void>((resolve) => (killed = resolve));
    const sends = uploads.flatMap((u, i) =>
      Array.from({ length: u.partCount }, async (_, k) => {
        const n = k + 1;
        const signed = await call('POST', `/uploads/${u.id}/parts`, { partNumbers: [n] }).catch(() => undefined);
        if (!signed || signed.status !== 200) return;
        const body = files[i]!.subarray((n - 1) * u.partSize, n * u.partSize);
        const ok = await fetch(signed.body.parts[0].url, { method: 'PUT', body }).then((r) => r.ok, () => false);
        if (ok && ++landed >= total / 3) killed();
      }),
    );
    await killedNow;
    server!.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    await Promise.allSettled(sends);
    expect(landed).toBeLessThan(total);

    await start();
    expect(temporaryFiles(dataDir)).toEqual([]);
    for (const [i, u] of uploads.entries()) {
      const status = await call('GET', `/uploads/${u.id}`);
      expect(status.body.state).toBe('uploading');
      const have = new Set(status.body.parts.map((p: { partNumber: number }) => p.partNumber));
      for (let n = 1; n <= u.partCount; n++) {
        if (have.has(n)) continue;
        const signed = await call('POST', `/uploads/${u.id}/parts`, { partNumbers: [n] });
        const res = await fetch(signed.body.parts[0].url, { method: 'PUT', body: files[i]!.subarray((n - 1) * u.partSize, n * u.partSize) });
        expect(res.status).toBe(200);
      }
      const done = await call('POST', `/uploads/${u.id}/complete`, { sha256: sha(files[i]!) });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
    }
    // Every visible file reads back whole.
    const listing = await call('GET', `/workspaces/${workspace.id}/items/${workspace.homeId}/children?limit=100`);
    expect(listing.body.items).toHaveLength(20);
    for (const item of listing.body.items as { id: string; name: string }[]) {
      const i = Number(/file-(\d+)/.exec(item.name)![1]);
      const res = await fetch(`${url}/api/v1/items/${item.id}/content`, { headers: { authorization: `Bearer ${token}` } });
      expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(files[i]!));
    }
    server!.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }, 180_000);
});
