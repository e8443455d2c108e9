import {
  BackupFolderError,
  BackupRefused,
  createBackup,
  exportWorkspace,
  ExportRefused,
  megabytes,
  problemsSummary,
  restoreBackup,
  restoreItemFromBackup,
  migrateStorage,
  type BucketSettings,
  StorageMoveRefused,
  StorageRepairRefused,
  verifyBackup,
  verifyStorage,
} from '../modules/backups/index.ts';
import { createStorage } from '../infra/storage/index.ts';
import { CommandFailed, type CommandScope } from './scope.ts';

const refusal = (error: unknown) =>
  error instanceof BackupFolderError ||
  error instanceof BackupRefused ||
  error instanceof ExportRefused ||
  error instanceof StorageRepairRefused ||
  error instanceof StorageMoveRefused
    ? new CommandFailed(error.message)
    : error;

/**
 * `cabinet backup --out DIR`: a backup of the installation while it runs (ADR 0057). Sent to the server when it holds
 * the embedded database, which dumps it itself. Exit code 1 when storage lacked a blob or held one damaged: the backup
 * is written, and says which.
 */
export async function backupCommand({ context, io }: CommandScope, opts: { out: string; keep?: number }): Promise<number> {
  const ctx = await context();
  const started = Date.now();
  const progress = { progress: (line: string) => io.err(`${line}\n`) };
  const { manifest, dir } = await createBackup(ctx, opts.out, { trigger: 'command', io: progress, ...(opts.keep ? { keep: opts.keep } : {}) }).catch(
    (error: unknown) => {
      throw refusal(error);
    },
  );
  const s = manifest.storage;
  const count = `${s.count.toLocaleString('en')} blobs (${megabytes(s.bytes)})`;
  const blobs = s.withBytes
    ? `${count}, ${s.copied.count.toLocaleString('en')} of them copied now (${megabytes(s.copied.bytes)}), the others kept from earlier backups`
    : `the list of ${count} in the bucket, which keeps their bytes: turn on its versioning or replication to keep them safe`;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.out(`Backup written to ${dir} in ${seconds} s: the database (${megabytes(manifest.database.bytes)}) and ${blobs}.\n`);
  if (!manifest.problems.length) return 0;
  io.err(`\nStorage was not whole: ${problemsSummary(manifest.problems)}. Which ones is in ${dir}/manifest.json (problems).\n\n`);
  return 1;
}

/** `cabinet backup verify --from DIR [--name NAME]`: checks every hash of a backup (the newest, unless named). */
export async function verifyBackupCommand({ env, io }: CommandScope, opts: { from: string; name?: string }): Promise<number> {
  let last = Date.now();
  const verified = await verifyBackup(opts.from, {
    ...(opts.name ? { name: opts.name } : {}),
    // A backup that keeps its bytes in the bucket is checked against the bucket this installation is set to use.
    ...(env.STORAGE_DRIVER === 's3' ? { bucket: createStorage(env) } : {}),
    onProgress: (n) => {
      if (Date.now() - last < 1000) return;
      last = Date.now();
      io.err(`  ${n.toLocaleString('en')} blobs checked\n`);
    },
  }).catch((error: unknown) => {
    throw refusal(error);
  });
  const where = verified.manifest.storage.withBytes
    ? 'hashed'
    : env.STORAGE_DRIVER === 's3'
      ? 'found in the bucket'
      : 'listed (their bytes are in a bucket not set here)';
  const list = (items: string[]) => items.map((i) => `  - ${i}\n`).join('');
  const lacked = verified.recorded.length ? `\nStorage lacked some bytes when it was taken:\n${list(verified.recorded)}` : '';
  const since = "deleted since; with the bucket's versioning on, their earlier versions are still there";
  const absent = verified.absent.length
    ? `\nThe bucket no longer has ${verified.absent.length} of the objects it lists (${since}):\n${list(verified.absent)}`
    : '';
  const recorded = lacked + absent;
  if (!verified.problems.length) {
    io.out(`Backup ${verified.name} is whole: the database and ${verified.blobs.toLocaleString('en')} blobs ${where}.\n${recorded}`);
    return 0;
  }
  io.out(`Backup ${verified.name} is not whole:\n${verified.problems.map((p) => `  - ${p}\n`).join('')}${recorded}`);
  return 1;
}

