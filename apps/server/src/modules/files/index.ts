/** Files: uploads, versions, downloads, and the jobs that tidy their bytes. */
export { filesRoutes } from './files.routes.ts';
export { deleteEndedUploads, findVersion, recomputeAllUsage } from './files.repo.ts';
export { discardUploadBytes, expireStaleUploads } from './uploads.service.ts';
export { signedFileUrl, zipFolder, type Zip } from './content.service.ts';
