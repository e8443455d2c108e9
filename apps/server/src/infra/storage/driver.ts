import type { Readable } from 'node:stream';

/** A part the storage holds for a multipart upload. */
export interface StoredPart {
  partNumber: number;
  etag: string;
  size: number;
}

/** A request the browser makes itself, straight to the storage, on a short-lived signed URL. */
export interface SignedRequest {
  method: 'PUT' | 'GET';
  url: string;
  expiresAt: Date;
}

export interface DownloadOptions {
  ttlSeconds: number;
  filename: string;
  contentType: string;
  /** `inline` only for types on the safe-inline list; everything else downloads as an attachment. */
  disposition: 'inline' | 'attachment';
  /** A presigned URL is good for one method: HEAD needs its own. Default GET. */
  method?: 'GET' | 'HEAD';
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP. */
  end: number;
}

/**
 * Where file bytes live: local disk by default, any S3-compatible bucket when configured.
 * Every driver speaks the S3 multipart protocol, so the browser uploads the same way to both.
 * Keys are opaque and never change: renaming or moving an item never touches its bytes.
 */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  /** Where the browser sends signed requests, when that is not Cabinet itself (the page's CSP allows it). */
  readonly browserOrigin: string | undefined;
  /** Resolves when the storage can be reached and written to; rejects with the reason otherwise. */
  check(): Promise<void>;
  createMultipart(key: string, contentType: string): Promise<string>;
  /**
   * A URL to PUT one part of exactly `size` bytes to: the storage refuses a body of any other
   * length, and stops reading at the first byte over. `onlyPart`: the part is the whole object (a
   * one-part upload), so a driver that sees the bytes may hash them on the way and spare completion a read.
   */
  signPart(key: string, uploadId: string, partNumber: number, size: number, ttlSeconds: number, options?: { onlyPart?: boolean }): Promise<SignedRequest>;
  /**
   * Writes one part of exactly `length` bytes from a stream, when the bytes come through Cabinet (local disk's signed
   * part URLs, a WebDAV client's PUT): a body of another length is refused (`invalid_input`) and leaves no part; reading
   * stops at the first byte over. `hash`: the part is the whole object, hashed on the way where the driver can keep it.
   */
  writePart(key: string, uploadId: string, partNumber: number, length: number, body: Readable, options?: { hash?: boolean }): Promise<StoredPart>;
  /** Every part received so far, in part order. An unknown or aborted upload is `upload_expired`. */
  listParts(key: string, uploadId: string): Promise<StoredPart[]>;
  /**
   * Joins the parts into the object at `key`; returns its size, and its SHA-256 when the driver
   * saw every byte on the way (local disk does; a bucket does not, so the caller reads it back).
   */
  completeMultipart(key: string, uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<{ size: number; sha256?: string }>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /**
   * Writes a small object whole (a preview), replacing any object at `key`. All or nothing: a
   * write cut short leaves no object, or the one before, never part of the bytes.
   */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Writes an object of `size` bytes from a stream (moving storage: `cabinet storage migrate`), hashing it on the way:
   * it appears at `key` only when every byte came and `accept` takes their SHA-256, whole or not at all; otherwise the
   * call fails with `checksum_mismatch` and nothing is left.
   */
  writeObject(key: string, body: Readable, size: number, contentType: string, accept: (sha256: string) => boolean): Promise<void>;
  signDownload(key: string, options: DownloadOptions): Promise<string>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
  /** Every whole object, with its size and when it was written, in no set order (checking storage: `cabinet storage verify`). */
  list(): AsyncIterable<{ key: string; size: number; modifiedAt: Date }>;
}