/**
 * `cabinet restore --from DIR [--name NAME]`: a backup (the newest, unless named) brought back onto an installation
 * that holds nothing. With the embedded database it runs only while no server holds the data folder.
 */
export async function restoreCommand({ env, io, inServer }: CommandScope, opts: { from: string; name?: string }): Promise<number> {
  if (inServer) throw new CommandFailed(`A server is running on the data folder ${env.DATA_DIR}. Stop it first: a restore replaces its database.`);
  const started = Date.now();
  const { manifest, copied } = await restoreBackup(env, opts.from, {
    ...(opts.name ? { name: opts.name } : {}),
    io: { progress: (line) => io.err(`${line}\n`) },
  }).catch((error: unknown) => {
    throw refusal(error);
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const bytes = manifest.storage.withBytes ? `, ${copied.toLocaleString('en')} blobs put back in storage` : '; the files’ bytes are the bucket’s';
  io.out(`Restored backup ${manifest.name} (taken ${manifest.startedAt}) in ${seconds} s: the database${bytes}. Start Cabinet.\n`);
  return 0;
}

/**
 * `cabinet restore-item --from DIR --item ID [--to FOLDER] [--name NAME]`: one file, folder or document brought back
 * from a backup into the running installation, with its versions and revisions (ADR 0063). Exit code 1 when some
 * files or versions had no bytes to bring back (they are named; the rest came back).
 */
export async function restoreItemCommand({ context, io }: CommandScope, opts: { from: string; item: string; to?: string; name?: string }): Promise<number> {
  const ctx = await context();
  const r = await restoreItemFromBackup(ctx, opts.from, {
    itemId: opts.item,
    ...(opts.to ? { to: opts.to } : {}),
    ...(opts.name ? { name: opts.name } : {}),
    io: { progress: (line) => io.err(`${line}\n`) },
  }).catch((error: unknown) => {
    throw refusal(error);
  });
  const what = r.item.kind === 'folder' ? 'folder' : r.item.kind;
  if (r.already) {
    io.out(`“${r.item.name}” was brought back from backup ${r.backup} before, and is there (${what} ${r.item.id}, in “${r.folder.name}”): nothing was done.\n`);
    return 0;
  }
  const where = { original: 'the folder it was in', nearest: 'the nearest folder above it that is still here', chosen: 'the folder given' }[r.folder.which];
  const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
  const held = [
    r.item.kind === 'folder' ? count(r.items - 1, 'item') + ' inside' : '',
    count(r.versions, 'file version'),
    r.documents ? `${count(r.documents, 'document')} with ${count(r.revisions, 'revision')}` : '',
  ].filter(Boolean);
  io.out(
    `Brought back ${what} “${r.item.name}” from backup ${r.backup} into “${r.folder.name}” (${where}): ${held.join(', ')}; ` +
      `${megabytes(r.copiedBytes)} of bytes put back in storage. Its id is ${r.item.id}.\n` +
      'Sharing is not brought back: it has the access of the folder it is in.\n',
  );
  if (!r.leftOut.length) return 0;
  io.out(
    `\nNot brought back (no bytes to bring back):\n${r.leftOut.map((l) => `  - ${l}\n`).join('')}` +
      `To try again once their bytes are back (for a bucket, its earlier versions of the objects), move “${r.item.name}” to the trash and run this again.\n`,
  );
  return 1;
}

/**
 * `cabinet export --workspace W --out DIR`: a workspace as plain files a person can read without Cabinet (ADR 0064).
 * Exit code 1 when some files' bytes were missing or damaged in storage (they are named; the rest is written).
 */
export async function exportCommand({ context, io }: CommandScope, opts: { workspace: string; out: string }): Promise<number> {
  const ctx = await context();
  const started = Date.now();
  const r = await exportWorkspace(ctx, opts.workspace, opts.out, { progress: (line) => io.err(`${line}\n`) }).catch((error: unknown) => {
    throw refusal(error);
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const kept = r.kept ? ` (${r.kept.toLocaleString('en')} of them there already)` : '';
  io.out(
    `Exported ${r.workspace.name} to ${r.dir} in ${seconds} s: ${r.folders.toLocaleString('en')} folders, ` +
      `${r.files.toLocaleString('en')} files${kept}, ${r.documents.toLocaleString('en')} documents as Markdown, ${megabytes(r.bytes)} written; ` +
      `who had access is in access.csv (${r.access.toLocaleString('en')} rows).\n`,
  );
  if (!r.problems.length) return 0;
  io.out(`\nNot written (storage lacks their bytes or holds them damaged):\n${r.problems.map((p) => `  - ${p}\n`).join('')}`);
  return 1;
}

/**
 * `cabinet storage verify [--repair]`: storage checked against the database, every version's bytes hashed; objects
 * nothing names listed, and with `--repair` those over a day old removed. Exit code 1 when bytes are missing or damaged.
 */
export async function verifyStorageCommand({ context, io }: CommandScope, opts: { repair?: boolean }): Promise<number> {
  const ctx = await context();
  const report = await verifyStorage(ctx, { repair: !!opts.repair, io: { progress: (line) => io.err(`${line}\n`) } }).catch((error: unknown) => {
    throw refusal(error);
  });
  const list = (items: string[]) => items.map((i) => `  - ${i}\n`).join('');
  io.out(`${report.objects.toLocaleString('en')} objects in storage; ${report.checked.toLocaleString('en')} files' bytes hashed.\n`);
  if (report.missing.length) io.out(`Missing (a file's bytes storage does not have):\n${list(report.missing)}`);
  if (report.corrupt.length) io.out(`Damaged:\n${list(report.corrupt.map((c) => `${c.key}: ${c.why}`))}`);
  if (report.orphaned.length) {
    const kept = report.orphaned.length - report.removed;
    const what = opts.repair ? `removed ${report.removed}${kept ? `; ${kept} newer than a day kept` : ''}` : 'remove those over a day old with --repair';
    io.out(`Named by nothing (${what}):\n${list(report.orphaned.map((o) => `${o.key} (${o.size} bytes, ${o.modifiedAt.toISOString()})`))}`);
  }
  if (!report.missing.length && !report.corrupt.length && !report.orphaned.length) io.out('Storage and the database agree.\n');
  return report.missing.length || report.corrupt.length ? 1 : 0;
}

/**
 * `cabinet storage migrate --to s3|local`: every file's bytes (checked against its SHA-256) and every thumbnail copied
 * to the other kind of storage while Cabinet runs, the target's settings given as settings (S3_*); a stopped run is
 * finished by running it again. Prints the settings to switch to. Exit code 1 when the storage in use lacked bytes or
 * held them damaged (those are named; the rest is copied).
 */
export async function migrateStorageCommand({ context, io }: CommandScope, opts: { to: 'local' | 's3'; bucket?: BucketSettings }): Promise<number> {
  const ctx = await context();
  const move = await migrateStorage(ctx, opts.to, { progress: (line) => io.err(`${line}\n`) }, opts.bucket).catch((error: unknown) => {
    throw refusal(error);
  });
  io.out(`Copied ${move.copied.toLocaleString('en')} objects (${megabytes(move.copiedBytes)}); ${move.present.toLocaleString('en')} were there already.\n`);
  if (move.problems.length) io.out(`Not copied:\n${move.problems.map((p) => `  - ${p}\n`).join('')}`);
  io.out(
    `\nTo switch: run this again with Cabinet stopped (it copies only what came since), then start Cabinet with\n${move.settings
      .map((s) => `  ${s}\n`)
      .join('')}The old storage is left as it was: remove it once Cabinet runs well on the new one.\n`,
  );
  return move.problems.length ? 1 : 0;
}
