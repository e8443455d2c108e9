import path from 'node:path';
import type { Env } from '../../env.ts';
import { deriveKey } from '../../lib/crypto.ts';
import type { StorageDriver } from './driver.ts';
import { localStorage } from './local.ts';
import { s3Storage } from './s3.ts';

export type { StorageDriver } from './driver.ts';
export { countingFailures } from './counted.ts';

export function createStorage(env: Env): StorageDriver {
  if (env.STORAGE_DRIVER === 's3') {
    return s3Storage({
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      bucket: env.S3_BUCKET!,
      accessKeyId: env.S3_ACCESS_KEY_ID!,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    });
  }
  return localStorage(
    path.join(env.DATA_DIR, 'blobs'),
    env.PUBLIC_URL,
    deriveKey(env.SESSION_SECRET, 'local-storage-urls').toString('base64url'),
    env.USER_CONTENT_URL,
  );
}
