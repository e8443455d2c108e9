import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { Database } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import type { StorageDriver } from '../../infra/storage/index.ts';
import { hmac } from '../../lib/crypto.ts';
import { fsyncPath } from '../../lib/fsync.ts';
import {
  BLOB_LIST,
  backupName,
  blobPath,
  claimFolder,
  FORMAT_VERSION,
  hashFile,
  listBackups,
  MANIFEST,
  SECRET_FILE,
  writeDurably,
  ZBlobLine,
  type Manifest,
} from './backup-folder.ts';
import { appliedMigrations, beat, blobPage, endRun, runningBackup, startRun, type BlobRow } from './backups.repo.ts';

/** Blobs listed per statement while the snapshot is held. */
const PAGE = 5000;
/** Blobs copied at once. */
const COPIES = 4;
const HEARTBEAT_MS = 20_000;

export interface BackupIo {
  /** A line of progress, for a person watching (a command's standard error; the job's log). */
  progress(line: string): void;
}

export interface BackupResult {
  manifest: Manifest;
  dir: string;
}

export class BackupRefused extends Error {}

/**
 * A backup of the whole installation while it runs (ADR 0057), into the folder of backups `location`: the database as of
 * one snapshot, the list of every blob that snapshot names, and on local storage those blobs' bytes that an earlier
 * backup there did not already copy, each checked against its SHA-256. One runs at a time across instances; while it
 * runs, no blob is deleted (the deleting job waits), so every blob the snapshot names is still there to copy.
 */
