import { defineAddressedRoute } from './define-route.ts';

/** Files' versions and bytes. */
export const filesApi = {
  versions: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/versions',
    tag: 'files',
    summary: "A file's versions, newest first",
    auth: 'read',
    public: true,
    responses: { 200: 'ZFileVersionList' },
    errors: [],
  }),
  startVersion: defineAddressedRoute({
    method: 'POST',
    path: '/items/:id/versions',
    tag: 'files',
    summary: 'Start uploading a new version of a file',
    auth: 'write',
    public: true,
    body: 'ZStartVersionRequest',
    responses: { 201: 'ZStartedUpload' },
    errors: ['file_too_large', 'quota_exceeded', 'rate_limited', 'storage_unavailable'],
  }),
  content: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/content',
    tag: 'files',
    summary: "A file's bytes: a redirect to a short-lived signed URL (Range and HEAD work there); a folder streams as a zip",
    auth: 'read',
    public: true,
    query: 'ZContentQuery',
    produces: 'redirect-or-zip',
    errors: ['storage_unavailable'],
  }),
  thumbnail: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/thumbnail',
    tag: 'files',
    summary: "A file's thumbnail (WebP, fit inside 256 or 1024 px) for whoever may view it; `not_found` while there is none (pending, failed, unsupported)",
    description:
      "With `v` (the `preview.v` the item carries: a prefix of the bytes' SHA-256) the answer is cached for good (`immutable`); " +
      "a `v` that is not the version's answers `not_found`. A thumbnail evicted from the cache is made again when asked for.",
    auth: 'read',
    public: true,
    query: 'ZThumbnailQuery',
    produces: 'file',
    errors: [],
  }),
  zip: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws/zip',
    tag: 'files',
    summary: 'Several items as one zip, streamed (exact Content-Length, so the download shows progress)',
    auth: 'read',
    public: true,
    query: 'ZZipQuery',
    produces: 'redirect-or-zip',
    errors: ['storage_unavailable'],
  }),
};
