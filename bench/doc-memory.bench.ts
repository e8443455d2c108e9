import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverProcess } from '../apps/server/src/testing/server-process.ts';
import { freePort } from '../apps/server/src/testing/test-app.ts';
import { addParagraph, editor, until } from './collab.ts';
import { report } from './report.ts';

const DOCUMENTS = 200;
/** 40 paragraphs of 200 characters: an 8,000-character document. */
const PARAGRAPHS = 40;
const RUNS = 3;
const here = path.dirname(fileURLToPath(import.meta.url));

const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's memory growth per open document: one editor each, every document filled with 8,000 characters. */
async function perDocument(baseUrl: string, pid: number, names: string[], token: string): Promise<number> {
  // One document opened and closed first, so what every document shares is already loaded.
  const warm = editor(baseUrl, names[0]!, token);
  await until(warm.synced, 'a first editor to sync', 60_000);
  warm.destroy();
  await sleep(3000);
  const before = rss(pid);
  const editors = names.slice(1).map((name) => editor(baseUrl, name, token));
  try {
    await until(() => editors.every((e) => e.synced()), 'every editor to sync', 60_000);
    for (const e of editors) for (let p = 0; p < PARAGRAPHS; p++) addParagraph(e.document, `${p}`.padEnd(200, ' lorem ipsum dolor sit amet'));
    await until(() => editors.every((e) => e.provider.unsyncedChanges === 0), 'every change to reach the server', 60_000);
    await sleep(5000);
    return (rss(pid) - before) / editors.length;
  } finally {
    for (const e of editors) e.destroy();
  }
}

/**
 * doc-memory: what the server holds for each open 8,000-character document (one editor each),
 * against a bare Hocuspocus server holding the same documents. Both run as processes of their own.
 */
export default async function docMemory() {
  const values: number[] = [];
  const baselines: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const port = await freePort();
    const bare = spawn(process.execPath, [path.join(here, 'bare-collab-server.mjs')], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((resolve) => bare.stdout.once('data', resolve));
    baselines.push(
      await perDocument(
        `http://127.0.0.1:${port}`,
        bare.pid!,
        Array.from({ length: DOCUMENTS + 1 }, (_, i) => `run-${run}-doc-${i}`),
        'none',
      ),
    );
    bare.kill('SIGKILL');

    const server = await serverProcess();
    try {
      const token = server.person(`memory-${run}@example.com`, 'Memory');
      await server.start();
      const workspace = (await server.as(token).raw('GET', '/workspaces')).body.items[0];
      const names: string[] = [];
      for (let i = 0; i <= DOCUMENTS; i++)
        names.push(
          (await server.as(token).raw('POST', `/workspaces/${workspace.id}/items`, { kind: 'document', name: `Doc ${i}`, parentId: workspace.homeId })).body.id,
        );
      values.push(await perDocument(server.url, server.pid()!, names, token));
    } finally {
      await server.dispose();
    }
  }
  const KiB = (xs: number[]) => xs.map((x) => x / 1024);
  report('doc-memory per open document', 'KiB', KiB(values), KiB(baselines));
}
