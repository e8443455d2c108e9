import path from 'node:path';
import type { StorageDriver } from '../../infra/storage/index.ts';
import { BackupFolderError, blobPath, hashFile, listBackups, readManifest, type Manifest } from './backup-folder.ts';
import { forEachBlob } from './backup.service.ts';

export interface Verified {
  name: string;
  manifest: Manifest;
  /** Blobs whose bytes were hashed here (local storage), or looked up in the bucket (S3). */
  blobs: number;
  /** What is wrong with the backup: a restore from it is refused. */
  problems: string[];
  /** What storage lacked when the backup was taken (its manifest says so): gone before the backup, not damage to it. */
  recorded: string[];
  /** Keys the backup lists that the bucket no longer has (S3: deleted since, by Cabinet or anyone): not damage to the backup. */
  absent: string[];
}

/**
 * A backup of a folder of backups (`name`, or the newest finished one) with its manifest read, and what is wrong with its
 * database dump and blob list: each against the SHA-256 its manifest gives it.
 */
export async function openBackup(location: string, name?: string): Promise<{ name: string; dir: string; manifest: Manifest; problems: string[] }> {
  const finished = (await listBackups(location).catch(() => [])).filter((b) => b.finished);
  const chosen = name ?? finished.at(-1)?.name;
  if (!chosen) throw new BackupFolderError(`${location} holds no finished backup.`);
  const dir = path.join(location, chosen);
  const manifest = await readManifest(dir);
  const problems: string[] = [];
  for (const f of [manifest.database, manifest.storage.list]) {
    const found = await hashFile(path.join(dir, f.file)).catch(() => null);
    if (!found) problems.push(`${f.file} is missing`);
    else if (found.sha256 !== f.sha256 || found.bytes !== f.bytes) problems.push(`${f.file} does not match its SHA-256 (damaged)`);
  }
  return { name: chosen, dir, manifest, problems };
}

/**
 * Checks a backup (`name`, or the newest finished one in `location`) as a restore would need it: its database dump and
 * blob list against the SHA-256 its manifest gives them, and every blob it lists: hashed here when its bytes are in the
 * folder; looked up in `bucket` (size) when they are kept by S3.
 */
export async function verifyBackup(
  location: string,
  options: { name?: string; bucket?: StorageDriver; onProgress?: (n: number) => void } = {},
): Promise<Verified> {
  const { name, dir, manifest, problems } = await openBackup(location, options.name);
  const recorded = manifest.problems.map(
    (p) => `when backed up, ${p.key} was ${p.problem === 'missing' ? 'missing from storage' : 'not matching its SHA-256 in storage'}`,
  );
  if (problems.length) return { name, manifest, blobs: 0, problems, recorded, absent: [] };
  const absent: string[] = [];
  let blobs = 0;
  const known = new Set(manifest.problems.map((p) => p.key));
  await forEachBlob(path.join(dir, manifest.storage.list.file), 4, async (blob) => {
    // What the backup itself found wrong in storage is said once, from its manifest (`recorded`).
    if (known.has(blob.key)) return;
    if (manifest.storage.withBytes) {
      const file = blobPath(location, blob.sha256);
      const found = await hashFile(file).catch(() => null);
      if (!found) problems.push(`the bytes of ${blob.key} (${blob.sha256}) are missing`);
      else if (found.sha256 !== blob.sha256) problems.push(`the bytes of ${blob.key} do not match their SHA-256 (damaged)`);
    } else if (options.bucket) {
      const there = await options.bucket.stat(blob.key);
      if (!there) absent.push(blob.key);
      else if (there.size !== blob.size) problems.push(`${blob.key} in the bucket has ${there.size} bytes, not ${blob.size}`);
    }
    blobs++;
    options.onProgress?.(blobs);
  });
  return { name, manifest, blobs, problems, recorded, absent };
}
