import { createHash } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { StorageDriver } from '../../infra/storage/index.ts';
import type { BackupIo } from './backup.service.ts';
import { blobPage, namedKeys, readyVersionOf, runningBackup } from './backups.repo.ts';

/** An object no one names is removed by `repair` only once it is this old: an upload completing now names its object a moment after writing it. */
export const ORPHAN_AGE_MS = 24 * 60 * 60_000;

export class StorageRepairRefused extends Error {}

/** An object's SHA-256, read through; null when it is gone (deleted after it was listed). */
async function hashObject(storage: StorageDriver, key: string): Promise<string | null> {
  try {
    const hash = createHash('sha256');
    for await (const chunk of await storage.read(key)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch (error) {
    if ((await storage.stat(key).catch(() => undefined)) === null) return null;
    throw error;
  }
}

/** Whether a ready version still names a key (asked again of a key found missing). */
const namedVersions = (db: Db) => async (key: string) => !!(await readyVersionOf(db, key));

export interface StorageReport {
  /** Objects in storage. */
  objects: number;
  /** Files' bytes read and hashed. */
  checked: number;
  /** Bytes a file's current or earlier version needs that storage does not have. */
  missing: string[];
  /** Bytes whose size or SHA-256 is not what the database says. */
  corrupt: { key: string; why: string }[];
  /** Objects nothing names. */
  orphaned: { key: string; size: number; modifiedAt: Date }[];
  /** Of those, removed (with `repair`: the ones older than a day). */
  removed: number;
}

/**
 * Checks storage against the database (`cabinet storage verify`): every version's bytes there, of its size and
 * SHA-256 (each read through and hashed); and every object in storage named by something, a version, an upload under
 * way or a thumbnail. With `repair`, objects nothing names that are over a day old are removed; nothing else is changed.
 */
export async function verifyStorage(
  ctx: { db: Db; storage: StorageDriver },
  options: { repair?: boolean; io?: BackupIo; orphanAgeMs?: number } = {},
): Promise<StorageReport> {
  const io = options.io ?? { progress: () => {} };
  // A backup copying now may still need bytes no version names any more (their deletion waits for it).
  if (options.repair && (await runningBackup(ctx.db))) throw new StorageRepairRefused('A backup is running: repair storage once it has ended.');
  const expected = new Map<string, { sha256: string; size: number }>();
  for (let after: string | null = null; ;) {
    const page = await blobPage(ctx.db, after, 5000);
    for (const b of page) expected.set(b.key, { sha256: b.sha256, size: b.size });
    if (page.length < 5000) break;
    after = page.at(-1)!.key;
  }
  const named = await namedKeys(ctx.db);
  const report: StorageReport = { objects: 0, checked: 0, missing: [], corrupt: [], orphaned: [], removed: 0 };
  const seen = new Set<string>();
  let shown = Date.now();
  for await (const object of ctx.storage.list()) {
    report.objects++;
    const want = expected.get(object.key);
    if (want) {
      seen.add(object.key);
      if (object.size !== want.size) report.corrupt.push({ key: object.key, why: `${object.size} bytes, not ${want.size}` });
      else {
        const sha256 = await hashObject(ctx.storage, object.key);
        // Gone since it was listed (a version deleted meanwhile): nothing to say of it.
        if (sha256 === null) continue;
        if (sha256 !== want.sha256) report.corrupt.push({ key: object.key, why: 'its SHA-256 is not the one recorded' });
        report.checked++;
      }
    } else if (!named.has(object.key)) report.orphaned.push(object);
    if (Date.now() - shown > 1000) {
      shown = Date.now();
      io.progress(`  ${report.objects.toLocaleString('en')} objects looked at, ${report.checked.toLocaleString('en')} hashed`);
    }
  }
  // Missing, unless written since it was listed, or its version deleted meanwhile: both looked at again.
  const stillNamed = namedVersions(ctx.db);
  for (const key of expected.keys()) if (!seen.has(key) && !(await ctx.storage.stat(key)) && (await stillNamed(key))) report.missing.push(key);
  if (options.repair) {
    for (const o of report.orphaned) {
      if (Date.now() - o.modifiedAt.getTime() < (options.orphanAgeMs ?? ORPHAN_AGE_MS)) continue;
      await ctx.storage.delete(o.key);
      report.removed++;
    }
  }
  return report;
}
