import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.ts';
import type { StorageDriver, StoredPart } from './driver.ts';
import { bucketOrigin, type S3Settings } from './s3-settings.ts';
import { partLengthRefused, storageError } from './storage-errors.ts';

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Browsers cannot satisfy the SDK's default checksums on presigned requests.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

const isMissingUpload = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchUpload' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/** Wraps a call so an unreachable or failing storage answers `storage_unavailable`. */
async function guard<T>(call: () => Promise<T>, onMissing?: () => T | never): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (onMissing && isMissingUpload(error)) return onMissing();
    throw storageError(error);
  }
}

const uploadExpired = (): never => {
  throw new AppError('upload_expired');
};

/** The parts of an object Cabinet writes to the bucket itself (moving storage): 8 MiB, larger for a file that needs it. */
const MOVE_PART_SIZE = 8 * 1024 * 1024;

export function s3Storage(settings: S3Settings): StorageDriver {
  const client = s3Client(settings);
  const Bucket = settings.bucket;
  return {
    kind: 's3',
    browserOrigin: bucketOrigin(settings),

    async check() {
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(5_000) });
    },

    async createMultipart(key, contentType) {
      const res = await guard(() => client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType })));
      return res.UploadId!;
    },

    async signPart(key, uploadId, partNumber, size, ttlSeconds) {
      // The length is signed as a header: the bucket refuses a body of any other length.
      const url = await getSignedUrl(client, new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, ContentLength: size }), {
        expiresIn: ttlSeconds,
        signableHeaders: new Set(['content-length']),
      });
      return { method: 'PUT', url, expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
    },

    async writePart(key, uploadId, partNumber, length, body) {
      // Held whole (a part is the upload's part size, 8 MiB by default) and sent once its length is known to be right:
      // a stream that ends short would leave the bucket waiting for bytes that never come.
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > length) throw partLengthRefused(length);
        chunks.push(chunk);
      }
      if (size !== length) throw partLengthRefused(length);
      const Body = Buffer.concat(chunks, size);
      const res = await guard(() =>
        client.send(new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body, ContentLength: size })),
      );
      return { partNumber, etag: res.ETag ?? '', size };
    },

    async listParts(key, uploadId) {
      const parts: StoredPart[] = [];
      let marker: string | undefined;
      // ListParts answers at most 1,000 parts a page.
      for (;;) {
        const page = await guard(
          () => client.send(new ListPartsCommand({ Bucket, Key: key, UploadId: uploadId, ...(marker ? { PartNumberMarker: marker } : {}) })),
          uploadExpired,
        );
        for (const p of page.Parts ?? []) parts.push({ partNumber: p.PartNumber!, etag: (p.ETag ?? '').replace(/"/g, ''), size: p.Size ?? 0 });
        if (!page.IsTruncated) return parts;
        marker = page.NextPartNumberMarker;
      }
    },

    async completeMultipart(key, uploadId, parts) {
      await guard(
        () =>
          client.send(
            new CompleteMultipartUploadCommand({
              Bucket,
              Key: key,
              UploadId: uploadId,
              MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: `"${p.etag.replace(/"/g, '')}"` })) },
            }),
          ),
        uploadExpired,
      );
      const head = await guard(() => client.send(new HeadObjectCommand({ Bucket, Key: key })));
      return { size: head.ContentLength ?? 0 };
    },

    async abortMultipart(key, uploadId) {
      await guard(
        () => client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })),
        () => undefined,
      );
    },

    async writeObject(key, body, size, contentType, accept) {
      const hash = createHash('sha256');
      const mismatch = () => new AppError('checksum_mismatch', `The bytes read for ${key} are not the ones recorded.`);
      // Parts of at least 8 MiB, larger for a file that would need more than S3's 10,000.
      const partSize = Math.max(MOVE_PART_SIZE, Math.ceil(size / 10_000));
      const chunks: Buffer[] = [];
      let held = 0;
      const take = () => {
        const part = Buffer.concat(chunks, held);
        chunks.length = 0;
        held = 0;
        return part;
      };
      if (size <= partSize) {
        // One request, made only once the bytes are known to be the recorded ones: nothing is left behind if stopped.
        for await (const chunk of body as AsyncIterable<Buffer>) {
          hash.update(chunk);
          chunks.push(chunk);
          held += chunk.byteLength;
          if (held > size) throw mismatch();
        }
        if (held !== size || !accept(hash.digest('hex'))) throw mismatch();
        const Body = take();
        await guard(() => client.send(new PutObjectCommand({ Bucket, Key: key, Body, ContentType: contentType, ContentLength: Body.byteLength })));
        return;
      }
      // A multipart upload, completed only once every byte came and matched (a stopped one is never an object: the
      // bucket's lifecycle rule for incomplete uploads clears it).
      const uploadId = await this.createMultipart(key, contentType);
      try {
        const parts: { partNumber: number; etag: string }[] = [];
        let sent = 0;
        const send = async () => {
          const Body = take();
          const PartNumber = parts.length + 1;
          const res = await guard(() =>
            client.send(new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body, ContentLength: Body.byteLength })),
          );
          parts.push({ partNumber: PartNumber, etag: res.ETag ?? '' });
          sent += Body.byteLength;
        };
        for await (const chunk of body as AsyncIterable<Buffer>) {
          hash.update(chunk);
          chunks.push(chunk);
          held += chunk.byteLength;
          if (held >= partSize) await send();
        }
        if (held > 0) await send();
        if (sent !== size || !accept(hash.digest('hex'))) throw mismatch();
        await this.completeMultipart(key, uploadId, parts);
      } catch (error) {
        await this.abortMultipart(key, uploadId).catch(() => {});
        throw error;
      }
    },

    async put(key, bytes, contentType) {
      // S3 makes an object visible only once all of it has arrived.
      await guard(() => client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.byteLength })));
    },

    async signDownload(key, o) {
      const input = {
        Bucket,
        Key: key,
        ResponseContentDisposition: `${o.disposition}; filename*=UTF-8''${encodeURIComponent(o.filename)}`,
        ResponseContentType: o.contentType,
      };
      const command = o.method === 'HEAD' ? new HeadObjectCommand(input) : new GetObjectCommand(input);
      return getSignedUrl(client, command, { expiresIn: o.ttlSeconds });
    },

    async read(key, range) {
      const res = await guard(
        () => client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) })),
        () => {
          throw new AppError('not_found');
        },
      );
      return res.Body as Readable;
    },

    async stat(key) {
      const head = await guard(
        () => client.send(new HeadObjectCommand({ Bucket, Key: key })),
        () => null,
      );
      return head ? { size: head.ContentLength ?? 0 } : null;
    },

    async delete(key) {
      await guard(() => client.send(new DeleteObjectCommand({ Bucket, Key: key })));
    },

    async *list() {
      let token: string | undefined;
      do {
        const page = await guard(() => client.send(new ListObjectsV2Command({ Bucket, ...(token ? { ContinuationToken: token } : {}) })));
        for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key, size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
