import { AppError } from '../../../errors.ts';
import type { ZipLimits } from '../../../lib/bounded-zip.ts';

const MiB = 1024 * 1024;

/** Why a file is not shown: the `details.reason` of an `unsupported_media_type` answer (see conversionsApi). */
export type NoPreviewReason = 'not_supported' | 'too_large' | 'damaged' | 'too_complex';

/** `unsupported_media_type` saying why, for the viewer to show with its Download button. */
export const noPreview = (reason: NoPreviewReason, message: string, details: Record<string, unknown> = {}) =>
  new AppError('unsupported_media_type', message, { reason, ...details });

export const damaged = (what: string) => noPreview('damaged', `This file cannot be shown: it is damaged, or it is not ${what}.`);

/** An office file's zip read for the viewer: within `maxUnpacked` bytes, refused in the viewer's words. */
export const zipLimits = (what: string, maxUnpacked: number): ZipLimits => ({
  maxUnpacked,
  notZip: () => noPreview('damaged', `This file cannot be shown: it is not ${what}.`),
  damaged: () => damaged(what),
  tooLarge: () => noPreview('too_complex', `This file cannot be shown: it unpacks to more than ${maxUnpacked / MiB} MiB.`),
});
