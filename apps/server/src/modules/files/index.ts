/** Files: uploads, versions, downloads, and the jobs that tidy their bytes. */
export { filesRoutes } from './files.routes.ts';
export { deleteEndedUploads, findClientFacts, findVersion, recomputeAllUsage } from './files.repo.ts';
export { startUpload } from './start-upload.ts';
export { signParts } from './sign-parts.ts';
export { getUpload } from './upload-status.ts';
export { completeLinkUpload } from './complete-upload.ts';
export { abortLinkUploads, abortUpload } from './abort-upload.ts';
export { expireStaleUploads } from './expire-uploads.ts';
export { discardUploadBytes, visitorFolders, type LinkUploader } from './upload-common.ts';
export { pruneOldVersions } from './versions.service.ts';
export { uploadThrough, type ClientChecksum } from './upload-through.ts';
export { currentBytes, fileViewerUrl, signedFileUrl, signedPictureUrls, zipFolder, type DocumentMarkdown, type Zip } from './content.service.ts';
