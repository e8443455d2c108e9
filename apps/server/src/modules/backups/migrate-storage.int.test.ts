import { createHash, randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../env.ts';
import { createStorage, type StorageDriver } from '../../infra/storage/index.ts';
import { storageSettings, testS3Settings } from '../../testing/test-s3.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { migrateStorage } from './migrate-storage.ts';
import { verifyStorage } from './verify-storage.ts';

const s3 = testS3Settings();
const test = useTestApp();
const quiet = { progress: () => {} };
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The app's settings with the bytes on `driver`, in the bucket `bucket` when on S3. */
const envFor = (env: Env, bucket: string, driver: 'local' | 's3'): Env => ({
  ...env,
  STORAGE_DRIVER: driver,
  S3_ENDPOINT: s3!.S3_ENDPOINT,
  S3_REGION: s3!.S3_REGION!,
  S3_BUCKET: bucket,
  S3_ACCESS_KEY_ID: s3!.S3_ACCESS_KEY_ID,
  S3_SECRET_ACCESS_KEY: s3!.S3_SECRET_ACCESS_KEY,
  S3_FORCE_PATH_STYLE: s3!.S3_FORCE_PATH_STYLE === 'true',
});

/** The storage, its reads failing from the `n`th on (a disk or a network gone mid-way, as a stopped run leaves it). */
function failingFrom(storage: StorageDriver, n: number): StorageDriver {
  let reads = 0;
  return new Proxy(storage, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== 'read' || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        ++reads >= n ? Promise.reject(new Error('the disk went away')) : (value as (...a: unknown[]) => unknown).apply(target, args);
    },
  });
}

describe.skipIf(!s3)('moving storage (cabinet storage migrate)', () => {
  it('copies every file’s bytes local → S3 while Cabinet runs, finishes a stopped run, and back to local', async () => {
    const ada = await test.given.person('Ada');
    // Small files, an empty one, and one of several parts (over 8 MiB).
    const files = [...Array.from({ length: 10 }, (_, i) => randomBytes(50_000 + i * 7_000)), new Uint8Array(0), randomBytes(17 * 1024 * 1024 + 5)];
    for (const [i, bytes] of files.entries()) expect((await test.given.upload(ada, ada.workspace.homeId, `f${i}.bin`, bytes)).status).toBe(200);
    const { ctx } = test.app;
    const bucket = (await storageSettings(s3!, 1)).S3_BUCKET!;
    const toS3 = envFor(ctx.env, bucket, 'local');
    const bucketStorage = createStorage(envFor(ctx.env, bucket, 's3'));

    // A run stopped part-way (its source failing at the 6th read): what it wrote is whole, the rest is not there.
    await expect(migrateStorage({ db: ctx.db, env: toS3, storage: failingFrom(ctx.storage, 6) }, 's3', quiet)).rejects.toThrow('the disk went away');
    let written = 0;
    for await (const object of bucketStorage.list()) {
      written++;
      expect(sha(await buffer(await bucketStorage.read(object.key)))).toBe(
        (await ctx.db.selectFrom('file_versions').select('sha256').where('blob_key', '=', object.key).executeTakeFirstOrThrow()).sha256,
      );
    }
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(files.length);

    // Run again: it finishes, copying only what is not there whole.
    const moved = await migrateStorage({ db: ctx.db, env: toS3, storage: ctx.storage }, 's3', quiet);
    expect(moved).toMatchObject({ copied: files.length - written, present: written, problems: [] });
    expect(moved.settings).toEqual(expect.arrayContaining(['STORAGE_DRIVER=s3', `S3_BUCKET=${bucket}`]));
    // On the bucket, Cabinet finds every file whole: the same check `cabinet storage verify` makes, switched over.
    const onS3 = await verifyStorage({ db: ctx.db, storage: bucketStorage });
    expect(onS3).toMatchObject({ missing: [], corrupt: [], orphaned: [] });
    expect(onS3.checked).toBe(files.length);

    // Back to local disk from the bucket: the bytes local disk lost come back from it, checked.
    const keys = (await ctx.db.selectFrom('file_versions').select('blob_key').execute()).map((r) => r.blob_key);
    for (const key of keys.slice(0, 3)) await ctx.storage.delete(key);
    const back = await migrateStorage({ db: ctx.db, env: envFor(ctx.env, bucket, 's3'), storage: bucketStorage }, 'local', quiet);
    expect(back).toMatchObject({ copied: 3, present: files.length - 3, problems: [] });
    expect(await verifyStorage({ db: ctx.db, storage: ctx.storage })).toMatchObject({ missing: [], corrupt: [] });
  });

  it('copies nothing damaged: bytes that are not the ones recorded are named, not written', async () => {
    const bea = await test.given.person('Bea');
    const good = randomBytes(40_000);
    const bad = randomBytes(40_000);
    const short = randomBytes(40_000);
    for (const [name, bytes] of Object.entries({ good, bad, short })) await test.given.upload(bea, bea.workspace.homeId, `${name}.bin`, bytes);
    const { ctx } = test.app;
    const keyOf = async (bytes: Uint8Array) =>
      (await ctx.db.selectFrom('file_versions').select('blob_key').where('sha256', '=', sha(bytes)).executeTakeFirstOrThrow()).blob_key;
    const [badKey, shortKey] = [await keyOf(bad), await keyOf(short)];
    // The same length and other bytes, or fewer bytes: what a failing disk leaves.
    await ctx.storage.put(badKey, randomBytes(40_000), 'application/octet-stream');
    await ctx.storage.put(shortKey, short.subarray(0, 30_000), 'application/octet-stream');
    const bucket = (await storageSettings(s3!, 1)).S3_BUCKET!;
    const moved = await migrateStorage({ db: ctx.db, env: envFor(ctx.env, bucket, 'local'), storage: ctx.storage }, 's3', quiet);
    expect(moved.problems.sort()).toEqual([`${badKey}: its bytes are not the ones recorded`, `${shortKey}: its bytes are not the ones recorded`].sort());
    const onS3 = createStorage(envFor(ctx.env, bucket, 's3'));
    expect(await onS3.stat(badKey)).toBeNull();
    expect(await onS3.stat(shortKey)).toBeNull();
    // Back to local disk: what the bucket lacks is named (an object already there at its recorded size is taken as
    // copied before: `cabinet storage verify` reads every byte), the rest copied.
    await ctx.storage.delete(await keyOf(good));
    const back = await migrateStorage({ db: ctx.db, env: envFor(ctx.env, bucket, 's3'), storage: onS3 }, 'local', quiet);
    expect(back.problems).toContain(`${shortKey}: not in the storage in use`);
    expect((await ctx.storage.stat(await keyOf(good)))?.size).toBe(40_000);
    // Refused before anything: the same kind, or no bucket named.
    await expect(migrateStorage({ db: ctx.db, env: ctx.env, storage: ctx.storage }, 'local', quiet)).rejects.toThrow('already');
    await expect(migrateStorage({ db: ctx.db, env: { ...ctx.env, S3_BUCKET: undefined }, storage: ctx.storage }, 's3', quiet)).rejects.toThrow('S3_BUCKET');
  });
});
