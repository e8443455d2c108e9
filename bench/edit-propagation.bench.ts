import { Server } from '@hocuspocus/server';
import { freePort } from '../apps/server/src/testing/test-app.ts';
import { addParagraph, editor, until } from './collab.ts';
import { percentile, report } from './report.ts';
import { startBenchApp } from './setup.ts';

/** How many documents are open at once, two editors each: a team's busy hour, and a large instance's (`BENCH_EDIT_SIZES=1000` one of them). */
const SIZES = (process.env.BENCH_EDIT_SIZES ?? '100,1000').split(',').map(Number);
const EDITS_PER_DOCUMENT = 20;
/** Each document gets an edit this often, staggered across documents: 100 documents → 400 edits/s in all, 1,000 → 4,000. */
const EDIT_INTERVAL_MS = 250;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/**
 * The documents named open, two editors each; one types a line at a time and the latency until the
 * other's copy has it is measured. Returns every latency (ms).
 */
async function measure(baseUrl: string, names: string[], token: string): Promise<number[]> {
  const pairs = names.map((name) => ({ name, a: editor(baseUrl, name, token), b: editor(baseUrl, name, token) }));
  try {
    await until(() => pairs.every((p) => p.a.synced() && p.b.synced()), 'every editor to sync', 60_000 + 100 * names.length);
    const latencies: number[] = [];
    await Promise.all(
      pairs.map(async (p, i) => {
        const sentAt: number[] = [];
        const fragment = p.b.document.getXmlFragment('default');
        const base = fragment.length;
        let seen = base;
        p.b.document.on('update', () => {
          const now = performance.now();
          for (; seen < fragment.length; seen++) latencies.push(now - sentAt[seen - base]!);
        });
        await new Promise((r) => setTimeout(r, (i * EDIT_INTERVAL_MS) / pairs.length));
        for (let n = 0; n < EDITS_PER_DOCUMENT; n++) {
          sentAt.push(performance.now());
          addParagraph(p.a.document, `line ${n} of ${p.name}`);
          await new Promise((r) => setTimeout(r, EDIT_INTERVAL_MS));
        }
        await until(() => seen - base === EDITS_PER_DOCUMENT, 'the last edit to arrive', 60_000);
      }),
    );
    return latencies;
  } finally {
    for (const p of pairs) {
      p.a.destroy();
      p.b.destroy();
    }
  }
}

/**
 * edit-propagation: how long an edit takes to reach the other editor on loopback through Cabinet
 * (authentication, access rechecks, update checks, saving and revisions), against the same clients
 * on a bare Hocuspocus server (no authentication, no persistence). p50 and p95.
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
