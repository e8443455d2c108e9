import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';
import { bareMultipartServer, ddFigure, drain, GiB, MiB, syntheticFile, uploadThroughBare, uploadThroughCabinet } from './transfer.ts';

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? GiB);
const RUNS = 3;
/** Cabinet's default part size (`UPLOAD_PART_SIZE`); the baseline cuts the file the same way. */
const PART_SIZE = 8 * MiB;
const IN_FLIGHT = 4;

/**
 * (a) upload: a 1 GiB file through the real upload protocol to local storage (start, sign, parts
 * four at a time, complete with SHA-256 verified). Baseline: the bare multipart store of
 * transfer.ts taking the same 8 MiB parts four at a time from the same client, each written as
 * Cabinet writes one (temporary file, fsync, rename), joined as Cabinet joins them (read back for
 * the SHA-256, folder fsynced and renamed into place). (b) download: the file back through the
 * content redirect. Baseline: the bare store streaming the same stored parts Cabinet reads, with
 * the same headers and chunk size, to the same client. Both in MB/s. Cabinet and the baseline take
 * turns going first, so neither always meets the disk or the page cache in the other's wake.
 */
export default async function upload() {
  const app = await startBenchApp();
  const bareDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-bare-'));
  const bare = await bareMultipartServer(bareDir);
  const file = syntheticFile(SIZE);
  const mbps = (ms: number) => SIZE / 1e6 / (ms / 1000);
  const timed = async (work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    return mbps(performance.now() - start);
  };

  const up: number[] = [];
  const upBase: number[] = [];
  const down: number[] = [];
  const downBase: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let itemId = '';
    let bareId = '';
    const uploads = [
      async () => upBase.push(await timed(async () => (bareId = await uploadThroughBare(bare.url, file, SIZE, PART_SIZE, IN_FLIGHT)))),
      async () => up.push(await timed(async () => (itemId = await uploadThroughCabinet(app, `big-${run}.bin`, file, SIZE, IN_FLIGHT)))),
    ];
    for (const work of run % 2 ? uploads.reverse() : uploads) await work();

    const { blob_key } = await app.t.ctx.db
      .selectFrom('items')
      .innerJoin('file_versions', 'file_versions.id', 'items.current_version_id')
      .select('file_versions.blob_key')
      .where('items.id', '=', itemId)
      .executeTakeFirstOrThrow();
    const stored = path.join(app.t.ctx.env.DATA_DIR, 'blobs', 'objects', blob_key);
    const downloads = [
      async () =>
        downBase.push(
          await timed(async () => {
            const got = await drain(await fetch(`${bare.url}/folder?path=${encodeURIComponent(stored)}`));
            if (got !== SIZE) throw new Error(`bare download short: ${got}`);
          }),
        ),
      async () =>
        down.push(
          await timed(async () => {
            const got = await drain(await fetch(`${app.t.url}/api/v1/items/${itemId}/content`, { headers: { authorization: `Bearer ${app.token}` } }));
            if (got !== SIZE) throw new Error(`download short: ${got}`);
          }),
        ),
    ];
    for (const work of run % 2 ? downloads.reverse() : downloads) await work();
    rmSync(path.join(bareDir, 'objects', bareId), { recursive: true, force: true });
  }
  report(`upload ${SIZE / MiB} MiB`, 'MB/s', up, upBase);
  report(`download ${SIZE / MiB} MiB`, 'MB/s', down, downBase);
  console.log(`  dd (raw disk, for the record): ${ddFigure(bareDir, 1024)}`);
  bare.server.close();
  rmSync(bareDir, { recursive: true, force: true });
  await app.close();
}
