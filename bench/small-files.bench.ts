import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';
import { bareFileServer, syntheticFile, uploadThroughCabinet } from './transfer.ts';

const FILES = 2000;
const SIZE = 10 * 1024;
const IN_FLIGHT = 8;
const RUNS = 3;

async function inParallel(count: number, width: number, one: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await one(next++);
  }));
  return count / ((performance.now() - start) / 1000);
}

/**
 * (e) small-files: 2,000 files of 10 KiB through the whole upload protocol (start, sign, PUT,
 * complete with SHA-256 verified), 8 at a time; baseline: the bare crash-safe PUT (temporary file,
 * SHA-256, fsync, rename) of the same files, 8 at a time. Files per second.
 */
export default async function smallFiles() {
  const app = await startBenchApp();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-small-'));
  const bare = await bareFileServer(dir);
  const file = syntheticFile(SIZE);
  const body = randomBytes(SIZE);
  const values: number[] = [];
  const baselines: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    baselines.push(await inParallel(FILES, IN_FLIGHT, async () => (await fetch(bare.url, { method: 'PUT', body })).text()));
    values.push(await inParallel(FILES, IN_FLIGHT, (i) => uploadThroughCabinet(app, `small-${run}-${i}.bin`, file, SIZE, 1)));
  }
  report('small-files 10 KiB', 'files/s', values, baselines);
  bare.server.close();
  rmSync(dir, { recursive: true, force: true });
  await app.close();
}
