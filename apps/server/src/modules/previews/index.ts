// Thumbnails of files (ADR 0040): what the rest of the server may use.
export { previewsRoutes } from './previews.routes.ts';
export { previewsReader } from './previews.reader.ts';
export { evictPreviews, ffmpegAvailable } from './previews.service.ts';
export { sendThumbnail, thumbnailOf } from './thumbnails.ts';
export type { Thumbnail } from './thumbnails.ts';
