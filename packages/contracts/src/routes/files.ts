import { defineAddressedRoute } from './define-route.ts';

/** Files' bytes: downloads, the viewer's signed URLs, thumbnails and zips. */
export const filesApi = {
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
  contentUrl: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/content-url',
    tag: 'files',
    summary: "Where a viewer reads a file's bytes (or an older version's): a short-lived signed URL that answers Range, with its expiry, size and type",
    auth: 'read',
    public: true,
    query: 'ZContentUrlQuery',
    responses: { 200: 'ZContentUrl' },
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
