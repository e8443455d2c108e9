import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createStorage } from '../../infra/storage/index.ts';
import { parseEnv } from '../../env.ts';
import { cabinet } from '../../testing/cabinet-command.ts';
import { storageSettings, testS3Settings } from '../../testing/test-s3.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { verifyStorage } from './verify-storage.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/cabinet.mjs');
const s3 = testS3Settings();
// A server running (the test app) and `cabinet storage migrate` beside it in a process of its own, on PostgreSQL (a
// second process on an embedded database goes through the server, which would not die with the command).
const test = useTestApp();

describe.skipIf(!s3)('cabinet storage migrate, killed', () => {
  it('killed in the middle of copying, then run again, leaves every object whole, once, in the bucket', async () => {
    const ada = await test.given.person('Ada');
    const count = 24;
    for (let i = 0; i < count; i++) expect((await test.given.upload(ada, ada.workspace.homeId, `f${i}.bin`, randomBytes(512 * 1024 + i))).status).toBe(200);
    const bucket = (await storageSettings(s3!, 1)).S3_BUCKET!;
    const { STORAGE_DRIVER: _s3, ...bucketSettings } = s3!;
    const settings = {
      ...bucketSettings,
      S3_BUCKET: bucket,
      STORAGE_DRIVER: 'local',
      DATA_DIR: test.app.dataDir,
      DATABASE_URL: test.app.db.url!,
      SESSION_SECRET: test.app.ctx.env.SESSION_SECRET,
      LOG_LEVEL: 'silent',
    };
    const bucketStorage = createStorage(parseEnv({ ...settings, STORAGE_DRIVER: 's3' }));
    const inBucket = async () => {
      let n = 0;
      for await (const _ of bucketStorage.list()) n++;
      return n;
    };

    // Killed (SIGKILL: nothing of it runs after) once a few objects are in the bucket.
    const child = spawn(process.execPath, [bin, 'storage', 'migrate', '--to', 's3'], {
      env: { ...process.env, ...settings },
      cwd: os.tmpdir(),
      stdio: 'ignore',
    });
    const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
    await expect.poll(inBucket, { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(3);
    child.kill('SIGKILL');
    await ended;
    const before = await inBucket();
    expect(before).toBeLessThan(count);

    const again = await cabinet(['storage', 'migrate', '--to', 's3'], settings);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`Copied ${count - before} objects .*; ${before} were there already`));
    expect(again.stdout).toContain('STORAGE_DRIVER=s3');
    // Every file's bytes in the bucket, of their size and hash, and nothing else there (no half-written object).
    const report = await verifyStorage({ db: test.app.ctx.db, storage: bucketStorage });
    expect(report).toMatchObject({ checked: count, missing: [], corrupt: [], orphaned: [] });
  });
});
