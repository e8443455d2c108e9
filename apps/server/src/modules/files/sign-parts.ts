import type { TSignedPart } from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { findOwnUpload, setUploadState } from './files.repo.ts';
import { ownerOf, requireOpen, signUrls, type Uploader } from './upload-common.ts';

/** Short-lived URLs to PUT parts to; each signing keeps the upload alive for another expiry period. */
export async function signParts(ctx: AppContext, actor: Uploader, id: string, partNumbers: number[]): Promise<TSignedPart[]> {
  const upload = requireOpen(await findOwnUpload(ctx.db, id, ownerOf(actor)));
  const outOfRange = partNumbers.filter((n) => n > upload.part_count);
  if (outOfRange.length) {
    throw new AppError('invalid_input', `This upload has parts 1 to ${upload.part_count}.`, {
      fields: [{ path: 'body.partNumbers', message: `${outOfRange.join(', ')} out of range` }],
    });
  }
  // Activity keeps the upload alive; refreshing its expiry once a minute is plenty.
  const expiresAt = new Date(Date.now() + ctx.env.UPLOAD_EXPIRY_HOURS * 3_600_000);
  if (upload.state !== 'uploading' || expiresAt.getTime() - upload.expires_at.getTime() > 60_000)
    await setUploadState(ctx.db, upload.id, { state: 'uploading', expiresAt });
  return signUrls(ctx.storage, upload, partNumbers);
}
