import { z } from 'zod';
import { ZId, ZIsoTime } from './common.ts';
import { ZErrorEnvelope } from './errors.ts';
import { ZItem, ZItemName } from './items.ts';

export const ZSha256 = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'A SHA-256 is 64 hexadecimal characters')
  .transform((s) => s.toLowerCase());

export const ZMimeType = z
  .string()
  .max(255)
  .regex(/^[\w.+-]+\/[\w.+-]+$/, 'A media type looks like type/subtype');

/**
 * What to do when the folder already holds an active item with the name:
 * `fail` answers `name_conflict` (with a suggested name), `keep_both` takes a free name,
 * `replace` makes the upload a new version of that file.
 */
export const ZOnConflict = z.enum(['fail', 'keep_both', 'replace']);
export type TOnConflict = z.infer<typeof ZOnConflict>;

export const ZStartUploadRequest = z.object({
  parentId: ZId,
  name: ZItemName,
  size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  mimeType: ZMimeType.optional(),
  /** Optional: when given now, the bytes are checked against it on completion. */
  sha256: ZSha256.optional(),
  onConflict: ZOnConflict.default('fail'),
});
export type TStartUploadRequest = z.input<typeof ZStartUploadRequest>;

/** A new version of an existing file: POST /items/:id/versions. */
export const ZStartVersionRequest = ZStartUploadRequest.omit({ parentId: true, name: true, onConflict: true });
export type TStartVersionRequest = z.input<typeof ZStartVersionRequest>;

export const ZUploadState = z.enum(['created', 'uploading', 'completed', 'aborted', 'expired', 'failed']);

export const ZUploadPart = z.object({ partNumber: z.number().int(), etag: z.string(), size: z.number().int() });

export const ZUpload = z.object({
  id: ZId,
  workspaceId: ZId,
  parentId: ZId,
  /** The file this upload adds a version to, if it does. */
  itemId: ZId.nullable(),
  name: z.string(),
  size: z.number().int(),
  mimeType: z.string(),
  sha256: z.string().nullable(),
  onConflict: ZOnConflict,
  partSize: z.number().int(),
  partCount: z.number().int(),
  state: ZUploadState,
  expiresAt: ZIsoTime,
  createdAt: ZIsoTime,
  /** The file that appeared when the upload completed. */
  resultItemId: ZId.nullable(),
});
export type TUpload = z.infer<typeof ZUpload>;

/** An upload with the parts the storage already holds: what a resumed upload skips. */
export const ZUploadStatus = ZUpload.extend({ parts: z.array(ZUploadPart) });
export type TUploadStatus = z.infer<typeof ZUploadStatus>;

export const ZSignPartsRequest = z.object({
  partNumbers: z.array(z.number().int().min(1).max(10_000)).min(1).max(100),
});

export const ZSignedPart = z.object({ partNumber: z.number().int(), method: z.literal('PUT'), url: z.string(), expiresAt: ZIsoTime });
export const ZSignPartsResponse = z.object({ parts: z.array(ZSignedPart) });
export type TSignedPart = z.infer<typeof ZSignedPart>;

/**
 * The workspace already holds a file's bytes (same SHA-256 and size, given at the start): the
 * uploader may complete without sending them by proving it holds them — the SHA-256 of the nonce's
 * bytes followed by these ranges of the file (ends inclusive), sent as `proof` on completion.
 */
export const ZDedupChallenge = z.object({
  nonce: z.string(),
  ranges: z.array(z.object({ start: z.number().int(), end: z.number().int() })),
});
export type TDedupChallenge = z.infer<typeof ZDedupChallenge>;

/**
 * A started upload comes with URLs for its first parts already signed (all of them for a small
 * file), and a dedup challenge when the workspace already holds its bytes.
 */
export const ZStartedUpload = ZUpload.extend({ parts: z.array(ZSignedPart), dedup: ZDedupChallenge.optional() });
export type TStartedUpload = z.infer<typeof ZStartedUpload>;

export const ZCompleteUploadRequest = z.object({
  /** The SHA-256 the browser computed while reading the file; checked against the stored bytes. */
  sha256: ZSha256.optional(),
  /** What to do when a sibling took the name meanwhile. */
  onConflict: ZOnConflict.optional(),
  /** The answer to the start's `dedup` challenge: with it, no part need be sent (the workspace's copy is reused). */
  proof: ZSha256.optional(),
});

export const ZCompleteUploadResponse = z.object({ upload: ZUpload, item: ZItem });

