import type { TUpload, TUploadStatus } from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { getWorkspace } from '../workspaces/index.ts';
import { findActiveUploads, findOwnUpload } from './files.repo.ts';
import { ownerOf, presentUpload, type Uploader } from './upload-common.ts';

/** An upload and, while it is open, the parts the storage already holds (what a resumed upload skips). */
export async function getUpload(ctx: AppContext, actor: Uploader, id: string): Promise<TUploadStatus> {
  const upload = await findOwnUpload(ctx.db, id, ownerOf(actor));
  if (!upload) throw new AppError('not_found');
  const open = upload.state === 'created' || upload.state === 'uploading';
  const parts = open
    ? await ctx.storage.listParts(upload.blob_key, upload.storage_upload_id).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'upload_expired') return [];
        throw error;
      })
    : [];
  return { ...presentUpload(upload), parts };
}

/** The person's unfinished uploads in a workspace, which a reloaded page offers to resume. */
export async function listUploads(ctx: AppContext, actor: Actor, workspaceIdOrSlug: string): Promise<TUpload[]> {
  const workspace = await getWorkspace(ctx.db, actor.user, workspaceIdOrSlug);
  return (await findActiveUploads(ctx.db, actor.user.id, workspace.id)).map(presentUpload);
}
