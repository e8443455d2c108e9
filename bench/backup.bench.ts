import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { fsyncPath } from '../apps/server/src/lib/fsync.ts';
import { createBackup } from '../apps/server/src/modules/backups/index.ts';
import { report } from './report.ts';
import { startBenchApp, type BenchApp } from './setup.ts';
import { uploadBatch } from './transfer.ts';

const FILES = 10_000;
const SIZE = 10 * 1024;
const BATCH = 8;
const RUNS = 3;

/** FILES distinct files of SIZE bytes through the upload protocol, BATCH at a time in one start and one completion, two batches under way. */
async function uploadDistinct(app: BenchApp, parentId: string): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < FILES) {
      const first = next;
      next += BATCH;
      const files = Array.from({ length: Math.min(BATCH, FILES - first) }, (_, i) => {
        const bytes = randomBytes(SIZE);
        return { name: `f-${first + i}.bin`, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
      });
      await uploadBatch(app.raw, app.workspace.id, parentId, files);
    }
  };
  await Promise.all([lane(), lane()]);
}

/**
 * The baseline's copy: the same files' bytes, the same durability as a backup's (read, written under a temporary
 * name, fsynced, renamed by their SHA-256, each folder fsynced once), 4 at a time, with no database, list or manifest.
 */
async function bareCopy(app: BenchApp, to: string): Promise<void> {
  const rows = (await sql<{ key: string; sha256: string }>`SELECT blob_key AS key, sha256 FROM file_versions WHERE state = 'ready'`.execute(app.t.ctx.db)).rows;
  const partial = path.join(to, '.partial');
  await mkdir(partial, { recursive: true });
  const folders = new Set<string>();
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      const temporary = path.join(partial, randomUUID());
      await pipeline(await app.t.ctx.storage.read(row.key), createWriteStream(temporary));
      await fsyncPath(temporary);
      const folder = path.join(to, row.sha256.slice(0, 2));
      await mkdir(folder, { recursive: true });
      await rename(temporary, path.join(folder, row.sha256));
      folders.add(folder);
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  for (const f of folders) await fsyncPath(f);
}

/**
 * backup: a backup (`cabinet backup`) of an installation holding 10,000 files of 10 KiB on local storage, then one
 * with nothing new (incremental: only the database and the list). Baselines, in the same run: the database's dump
 * alone (the same tool, pg_dump or PGlite's) plus a bare durable copy of the same bytes; for the incremental one, the
 * dump alone. Seconds. One after the other, as a backup does them.
 */
export default async function backupBench() {
  const app = await startBenchApp();
  const home = (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name: 'many', parentId: app.workspace.homeId })).body
    .id as string;
  await uploadDistinct(app, home);
  await sql`ANALYZE`.execute(app.t.ctx.db);
  const ctx = app.t.ctx;
  const full: number[] = [];
  const again: number[] = [];
  const bareFull: number[] = [];
  const dumpOnly: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const location = await mkdtemp(path.join(os.tmpdir(), 'cabinet-bench-backups-'));
    const bare = await mkdtemp(path.join(os.tmpdir(), 'cabinet-bench-bare-'));
    const timed = async (fn: () => Promise<unknown>) => {
      const start = performance.now();
      await fn();
      return (performance.now() - start) / 1000;
    };
    const dump = () => ctx.database.onDumpSnapshot((_tx, write) => write(path.join(bare, `dump-${randomUUID()}`)));
    bareFull.push(
      await timed(async () => {
        await dump();
        await bareCopy(app, path.join(bare, 'blobs'));
      }),
    );
    full.push(await timed(() => createBackup(ctx, location, { trigger: 'command' })));
    dumpOnly.push(await timed(dump));
    again.push(await timed(() => createBackup(ctx, location, { trigger: 'command' })));
    await rm(location, { recursive: true, force: true });
    await rm(bare, { recursive: true, force: true });
  }
  report(`backup of ${FILES.toLocaleString('en')} files`, 's', full, bareFull);
  report(`backup of ${FILES.toLocaleString('en')} files again, nothing new`, 's', again, dumpOnly);
  console.log('  baselines: the database dump beside a bare durable copy of the same bytes; for the second, the dump alone');
  await app.close();
}