export const ZFileVersion = z.object({
  id: ZId,
  itemId: ZId,
  number: z.number().int(),
  size: z.number().int(),
  sha256: z.string(),
  mimeType: z.string(),
  authorId: ZId.nullable(),
  /** The author's display name (null once they are gone). */
  authorName: z.string().nullable(),
  /** A person's name for the version; a named version is pinned: kept for ever. */
  name: z.string().nullable(),
  pinned: z.boolean(),
  current: z.boolean(),
  createdAt: ZIsoTime,
});
export type TFileVersion = z.infer<typeof ZFileVersion>;

/** `/items/:id/versions/:versionId`. */
export const ZVersionParams = z.object({ id: ZId, versionId: ZId });

/** `PATCH /items/:id/versions/:versionId`: name it (pinned, kept for ever), or `null` to clear the name. */
export const ZUpdateVersionRequest = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'A version name needs at least one character')
    .max(200, 'A version name is at most 200 characters')
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'A version name has no control characters')
    .nullable(),
});

/** What a restore made: the file, and its new current version (the old one's bytes). */
export const ZRestoredVersion = z.object({ item: ZItem, version: ZFileVersion });
export type TCompleteUploadResult = z.infer<typeof ZCompleteUploadResponse>;
export const ZFileVersionList = z.object({ items: z.array(ZFileVersion) });
export const ZUploadList = z.object({ items: z.array(ZUpload) });

/** `GET /items/:id/content`: a version other than the current one, and `download=1` for an attachment. */
/** `GET /items/:id/thumbnail`: the size, the version (default the current one), and `v` the bytes' hash prefix the item carries (cache key). */
export const ZThumbnailQuery = z.object({
  size: z.enum(['256', '1024']).default('256'),
  version: z.uuid().optional(),
  v: z
    .string()
    .regex(/^[0-9a-f]{8,64}$/)
    .optional(),
});
export const ZLinkThumbnailQuery = ZThumbnailQuery.omit({ version: true });

export const ZContentQuery = z.object({ version: z.uuid().optional(), download: z.enum(['0', '1']).optional() });
/** `GET /items/:id/content-url`: a version other than the current one. */
export const ZContentUrlQuery = z.object({ version: z.uuid().optional() });
/**
 * `GET …/content-url`: where a viewer reads a file's bytes — a short-lived signed URL that answers
 * `Range` (fetch it again after `expiresAt`), with the size and type of the bytes behind it.
 */
export const ZContentUrl = z.object({ url: z.string(), expiresAt: ZIsoTime, size: z.number().int(), mimeType: z.string() });
export type TContentUrl = z.infer<typeof ZContentUrl>;
/** `GET /workspaces/:ws/zip?ids=a,b,c`: the items to put in one zip. */
export const ZZipQuery = z.object({
  ids: z
    .string()
    .transform((s) => s.split(','))
    .pipe(z.array(z.uuid()).min(1).max(1000)),
});

/**
 * Many uploads in one call, for many small files (a folder of them): each entry starts or
 * completes as its single-file call would, and answers for itself — a result, or the error its
 * own call would have given — in the order asked.
 */
export const UPLOAD_BATCH_MAX = 100;
const ZEntryError = ZErrorEnvelope.shape.error.omit({ requestId: true });
export type TUploadEntryError = z.infer<typeof ZEntryError>;

export const ZStartUploadsRequest = z.object({ uploads: z.array(ZStartUploadRequest).min(1).max(UPLOAD_BATCH_MAX) });
export type TStartUploadsRequest = z.input<typeof ZStartUploadsRequest>;
export const ZStartUploadsResponse = z.object({ results: z.array(z.union([z.object({ upload: ZStartedUpload }), z.object({ error: ZEntryError })])) });
export type TStartUploadsResponse = z.infer<typeof ZStartUploadsResponse>;

export const ZCompleteUploadsRequest = z.object({
  uploads: z
    .array(ZCompleteUploadRequest.extend({ id: ZId }))
    .min(1)
    .max(UPLOAD_BATCH_MAX),
});
export type TCompleteUploadsRequest = z.input<typeof ZCompleteUploadsRequest>;
export const ZCompleteUploadsResponse = z.object({ results: z.array(z.union([ZCompleteUploadResponse, z.object({ error: ZEntryError })])) });
export type TCompleteUploadsResponse = z.infer<typeof ZCompleteUploadsResponse>;
