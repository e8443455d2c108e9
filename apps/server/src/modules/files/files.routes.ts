import { filesApi, uploadsApi, versionsApi } from '@cabinet/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { getContent, getContentUrl, zipItems, type DocumentMarkdown, type Zip } from './content.service.ts';
import { deleteVersion, listVersions, nameVersion, restoreVersion } from './versions.service.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../infra/http/route.ts';
import { attachment } from '../../lib/content-disposition.ts';
import { abortUpload } from './abort-upload.ts';
import { completeUpload, completeUploads } from './complete-upload.ts';
import { signParts } from './sign-parts.ts';
import { startUpload, startUploads, startVersionUpload } from './start-upload.ts';
import { getUpload, listUploads } from './upload-status.ts';

/** One entry's error in a batch answer: the envelope's error, without the request's id. */
const entryError = (error: AppError) => ({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } });

function sendZip(reply: FastifyReply, zip: Zip) {
  return reply
    .header('content-type', 'application/zip')
    .header('content-length', zip.length)
    .header('content-disposition', attachment(zip.filename))
    .header('cache-control', 'no-store')
    .send(zip.stream);
}

/** `markdown`: a document's Markdown, for zips (documents come after files; the app hands it in). */
export async function filesRoutes(app: FastifyInstance, ctx: AppContext, markdown: DocumentMarkdown) {
  route(app, uploadsApi.start, async (req) => startUpload(ctx, requireActor(req), req.params.ws, req.body));
  route(app, uploadsApi.startMany, async (req) => ({
    results: (await startUploads(ctx, requireActor(req), req.params.ws, req.body.uploads)).map((o) => (o instanceof AppError ? entryError(o) : { upload: o })),
  }));
  route(app, uploadsApi.unfinished, async (req) => ({ items: await listUploads(ctx, requireActor(req), req.params.ws) }));
  route(app, uploadsApi.get, async (req) => getUpload(ctx, requireActor(req), req.params.id));
  route(app, uploadsApi.signParts, async (req) => ({ parts: await signParts(ctx, requireActor(req), req.params.id, req.body.partNumbers) }));
  route(app, uploadsApi.complete, async (req) => completeUpload(ctx, requireActor(req), req.params.id, req.body));
  route(app, uploadsApi.completeMany, async (req) => ({
    results: (await completeUploads(ctx, requireActor(req), req.body.uploads)).map((o) => (o instanceof AppError ? entryError(o) : o)),
  }));
  route(app, uploadsApi.abort, async (req) => {
    await abortUpload(ctx, requireActor(req), req.params.id);
  });

  route(app, versionsApi.list, async (req) => ({ items: await listVersions(ctx.db, requireActor(req), req.params.id) }));
  route(app, versionsApi.update, async (req) => nameVersion(ctx.db, requireActor(req), req.params.id, req.params.versionId, req.body.name));
  route(app, versionsApi.remove, async (req) => {
    await deleteVersion(ctx.db, requireActor(req), req.params.id, req.params.versionId);
  });
  route(app, versionsApi.restore, async (req) => restoreVersion(ctx.db, requireActor(req), req.params.id, req.params.versionId));
  route(app, versionsApi.start, async (req) => startVersionUpload(ctx, requireActor(req), req.params.id, req.body));
  route(app, filesApi.content, async (req, reply) => {
    const content = await getContent(
      ctx,
      requireActor(req),
      req.params.id,
      {
        versionId: req.query.version,
        download: req.query.download === '1',
        method: req.method === 'HEAD' ? 'HEAD' : 'GET',
      },
      markdown,
    );
    if ('url' in content) return reply.header('cache-control', 'no-store').redirect(content.url, 302);
    return sendZip(reply, content);
  });
  route(app, filesApi.contentUrl, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return getContentUrl(ctx, requireActor(req), req.params.id, req.query.version);
  });
  route(app, filesApi.zip, async (req, reply) => sendZip(reply, await zipItems(ctx, requireActor(req), req.params.ws, req.query.ids, markdown)));
}
