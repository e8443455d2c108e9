import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../../testing/temp-folders.ts';
import { freePort, useTestApp } from '../../testing/test-app.ts';
import { storageSettings, testS3Settings } from '../../testing/test-s3.ts';
import { createBackup } from './backup.service.ts';
import { verifyBackup } from './verify-backup.ts';

// On the embedded database only: what differs here is the storage, which the database does not change.
const newFolder = tempFolders('cabinet-backups-s3');
const bytes = (text: string) => new TextEncoder().encode(text);

describe.skipIf(!testS3Settings())('a backup of an installation whose bytes are in S3', () => {
  const s3 = useTestApp(async () => {
    const port = await freePort();
    return { ...(await storageSettings(testS3Settings()!, port)), PORT: String(port) };
  });

  it('lists every blob the snapshot names, keeps no bytes (the bucket does), and finds the bucket whole or not', async () => {
    const ada = await s3.given.person('Ada');
    for (const name of ['a.txt', 'b.txt']) expect((await s3.given.upload(ada, ada.workspace.rootId, name, bytes(`${name} ${Date.now()}`))).status).toBe(200);
    const location = await newFolder();
    const { manifest } = await createBackup(s3.app.ctx, location, { trigger: 'command' });
    expect(manifest.storage).toMatchObject({ kind: 's3', withBytes: false, copied: { count: 0, bytes: 0 } });
    expect(manifest.storage.count).toBeGreaterThanOrEqual(2);
    expect(manifest.problems).toEqual([]);
    expect(await stat(path.join(location, 'blobs')).catch(() => null)).toBeNull();
    const bucket = s3.app.ctx.storage;
    expect(await verifyBackup(location, { bucket })).toMatchObject({ blobs: manifest.storage.count, problems: [] });
    const version = await s3.app.ctx.db.selectFrom('file_versions').select('blob_key').limit(1).executeTakeFirstOrThrow();
    await bucket.delete(version.blob_key);
    // Deleted since (by Cabinet or anyone): not damage to the backup, said apart.
    expect(await verifyBackup(location, { bucket })).toMatchObject({ problems: [], absent: [version.blob_key] });
  });
});
