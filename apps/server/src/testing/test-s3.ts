import { CreateBucketCommand, PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { s3Client } from '../infra/storage/s3.ts';

/**
 * The S3 settings of the test S3 server, when one is running: `.ci/run` starts Ceph's RADOS
 * Gateway with shared/scripts/s3-server and passes its settings as TEST_S3_*.
 */
export function testS3Settings(): Record<string, string> | undefined {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  if (!endpoint) return undefined;
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: endpoint,
    S3_REGION: process.env.TEST_S3_REGION ?? 'us-east-1',
    S3_ACCESS_KEY_ID: process.env.TEST_S3_ACCESS_KEY_ID!,
    S3_SECRET_ACCESS_KEY: process.env.TEST_S3_SECRET_ACCESS_KEY!,
    S3_FORCE_PATH_STYLE: process.env.TEST_S3_FORCE_PATH_STYLE ?? 'true',
  };
}

/** A storage driver a suite runs on: its name and its settings. */
export type StorageDriver = [name: string, settings: Record<string, string>];

/**
 * The storage drivers a suite runs on: local disk, and S3 when the test server runs. On PostgreSQL a suite runs on local
 * disk alone: what the database is asked is the same wherever the bytes are, and the suite's S3 run is on PGlite.
 */
export function storageDrivers(): StorageDriver[] {
  const s3 = testS3Settings();
  return [['local disk', { STORAGE_DRIVER: 'local' }], ...(s3 && process.env.TEST_DATABASE !== 'postgres' ? [['S3', s3] as StorageDriver] : [])];
}

/** A driver's settings for an app on `port`: on S3 with a bucket of its own, open to the browser's PUTs from the app's origin. */
export async function storageSettings(driver: Record<string, string>, port: number): Promise<Record<string, string>> {
  if (driver.STORAGE_DRIVER !== 's3') return { ...driver };
  return { ...driver, S3_BUCKET: await createTestBucket(driver, `http://127.0.0.1:${port}`) };
}

/** A new bucket for one test file, open to the browser's PUTs from `origin`. */
async function createTestBucket(settings: Record<string, string>, origin: string): Promise<string> {
  const bucket = `cabinet-test-${randomBytes(5).toString('hex')}`;
  const client = s3Client({
    endpoint: settings.S3_ENDPOINT,
    region: settings.S3_REGION!,
    bucket,
    accessKeyId: settings.S3_ACCESS_KEY_ID!,
    secretAccessKey: settings.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE === 'true',
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  await client.send(
    new PutBucketCorsCommand({
      Bucket: bucket,
      CORSConfiguration: {
        CORSRules: [
          {
            AllowedOrigins: [origin],
            AllowedMethods: ['PUT', 'GET', 'HEAD'],
            AllowedHeaders: ['*'],
            ExposeHeaders: ['ETag', 'Content-Range', 'Content-Length', 'Accept-Ranges'],
            MaxAgeSeconds: 3600,
          },
        ],
      },
    }),
  );
  client.destroy();
  return bucket;
}
