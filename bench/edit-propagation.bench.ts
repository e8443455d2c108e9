import { Server } from '@hocuspocus/server';
import { freePort } from '../apps/server/src/testing/test-app.ts';
import { Worker } from 'node:worker_threads';
import type { EditClients } from './edit-clients.ts';
import { percentile, report } from './report.ts';
import { startBenchApp, type BenchApp } from './setup.ts';

/** How many documents are open at once, two editors each: a team's busy hour, and a large instance's (`BENCH_EDIT_SIZES=1000` one of them). */
const SIZES = (process.env.BENCH_EDIT_SIZES ?? '100,1000').split(',').map(Number);
const EDITS_PER_DOCUMENT = 20;
/** Each document gets an edit this often, staggered across documents: 100 documents → 400 edits/s in all, 1,000 → 4,000. */
const EDIT_INTERVAL_MS = 250;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/**
 * The documents named open, two editors each, in a worker thread of their own (edit-clients.ts); one types a line at a
 * time and the latency until the other's copy has it is measured. Returns every latency (ms).
 */
function measure(baseUrl: string, names: string[], token: string): Promise<number[]> {
  const data: EditClients = { baseUrl, names, token, editsPerDocument: EDITS_PER_DOCUMENT, intervalMs: EDIT_INTERVAL_MS };
  const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { module: new URL('./edit-clients.ts', import.meta.url).href, data } });
  return new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    // After its answer, an ending settles nothing; before it, it is a failure.
    worker.once('exit', (code) => reject(new Error(`the editors' worker ended (${code}) before its answer`)));
  });
}

/** Waits until the server answers a call at once three times running: what the last run left to do (saving every document it closed) is done. */
async function settled(app: BenchApp) {
  for (let quick = 0, tries = 0; quick < 3 && tries < 600; tries++) {
    const start = performance.now();
    await app.raw('GET', '/me');
    quick = performance.now() - start < 10 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * edit-propagation: how long an edit takes to reach the other editor on loopback through Cabinet
 * (authentication, access rechecks, update checks, saving and revisions), against the same clients
 * on a bare Hocuspocus server (no authentication, no persistence). p50 and p95. The clients run in a thread of their
 * own, so that the server's loop is the server's; each run of Cabinet's is followed by the saves of the documents it
 * closed, which the next run of the baseline does not share (`settled`).
 */
export default async function editPropagation() {
  // Every editor connects from this one address: the cap per address (200 by default) must let them all in.
  const app = await startBenchApp({ COLLAB_SOCKETS_PER_ADDRESS: String(2 * Math.max(...SIZES) + 10) });
  const bare = new Server({ port: await freePort(), address: '127.0.0.1', quiet: true, stopOnSignals: false });
  await bare.listen();
  const bareUrl = `http://127.0.0.1:${bare.configuration.port}`;
  const names: string[] = [];
  try {
    for (const size of SIZES) {
      for (let i = names.length; i < size; i++) {
        const res = await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'document', name: `Doc ${i}`, parentId: app.workspace.homeId });
        names.push(res.body.id);
      }
      const values = { p50: [] as number[], p95: [] as number[] };
      const baselines = { p50: [] as number[], p95: [] as number[] };
      for (let run = 0; run < RUNS; run++) {
        const b = await measure(
          bareUrl,
          names.map((n) => `${n}-${size}-${run}`),
          'none',
        );
        baselines.p50.push(percentile(b, 50));
        baselines.p95.push(percentile(b, 95));
        const v = await measure(app.t.url, names, app.token);
        await settled(app);
        values.p50.push(percentile(v, 50));
        values.p95.push(percentile(v, 95));
      }
      report(`edit-propagation p50 (${size} documents)`, 'ms', values.p50, baselines.p50);
      report(`edit-propagation p95 (${size} documents)`, 'ms', values.p95, baselines.p95);
    }
  } finally {
    await bare.destroy();
    await app.close();
  }
}
