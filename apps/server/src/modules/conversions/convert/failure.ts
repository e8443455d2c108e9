import { AppError } from '../../../errors.ts';

/** Why a file is not shown: the `details.reason` of an `unsupported_media_type` answer (see conversionsApi). */
export type NoPreviewReason = 'not_supported' | 'too_large' | 'damaged' | 'too_complex';

/** `unsupported_media_type` saying why, for the viewer to show with its Download button. */
export const noPreview = (reason: NoPreviewReason, message: string, details: Record<string, unknown> = {}) =>
  new AppError('unsupported_media_type', message, { reason, ...details });

export const damaged = (what: string) => noPreview('damaged', `This file cannot be shown: it is damaged, or it is not ${what}.`);
