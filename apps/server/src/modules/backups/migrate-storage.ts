import type { Db } from '../../db/client.ts';
import { eachAtOnce } from '../../lib/each-at-once.ts';
import type { Env } from '../../env.ts';
import { AppError } from '../../errors.ts';
import { createStorage, type StorageDriver } from '../../infra/storage/index.ts';
import type { BackupIo } from './backup.service.ts';
import { blobPage, previewNamed, previewObjectPage, readyVersionOf } from './backups.repo.ts';

export class StorageMoveRefused extends Error {}

export interface StorageMove {
  /** Objects written to the target now. */
  copied: number;
  copiedBytes: number;
  /** Objects the target had whole already (an earlier run's, stopped or not). */
  present: number;
  /** Files whose bytes the current storage lacks or holds damaged: not copied (`cabinet storage verify` says more). */
  problems: string[];
  /** The settings to switch to. */
  settings: string[];
}

const PAGE = 500;
const AT_ONCE = 4;

/** The bucket's settings given with the command (which a server holding the embedded database runs with its own). */
export type BucketSettings = Partial<
  Pick<Env, 'S3_ENDPOINT' | 'S3_REGION' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'>
>;

/**
 * Copies every object Cabinet's database names — each file version's bytes, checked against its SHA-256, and each
 * ready thumbnail — from the storage in use to the other kind (`to`), while Cabinet runs (ADR 0057's reads; nothing is
 * deleted from either side). An object appears in the target only whole and verified, so a run stopped at any point is
 * finished by the next, which skips what the target has whole. Bytes uploaded meanwhile are copied by running it again,
 * last with Cabinet stopped, before switching to the printed settings.
 */
export async function migrateStorage(
  ctx: { db: Db; env: Env; storage: StorageDriver },
  to: 'local' | 's3',
  io: BackupIo,
  bucket: BucketSettings = {},
): Promise<StorageMove> {
  if (ctx.env.STORAGE_DRIVER === to)
    throw new StorageMoveRefused(`Cabinet's bytes are on ${to === 's3' ? 'S3' : 'local disk'} already (STORAGE_DRIVER=${to}).`);
  const given = Object.fromEntries(Object.entries(bucket).filter(([, v]) => v !== undefined && v !== '')) as BucketSettings;
  const env: Env = { ...ctx.env, ...(to === 's3' ? given : {}), STORAGE_DRIVER: to };
  if (to === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !env[k]);
    if (missing.length)
      throw new StorageMoveRefused(`Set the bucket to move to: ${missing.join(', ')} (and S3_ENDPOINT, S3_REGION for another provider than AWS).`);
  }
  const target = createStorage(env);
  try {
    await target.check();
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const why = status === 404 ? 'there is no such bucket (make it first)' : status === 403 ? 'the keys given are refused' : (error as Error).message;
    throw new StorageMoveRefused(`The ${to === 's3' ? `bucket ${env.S3_BUCKET}` : `folder ${env.DATA_DIR}/blobs`} cannot be written: ${why}.`);
  }
  const where = to === 's3' ? `the bucket ${env.S3_BUCKET}` : `${env.DATA_DIR}/blobs`;
  const stopped = (key: string, doing: string, error: unknown) =>
    new StorageMoveRefused(
      `Copying stopped at ${key}, ${doing}: ${(error as Error)?.message || String(error)}. What was copied is whole: run the command again to go on.`,
    );
  const move: StorageMove = { copied: 0, copiedBytes: 0, present: 0, problems: [], settings: [] };
  const copy = async (object: { key: string; size: number; sha256?: string }, contentType: string) => {
    if ((await target.stat(object.key))?.size === object.size) {
      move.present++;
      return;
    }
    // Deleted meanwhile (a file purged, a version pruned, a thumbnail evicted): nothing to copy.
    const stillNamed = async () => (object.sha256 ? !!(await readyVersionOf(ctx.db, object.key)) : await previewNamed(ctx.db, object.key));
    let source;
    try {
      source = await ctx.storage.read(object.key);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'not_found') throw stopped(object.key, 'reading it from the storage in use', error);
      if (await stillNamed()) move.problems.push(`${object.key}: not in the storage in use`);
      return;
    }
    try {
      await target.writeObject(object.key, source, object.size, contentType, (sha256) => !object.sha256 || sha256 === object.sha256);
    } catch (error) {
      source.destroy();
      if (!(error instanceof AppError) || error.code !== 'checksum_mismatch') throw stopped(object.key, `writing it to ${where}`, error);
      if (await stillNamed()) move.problems.push(`${object.key}: its bytes are not the ones recorded`);
      return;
    }
    move.copied++;
    move.copiedBytes += object.size;
  };

  let seen = 0;
  for (let after: string | null = null; ;) {
    const page = await blobPage(ctx.db, after, PAGE);
    if (!page.length) break;
    await eachAtOnce(page, AT_ONCE, (blob) => copy(blob, 'application/octet-stream'));
    seen += page.length;
    io.progress(`${seen.toLocaleString('en')} files' bytes looked at, ${move.copied.toLocaleString('en')} copied…`);
    after = page.at(-1)!.key;
  }
  for (let after: string | null = null; ;) {
    const page = await previewObjectPage(ctx.db, after, PAGE);
    if (!page.length) break;
    await eachAtOnce(page, AT_ONCE, (preview) => copy(preview, 'image/webp'));
    after = page.at(-1)!.key;
  }
  move.settings =
    to === 's3'
      ? [
          'STORAGE_DRIVER=s3',
          `S3_BUCKET=${env.S3_BUCKET}`,
          ...(env.S3_ENDPOINT ? [`S3_ENDPOINT=${env.S3_ENDPOINT}`] : []),
          `S3_REGION=${env.S3_REGION}`,
          ...(env.S3_FORCE_PATH_STYLE ? ['S3_FORCE_PATH_STYLE=true'] : []),
          'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as given here',
        ]
      : ['STORAGE_DRIVER=local', `DATA_DIR=${ctx.env.DATA_DIR} (the bytes are in its blobs folder)`];
  return move;
}
