import { publicLinksApi } from '@cabinet/contracts';
import { ApiError, call } from '../../../lib/api-client.ts';
import { formatBytes } from '../../../lib/format.ts';
import type { UploadTransport } from '../../uploads/uploader/transport.ts';

/**
 * A file request's visitor uploads through the link's own routes (ADR 0035), with the app's
 * protocol. Errors are said for someone without an account; when the link itself stops answering
 * (it ended, its password changed, its folder went), `onLinkLost` lets the page find out and say so.
 */
export function linkTransport(token: string, o: { maxFileSize: number | null; onLinkLost: () => void }): UploadTransport {
  const guarded = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The page asks the link again: if it still works nothing changes, else it says why it does not.
      if (['link_expired', 'link_password_required', 'not_found'].includes(error.code)) o.onLinkLost();
      if (error.code === 'quota_exceeded' && error.details?.limit === 'link') {
        const left = Number(error.details.remainingBytes) || 0;
        throw new ApiError(
          error.status,
          error.code,
          `This file is more than this request still takes (${formatBytes(left)} left of what it takes in all). Tell the person who asked for it.`,
          error.details,
        );
      }
      if (error.code === 'quota_exceeded')
        throw new ApiError(error.status, error.code, 'There is no room left for this file. Tell the person who asked for it.');
      if (error.code === 'file_too_large')
        throw new ApiError(error.status, error.code, `This file is too large: this link takes files up to ${formatBytes(o.maxFileSize ?? 0)}.`);
      throw error;
    }
  };
  const at = (uploadId: string) => ({ token, uploadId });
  return {
    start: (_workspaceId, body) =>
      guarded(() =>
        call(publicLinksApi.startUpload, {
          params: { token },
          body: { name: body.name, size: body.size, parentId: body.parentId, ...(body.mimeType ? { mimeType: body.mimeType } : {}) },
        }),
      ),
    status: (id) => guarded(() => call(publicLinksApi.upload, { params: at(id) })),
    signParts: (id, partNumbers) => guarded(async () => (await call(publicLinksApi.signParts, { params: at(id), body: { partNumbers } })).parts),
    // The visitor is told of their upload only, never of the file it made.
    complete: (id, body) =>
      guarded(async () => {
        await call(publicLinksApi.completeUpload, { params: at(id), body: { sha256: body.sha256 } });
        return {};
      }),
    abort: (id) => guarded(() => call(publicLinksApi.abortUpload, { params: at(id) })),
    // A folder sent through the link: always a new folder, whose id alone comes back.
    createFolder: (parentId, name) => guarded(async () => (await call(publicLinksApi.createFolder, { params: { token }, body: { name, parentId } })).id),
  };
}
