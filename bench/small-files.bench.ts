import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';
import {
  bareFileServer,
  bareMultipartServer,
  syntheticFile,
  uploadSmallFiles,
  uploadSmallFilesThroughBare,
  uploadThroughBare,
  uploadThroughCabinet,
} from './transfer.ts';

const FILES = 2000;
const SIZE = 10 * 1024;
const IN_FLIGHT = 8;
const RUNS = 3;

async function inParallel(count: number, width: number, one: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await one(next++);
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

/** At most `width` at once of whatever is wrapped. */
function limiter(width: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let free = width;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/**
 * (e) small-files: 2,000 files of 10 KiB through the whole upload protocol with SHA-256 verified,
 * as the browser sends small files: batches of 8 started in one call and completed in one call,
 * two batches under way so one starts or completes while the other's parts go up, and never more
 * than 8 parts in flight. Also, for the record, one file at a time per lane (start, PUT, complete:
 * three calls a file), 8 lanes. Baseline: the bare crash-safe PUT (temporary file, SHA-256, fsync,
 * rename) of the same files, 8 at a time. Files per second.
 *
 * For the record, each path also against a bare store doing the same calls and keeping what Cabinet
 * must keep of a file (bareMultipartServer): the same batches or three calls a file, the same part
 * writing, the joining with its folder syncs, and each completing call's files recorded in one
 * INSERT on the same database (a commit) before it answers. What Cabinet adds to that is its own
 * work: accounts, access, names, quota, search, activity.
 *
 * After a warm-up the database is analysed: a live database has statistics (autovacuum gathers
 * them within a minute of a table growing), and without them PostgreSQL looks names up in a
 * folder by scanning it.
 */
export default async function smallFiles() {
  const app = await startBenchApp();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-small-'));
  const file = syntheticFile(SIZE);
  const body = randomBytes(SIZE);
  const bare = await bareFileServer(dir);
  const db = app.t.ctx.db;
  await sql`CREATE TABLE bench_files (id text PRIMARY KEY, size bigint NOT NULL, sha256 text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  const store = await bareMultipartServer(path.join(dir, 'store'), async (ids) => {
    if (ids.length) await sql`INSERT INTO bench_files (id, size, sha256) SELECT id, ${SIZE}, ${file.sha256} FROM unnest(${ids}::text[]) AS id`.execute(db);
  });
  const folder = async (name: string) =>
    (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name, parentId: app.workspace.homeId })).body.id as string;
  const warm = await folder('warm-up');
  await inParallel(400, IN_FLIGHT, (i) => uploadThroughCabinet(app, `warm-${i}.bin`, file, SIZE, 1, warm));
  await sql`ANALYZE`.execute(app.t.ctx.db);

  const batched: number[] = [];
  const single: number[] = [];
  const baselines: number[] = [];
  const storeBatched: number[] = [];
  const storeSingle: number[] = [];
  const parts = limiter(IN_FLIGHT);
  for (let run = 0; run < RUNS; run++) {
    baselines.push(await inParallel(FILES, IN_FLIGHT, async () => (await fetch(bare.url, { method: 'PUT', body })).text()));
    storeBatched.push((await inParallel(FILES / 8, 2, () => uploadSmallFilesThroughBare(store.url, 8, file, SIZE, parts))) * 8);
    storeSingle.push(await inParallel(FILES, IN_FLIGHT, () => uploadThroughBare(store.url, file, SIZE, SIZE, 1)));
    const into = await folder(`batched ${run}`);
    batched.push(
      (await inParallel(FILES / 8, 2, (b) =>
        uploadSmallFiles(
          app,
          Array.from({ length: 8 }, (_, i) => `small-${b * 8 + i}.bin`),
          file,
          SIZE,
          into,
          parts,
        ),
      )) * 8,
    );
    const alone = await folder(`single ${run}`);
    single.push(await inParallel(FILES, IN_FLIGHT, (i) => uploadThroughCabinet(app, `small-${i}.bin`, file, SIZE, 1, alone)));
  }
  report('small-files 10 KiB', 'files/s', batched, baselines);
  report('small-files 10 KiB, three calls a file', 'files/s', single, baselines);
  report('small-files 10 KiB against a bare store recording each file', 'files/s', batched, storeBatched);
  report('small-files 10 KiB, three calls a file, against a bare store recording each file', 'files/s', single, storeSingle);
  bare.server.close();
  store.server.close();
  rmSync(dir, { recursive: true, force: true });
  await app.close();
}
