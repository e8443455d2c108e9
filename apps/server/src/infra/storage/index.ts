import path from 'node:path';
import type { Env } from '../../env.ts';
import { deriveKey } from '../../lib/crypto.ts';
import type { StorageDriver } from './driver.ts';
import { localStorage } from './local.ts';
import { bucketOrigin, type S3Settings } from './s3-settings.ts';

export type { StorageDriver } from './driver.ts';
export { countingFailures } from './counted.ts';

export function createStorage(env: Env): StorageDriver {
  if (env.STORAGE_DRIVER === 's3') {
    return onS3({
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

/**
 * The S3 driver, its SDK loaded at its first call: a server or a command whose bytes are on local disk never loads it
 * (it is a tenth of a second of every start).
 */
function onS3(settings: S3Settings): StorageDriver {
  let loading: Promise<StorageDriver> | undefined;
  const driver = () => (loading ??= import('./s3.ts').then((s3) => s3.s3Storage(settings)));
  return {
    kind: 's3',
    browserOrigin: bucketOrigin(settings),
    check: async () => (await driver()).check(),
    createMultipart: async (...a) => (await driver()).createMultipart(...a),
    signPart: async (...a) => (await driver()).signPart(...a),
    writePart: async (...a) => (await driver()).writePart(...a),
    listParts: async (...a) => (await driver()).listParts(...a),
    completeMultipart: async (...a) => (await driver()).completeMultipart(...a),
    abortMultipart: async (...a) => (await driver()).abortMultipart(...a),
    put: async (...a) => (await driver()).put(...a),
    writeObject: async (...a) => (await driver()).writeObject(...a),
    signDownload: async (...a) => (await driver()).signDownload(...a),
    read: async (...a) => (await driver()).read(...a),
    stat: async (...a) => (await driver()).stat(...a),
    delete: async (...a) => (await driver()).delete(...a),
    async *list() {
      yield* (await driver()).list();
    },
  };
}