export async function createBackup(
  ctx: { database: Database; storage: StorageDriver; env: Pick<Env, 'DATA_DIR' | 'SESSION_SECRET'> },
  location: string,
  options: { trigger: 'command' | 'schedule'; io?: BackupIo; keep?: number },
): Promise<BackupResult> {
  const io = options.io ?? { progress: () => {} };
  const db = ctx.database.db;
  const started = new Date();
  await claimFolder(location);
  let name = backupName(started);
  const taken = new Set((await listBackups(location)).map((b) => b.name));
  for (let n = 2; taken.has(name); n++) name = `${backupName(started)}-${n}`;
  const id = await startRun(db, { trigger: options.trigger, location, name });
  if (!id) {
    const other = await runningBackup(db);
    throw new BackupRefused(
      `Another backup is running${other ? ` (started ${other.started_at.toISOString()}, into ${other.location})` : ''}. Wait for it to end and try again; ` +
        'one whose process was stopped is taken over two minutes after its last sign of life.',
    );
  }
  // A heartbeat that finds the run no longer `running` (taken over after its heartbeats failed): the backup stops.
  let lost = false;
  const heartbeat = setInterval(() => {
    beat(db, id).then(
      (alive) => void (lost ||= !alive),
      () => {},
    );
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const stillOurs = () => {
    if (lost) throw new Error('This backup lost its slot (its heartbeat could not be written for two minutes): it was taken over. Run it again.');
  };
  const dir = path.join(location, name);
  try {
    // What a killed backup left: its unfinished folder (the slot was ours, so none is being written), and partial blobs.
    for (const b of await listBackups(location)) if (!b.finished) await rm(path.join(location, b.name), { recursive: true, force: true });
    await rm(path.join(location, 'blobs', '.partial'), { recursive: true, force: true });
    await mkdir(dir, { mode: 0o700 });

    const databaseFile = ctx.database.kind === 'postgres' ? ('database.pgdump' as const) : ('database.sql.gz' as const);
    io.progress(`Backing up into ${dir}: the database…`);
    const { migrations, listed } = await ctx.database.onDumpSnapshot(async (tx, dump) => {
      const migrations = await appliedMigrations(tx);
      const listed = await writeBlobList(path.join(dir, BLOB_LIST), (after) => blobPage(tx, after, PAGE));
      await dump(path.join(dir, databaseFile));
      return { migrations, listed };
    });
    const database = { kind: ctx.database.kind, file: databaseFile, ...(await hashFile(path.join(dir, databaseFile))) };
    const list = { file: BLOB_LIST, ...(await hashFile(path.join(dir, BLOB_LIST))) };
    io.progress(`  database: ${megabytes(database.bytes)}; ${listed.count.toLocaleString('en')} blobs (${megabytes(listed.bytes)}) listed`);

    const withBytes = ctx.storage.kind === 'local';
    const copied = { count: 0, bytes: 0 };
    const problems: Manifest['problems'] = [];
    if (withBytes) {
      const partial = path.join(location, 'blobs', '.partial');
      await mkdir(partial, { recursive: true, mode: 0o700 });
      let done = 0;
      let shown = Date.now();
      const folders = new Set<string>();
      // Keys holding the same bytes (the same file uploaded twice) are copied once, even when read side by side (a copy
      // done is found on disk after).
      const bySha = new Map<string, Promise<CopyOutcome>>();
      await forEachBlob(path.join(dir, BLOB_LIST), COPIES, async (blob) => {
        const first = bySha.get(blob.sha256);
        const firstOutcome = first ? await first : undefined;
        let outcome: CopyOutcome;
        if (firstOutcome === 'copied' || firstOutcome === 'present') outcome = 'present';
        else {
          const copying = copyBlob(ctx.storage, location, partial, blob, folders);
          bySha.set(blob.sha256, copying);
          outcome = await copying.finally(() => bySha.delete(blob.sha256));
        }
        if (outcome === 'copied') {
          copied.count++;
          copied.bytes += blob.size;
        } else if (outcome !== 'present') problems.push({ key: blob.key, sha256: blob.sha256, problem: outcome });
        done++;
        if (Date.now() - shown > 1000) {
          shown = Date.now();
          const looked = `${done.toLocaleString('en')} of ${listed.count.toLocaleString('en')} blobs looked at`;
          io.progress(`  ${looked}, ${copied.count.toLocaleString('en')} copied (${megabytes(copied.bytes)})`);
        }
      });
      // Each folder a blob was named in, flushed once: the names are on disk before the manifest says the backup is whole.
      for (const folder of folders) await fsyncPath(folder);
      await rm(partial, { recursive: true, force: true });
    }
    stillOurs();
    const secret = await keepSecret(ctx.env, dir);
    await fsyncPath(dir);
    const manifest: Manifest = {
      format: 'cabinet-backup',
      version: FORMAT_VERSION,
      id,
      name,
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      migrations,
      database,
      storage: { kind: ctx.storage.kind, withBytes, list, count: listed.count, bytes: listed.bytes, copied },
      secret,
      problems,
    };
    // The new folders' names on disk (this backup's, and blobs/ with its new prefixes) before the manifest says it is whole.
    await fsyncPath(path.join(location, 'blobs')).catch(() => {});
    await fsyncPath(location);
    stillOurs();
    await writeDurably(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // While the slot is still this backup's: no other is copying into the folder meanwhile.
    if (options.keep) await pruneBackups(location, options.keep, io);
    await endRun(db, id, {
      state: 'done',
      error: problems.length ? problemsSummary(problems) : null,
      blobCount: listed.count,
      blobBytes: listed.bytes,
      copiedCount: copied.count,
      copiedBytes: copied.bytes,
      databaseBytes: database.bytes,
    });
    return { manifest, dir };
  } catch (error) {
    await endRun(db, id, { state: 'failed', error: error instanceof Error ? error.message : String(error) }).catch(() => {});
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

/** A secret's fingerprint: tells two secrets apart, and nothing of them. */
export const secretFingerprint = (secret: string) => hmac(secret, 'cabinet backup: the session secret').slice(0, 16);

/**
 * The session secret's fingerprint; and when the installation generated it into its data folder (no SESSION_SECRET
 * setting, so no operator keeps it elsewhere), a copy of it in the backup (owner-only), for a restore on another machine.
 */
async function keepSecret(env: Pick<Env, 'DATA_DIR' | 'SESSION_SECRET'>, dir: string): Promise<Manifest['secret']> {
  const fingerprint = secretFingerprint(env.SESSION_SECRET);
  const generated = await readFile(path.join(env.DATA_DIR, SECRET_FILE), 'utf8').catch(() => null);
  if (generated?.trim() !== env.SESSION_SECRET) return { fingerprint };
  const handle = await open(path.join(dir, SECRET_FILE), 'w', 0o600);
  try {
    await handle.writeFile(env.SESSION_SECRET);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { fingerprint, file: SECRET_FILE };
}

export const problemsSummary = (problems: Manifest['problems']) => {
  const missing = problems.filter((p) => p.problem === 'missing').length;
  const mismatched = problems.length - missing;
  return [missing ? `${missing} blob(s) missing from storage` : '', mismatched ? `${mismatched} blob(s) not matching their SHA-256` : '']
    .filter(Boolean)
    .join('; ');
};

/** Bytes as a person reads them in progress and summaries. */
export const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** Writes every blob, page after page, as lines of JSON, gzipped and flushed; returns how many and their bytes. */
async function writeBlobList(file: string, page: (after: string | null) => Promise<BlobRow[]>): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  async function* lines() {
    let after: string | null = null;
    for (;;) {
      const rows = await page(after);
      for (const r of rows) {
        count++;
        bytes += r.size;
        yield `${JSON.stringify({ key: r.key, sha256: r.sha256, size: r.size })}\n`;
      }
      if (rows.length < PAGE) return;
      after = rows.at(-1)!.key;
    }
  }
  await pipeline(Readable.from(lines()), createGzip(), createWriteStream(file));
  await fsyncPath(file);
  return { count, bytes };
}

/** The lines of a gzipped file; a read error (the file gone, damaged) rejects the loop rather than going unhandled. */
async function* gzippedLines(file: string): AsyncGenerator<string> {
  const source = createReadStream(file);
  const gunzip = createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip).setEncoding('utf8');
  let rest = '';
  for await (const chunk of gunzip as AsyncIterable<string>) {
    rest += chunk;
    let end: number;
    while ((end = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, end);
      rest = rest.slice(end + 1);
    }
  }
  if (rest) yield rest;
}

/** Calls `fn` for each blob of a backup's list, `concurrency` at a time; a line that is not a blob fails the whole. */
export async function forEachBlob(file: string, concurrency: number, fn: (blob: BlobRow) => Promise<void>): Promise<void> {
  const running = new Set<Promise<void>>();
  let failed: unknown;
  try {
    for await (const line of gzippedLines(file)) {
      if (failed) break;
      if (!line) continue;
      const blob = ZBlobLine.parse(JSON.parse(line));
      const p: Promise<void> = fn(blob).then(
        () => void running.delete(p),
        (error: unknown) => {
          failed ??= error;
          running.delete(p);
        },
      );
      running.add(p);
      if (running.size >= concurrency) await Promise.race(running);
    }
  } finally {
    await Promise.all(running);
  }
  if (failed) throw failed;
}

/**
 * One blob into the folder of backups, unless an earlier backup put it there: read from storage, hashed on the way,
 * written under a temporary name, flushed, and named by its SHA-256 only when that is what the database says it is.
 */
type CopyOutcome = 'present' | 'copied' | 'missing' | 'hash mismatch';

async function copyBlob(storage: StorageDriver, location: string, partial: string, blob: BlobRow, folders: Set<string>): Promise<CopyOutcome> {
  const target = blobPath(location, blob.sha256);
  const there = await stat(target).catch(() => null);
  if (there?.size === blob.size) return 'present';
  if ((await storage.stat(blob.key)) === null) return 'missing';
  const temporary = path.join(partial, randomUUID());
  const hash = createHash('sha256');
  const source = await storage.read(blob.key);
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        yield chunk;
      }
    },
    createWriteStream(temporary),
  );
  if (hash.digest('hex') !== blob.sha256) {
    await rm(temporary, { force: true });
    return 'hash mismatch';
  }
  await fsyncPath(temporary);
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await rename(temporary, target);
  folders.add(path.dirname(target));
  return 'copied';
}

/**
 * Keeps the newest `keep` finished backups of a folder: older ones are removed, then every blob no kept backup names.
 * Run by a backup while it holds the running slot, so that no backup is copying into the folder meanwhile.
 */
export async function pruneBackups(location: string, keep: number, io: BackupIo): Promise<{ backups: number; blobs: number }> {
  const finished = (await listBackups(location)).filter((b) => b.finished);
  const old = finished.slice(0, Math.max(0, finished.length - keep));
  for (const b of old) await rm(path.join(location, b.name), { recursive: true, force: true });
  // Every folder with a manifest names bytes, whatever its name (one renamed to keep it, say): their bytes stay.
  const named = new Set<string>();
  for (const entry of await readdir(location, { withFileTypes: true })) {
    if (!entry.isDirectory() || old.some((b) => b.name === entry.name)) continue;
    const list = path.join(location, entry.name, BLOB_LIST);
    if (!(await stat(path.join(location, entry.name, MANIFEST)).catch(() => null))) continue;
    await forEachBlob(list, 1, async (blob) => void named.add(blob.sha256));
  }
  let blobs = 0;
  const root = path.join(location, 'blobs');
  for (const prefix of await readdir(root).catch(() => [])) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    for (const file of await readdir(path.join(root, prefix))) {
      if (named.has(file)) continue;
      await rm(path.join(root, prefix, file), { force: true });
      blobs++;
    }
  }
  if (old.length || blobs)
    io.progress(
      `  kept the newest ${keep} backup(s): removed ${old.length} older one(s) and ${blobs.toLocaleString('en')} blob(s) none of the kept ones names`,
    );
  return { backups: old.length, blobs };
}
