/** Files: uploads, versions, downloads, and the jobs that tidy their bytes. */
export { filesRoutes } from './files.routes.ts';
export { deleteEndedUploads, findVersion, recomputeAllUsage } from './files.repo.ts';
export {
  abortLinkUploads,
  abortUpload,
  completeLinkUpload,
  discardUploadBytes,
  expireStaleUploads,
  getUpload,
  signParts,
  startUpload,
  type LinkUploader,
} from './uploads.service.ts';
export { signedFileUrl, signedPictureUrls, zipFolder, type Zip } from './content.service.ts';
