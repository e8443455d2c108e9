import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../apps/server/src/testing/test-app.ts';
import { report } from './report.ts';
import { GiB, MiB, putWhole, slice, syntheticFile } from './transfer.ts';

const SIZE = Number(process.env.BENCH_RSS_BYTES ?? 5 * GiB);
const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(here, '../apps/server/bin/cabinet.mjs');

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Samples a process's resident memory while `work` runs; answers the growth over where it started, in MiB. */
async function rssGrowth(pid: number, work: () => Promise<void>): Promise<number> {
  const before = rssOf(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  await work();
  clearInterval(timer);
  peak = Math.max(peak, rssOf(pid));
  return (peak - before) / MiB;
}

/**
 * (c) upload-rss: how much the Cabinet server process grows while a 5 GiB file is uploaded
 * through it to local storage (the server runs on its own, started as `cabinet serve`); baseline:
 * the bare crash-safe PUT server, in a process of its own, taking the same bytes.
 */
export default async function uploadRss() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-rss-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' }).stdout.trim();
  cli('user', 'create', '--email', 'rss@example.com', '--name', 'RSS', '--password', 'rss-bench-password-1');
  const token = cli('token', 'create', '--email', 'rss@example.com', '--name', 'bench');
  const server: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' });
  for (
    let i = 0;
    i < 600 &&
    !(await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await new Promise((r) => setTimeout(r, 100));
  const call = async (method: string, p: string, body?: unknown): Promise<any> =>
    (
      await fetch(`${url}/api/v1${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    ).json();

  const bare = spawn(process.execPath, [path.join(here, 'bare-put-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const barePort = await new Promise<number>((resolve) => bare.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));

  const file = syntheticFile(SIZE);
  const workspace = (await call('GET', '/workspaces')).items[0];
  const values: number[] = [];
  const baselines: number[] = [];
  for (let run = 0; run < 2; run++) {
    baselines.push(await rssGrowth(bare.pid!, () => putWhole(`http://127.0.0.1:${barePort}/`, file.chunks)));
    values.push(
      await rssGrowth(server.pid!, async () => {
        const upload = await call('POST', `/workspaces/${workspace.id}/uploads`, { parentId: workspace.homeId, name: `huge-${run}.bin`, size: SIZE });
        const queue = Array.from({ length: upload.partCount as number }, (_, i) => i + 1);
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (queue.length) {
              const batch = queue.splice(0, 8);
              const { parts } = await call('POST', `/uploads/${upload.id}/parts`, { partNumbers: batch });
              for (const part of parts as { partNumber: number; url: string }[]) {
                const start = (part.partNumber - 1) * upload.partSize;
                await (await fetch(part.url, { method: 'PUT', body: slice(file.chunks, start, Math.min(SIZE, start + upload.partSize)) })).text();
              }
            }
          }),
        );
        const done = await call('POST', `/uploads/${upload.id}/complete`, { sha256: file.sha256 });
        if (!done.item) throw new Error(JSON.stringify(done));
      }),
    );
  }
  report(`upload-rss ${SIZE / GiB} GiB`, 'MiB', values, baselines);
  server.kill('SIGTERM');
  bare.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
