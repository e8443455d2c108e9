// The editors of edit-propagation, in a worker thread of their own: two thousand clients typing and reading would
// otherwise share the event loop of the server they measure, and the bench would time the clients as much as the
// server. Given the server, the documents and a token, posts every latency (ms) from an edit to the other copy.
// Run through ts-worker.mjs.
import { parentPort, workerData } from 'node:worker_threads';
import { addParagraph, editor, until } from './collab.ts';

export interface EditClients {
  baseUrl: string;
  names: string[];
  token: string;
  editsPerDocument: number;
  intervalMs: number;
}

const { baseUrl, names, token, editsPerDocument, intervalMs } = (workerData as { data: EditClients }).data;
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
      await new Promise((r) => setTimeout(r, (i * intervalMs) / pairs.length));
      for (let n = 0; n < editsPerDocument; n++) {
        sentAt.push(performance.now());
        addParagraph(p.a.document, `line ${n} of ${p.name}`);
        await new Promise((r) => setTimeout(r, intervalMs));
      }
      await until(() => seen - base === editsPerDocument, 'the last edit to arrive', 60_000);
    }),
  );
  parentPort!.postMessage(latencies);
} finally {
  for (const p of pairs) {
    p.a.destroy();
    p.b.destroy();
  }
}
