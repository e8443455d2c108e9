import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';
import { bareFileServer, ddFigure, drain, GiB, MiB, putWhole, syntheticFile, uploadThroughCabinet } from './transfer.ts';

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? GiB);
const RUNS = 3;

/**
 * (a) upload: a 1 GiB file through the real upload protocol to local storage (start, sign, parts
 * four at a time, complete with SHA-256 verified), against a bare Node PUT that streams to a
 * temporary file, hashes, fsyncs and renames. (b) download: the same file back through the
 * content redirect, against a bare Node file-stream GET. Both in MB/s.
 */
export default async function upload() {
  const app = await startBenchApp();
  const bareDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-bare-'));
  const bare = await bareFileServer(bareDir);
  const file = syntheticFile(SIZE);
  const mbps = (ms: number) => SIZE / 1e6 / (ms / 1000);

  const up: number[] = [];
  const upBase: number[] = [];
  const down: number[] = [];
  const downBase: number[] = [];
  let itemId = '';
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    await putWhole(bare.url, file.chunks);
    upBase.push(mbps(performance.now() - start));

    start = performance.now();
    itemId = await uploadThroughCabinet(app, `big-${run}.bin`, file, SIZE);
    up.push(mbps(performance.now() - start));

    start = performance.now();
    const bytes = await drain(await fetch(bare.url));
    if (bytes !== SIZE) throw new Error('bare download short');
    downBase.push(mbps(performance.now() - start));

    start = performance.now();
    const got = await drain(await fetch(`${app.t.url}/api/v1/items/${itemId}/content`, { headers: { authorization: `Bearer ${app.token}` } }));
    if (got !== SIZE) throw new Error(`download short: ${got}`);
    down.push(mbps(performance.now() - start));
  }
  report(`upload ${SIZE / MiB} MiB`, 'MB/s', up, upBase);
  report(`download ${SIZE / MiB} MiB`, 'MB/s', down, downBase);
  console.log(`  dd (raw disk, for the record): ${ddFigure(bareDir, 1024)}`);
  bare.server.close();
  rmSync(bareDir, { recursive: true, force: true });
  await app.close();
}
