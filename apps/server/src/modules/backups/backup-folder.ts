import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { fsyncPath } from '../../lib/fsync.ts';

/*
 * A folder of backups (ADR 0057):
 *
 *   cabinet-backups.txt             says what the folder is (a folder without it, and not empty, is refused)
 *   blobs/ab/ab12…                   files' bytes by their SHA-256, shared by every backup here (local storage only)
 *   2026-12-01T20-15-03Z/            one backup
 *     database.pgdump | database.sql.gz    the database as of one snapshot
 *     blobs.jsonl.gz                 every blob that snapshot names: {"key","sha256","size"}
 *     manifest.json                  written last: a backup without it is unfinished
 */

export const MARKER = 'cabinet-backups.txt';
/** The data folder's generated session secret, where a backup keeps it. */
export const SECRET_FILE = 'session-secret' as const;
export const MANIFEST = 'manifest.json';
export const BLOB_LIST = 'blobs.jsonl.gz' as const;
/** The format this Cabinet writes, and the newest it reads. */
export const FORMAT_VERSION = 1;

/** A file of a backup, named by one of the names a backup writes (never a path: a manifest is read back from disk). */
const ZFile = z.object({
  file: z.enum(['database.pgdump', 'database.sql.gz', 'blobs.jsonl.gz']),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const ZManifest = z.object({
  format: z.literal('cabinet-backup'),
  version: z.number().int().positive(),
  id: z.string(),
  name: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** The migrations the database had: the schema the dump holds. */
  migrations: z.array(z.string()),
  database: ZFile.extend({ kind: z.enum(['pglite', 'postgres']) }),
  storage: z.object({
    kind: z.enum(['local', 's3']),
    /** Whether the bytes are in this folder (local storage) or only listed (S3: the bucket keeps them). */
    withBytes: z.boolean(),
    list: ZFile,
    count: z.number().int().nonnegative(),
    bytes: z.number().nonnegative(),
    /** Of those, copied by this backup (the others were here from an earlier one). */
    copied: z.object({ count: z.number().int().nonnegative(), bytes: z.number().nonnegative() }),
  }),
  /**
   * The session secret the installation ran with (what seals its sessions, tokens' kept answers and signed addresses):
   * its fingerprint, and when it was generated into the data folder (no SESSION_SECRET setting), the file holding it.
   */
  secret: z.object({ fingerprint: z.string(), file: z.literal('session-secret').optional() }),
  /** Blobs the database names that storage did not have, or whose bytes did not match their SHA-256. */
  problems: z.array(z.object({ key: z.string(), sha256: z.string(), problem: z.enum(['missing', 'hash mismatch']) })),
});
export type Manifest = z.infer<typeof ZManifest>;

export const ZBlobLine = z.object({ key: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().nonnegative() });

/** Where a blob's bytes are kept in a folder of backups. */
export const blobPath = (dir: string, sha256: string) => path.join(dir, 'blobs', sha256.slice(0, 2), sha256);

/**
 * A blob's bytes in a folder of backups to read, when they are there and of `size` bytes; undefined otherwise. Opened
 * before the stream is made, so that a file gone meanwhile (a backup pruned) is an answer here, not an error event no
 * one listens for yet.
 */
export async function openBlob(dir: string, sha256: string, size: number): Promise<Readable | undefined> {
  const handle = await open(blobPath(dir, sha256)).catch(() => undefined);
  if (!handle) return undefined;
  if ((await handle.stat().catch(() => null))?.size !== size) {
    await handle.close().catch(() => {});
    return undefined;
  }
  return handle.createReadStream();
}

/** A backup's name: its start in UTC, to the second, with no colons (which some file systems refuse). */
export const backupName = (at: Date) =>
  at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');

/** A backup's folder name as `backupName` writes it (and only that: nothing else in the folder is taken for one). */
const NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(-\d+)?$/;

export class BackupFolderError extends Error {}

/** Makes `dir` a folder of backups, or checks it is one: an empty or missing folder is made one; any other is refused. */
export async function claimFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const entries = await readdir(dir);
  if (entries.includes(MARKER)) return;
  // A file system's own folder (a new disk mounted there) is not someone's files.
  if (entries.some((e) => e !== 'lost+found'))
    throw new BackupFolderError(`${dir} already holds other files. Give an empty folder, or one that holds Cabinet's backups.`);
  await writeDurably(
    path.join(dir, MARKER),
    'Backups of a Cabinet installation: one folder per backup, the files’ bytes under blobs/ (shared by them).\n' +
      'Check them with `cabinet backup verify --from <this folder>`; bring one back with `cabinet restore --from <this folder>`.\n',
  );
}

/** The backups in a folder of backups, oldest first: `finished` when their manifest is there. */
export async function listBackups(dir: string): Promise<{ name: string; finished: boolean }[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: { name: string; finished: boolean }[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || !NAME.test(e.name)) continue;
    const finished = await stat(path.join(dir, e.name, MANIFEST)).then(
      () => true,
      () => false,
    );
    out.push({ name: e.name, finished });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** A backup's manifest, checked: a manifest from a newer Cabinet, or not one at all, is refused before anything is done. */
export async function readManifest(backupDir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(backupDir, MANIFEST), 'utf8');
  } catch {
    throw new BackupFolderError(`${backupDir} holds no finished backup (no ${MANIFEST}: it was stopped before it ended, or this is not a backup).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BackupFolderError(`${path.join(backupDir, MANIFEST)} is damaged (not JSON).`);
  }
  const version = (parsed as { version?: unknown })?.version;
  if (typeof version === 'number' && version > FORMAT_VERSION)
    throw new BackupFolderError(
      `${backupDir} was written by a newer Cabinet (backup format ${version}; this one reads up to ${FORMAT_VERSION}). Upgrade Cabinet first.`,
    );
  const manifest = ZManifest.safeParse(parsed);
  if (!manifest.success)
    throw new BackupFolderError(`${path.join(backupDir, MANIFEST)} is damaged (${manifest.error.issues[0]?.message ?? 'not a manifest'}).`);
  return manifest.data;
}

/** Writes a small file whole: to a temporary name (with `mode` from the start), flushed, renamed, and the folder flushed. */
export async function writeDurably(file: string, content: string, mode = 0o644): Promise<void> {
  const temporary = `${file}.${process.pid}.partial`;
  const handle = await open(temporary, 'w', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  await fsyncPath(path.dirname(file));
}

/** A file's size and SHA-256, read through. */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(createReadStream(file), async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      bytes += chunk.length;
      hash.update(chunk);
    }
    yield* [];
  });
  return { bytes, sha256: hash.digest('hex') };
}
