import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { claimLinkUploads, findOwnUpload } from './files.repo.ts';
import { endUpload, ownerOf, type Uploader } from './upload-common.ts';

/** Cancels an open upload: its reserved room is free at once and its bytes go. An upload already ended is left as it is. */
export async function abortUpload(ctx: AppContext, actor: Uploader, id: string): Promise<void> {
  const upload = await findOwnUpload(ctx.db, id, ownerOf(actor));
  if (!upload) throw new AppError('not_found');
  if (upload.state === 'completed') throw new AppError('invalid_input', 'This upload is already complete; move the file to the trash instead.');
  if (upload.state !== 'created' && upload.state !== 'uploading') return;
  await inTransaction(ctx.db, (tx) => endUpload(tx, upload, { state: 'aborted' }));
}

/**
 * Ends the open uploads of a link, in the caller's transaction (the link was revoked): their
 * reserved room is free at once, their bytes go, and none of them can complete any more.
 */
export async function abortLinkUploads(db: Db, linkId: string): Promise<void> {
  for (const upload of await claimLinkUploads(db, linkId)) await endUpload(db, upload, { state: 'aborted' });
}
