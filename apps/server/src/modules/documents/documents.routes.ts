import { documentsApi, MAX_IMPORT_BYTES } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../infra/http/route.ts';
import { attachment } from '../../lib/content-disposition.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { exportDocument, getRevision, importDocument, listRevisions, restoreRevision, type LiveDocuments } from './documents.service.ts';

export async function documentsRoutes(app: FastifyInstance, ctx: AppContext, live: LiveDocuments) {
  route(app, documentsApi.export, async (req, reply) => {
    const file = await exportDocument(ctx, requireActor(req), req.params.id, req.query.format, live);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', attachment(file.filename))
      .header('cache-control', 'no-store')
      .send(file.body);
  });
  route(app, documentsApi.revisions, async (req) => listRevisions(ctx.db, requireActor(req), req.params.id, req.query));
  route(app, documentsApi.revision, async (req) => getRevision(ctx.db, requireActor(req), req.params.id, req.params.revisionId));
  route(app, documentsApi.restoreRevision, async (req) => restoreRevision(ctx.db, requireActor(req), req.params.id, req.params.revisionId, live));
  await app.register(async (scope) => {
    // The body is the file itself, whatever its type; it is read into memory up to the import limit.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (error: Error | null, body?: Buffer) => {
        if (settled) return;
        settled = true;
        done(error, body);
      };
      // Past the limit the rest is read and dropped: closing mid-body would leave the sender with a broken connection instead of the answer.
      payload.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_IMPORT_BYTES) chunks.push(chunk);
      });
      payload.on('end', () => {
        if (size > MAX_IMPORT_BYTES) finish(new AppError('file_too_large', `A file to import can be at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB.`));
        else finish(null, Buffer.concat(chunks));
      });
      payload.on('error', (error) => finish(error));
      // A sender that gave up (a cancelled import) leaves no body to read: nothing is made of it.
      payload.on('close', () => finish(new AppError('invalid_input', 'The file did not arrive whole.')));
    });
    route(scope, documentsApi.import, async (req) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return importDocument(ctx, requireActor(req), req.params.ws, req.query, body);
    });
  });
}
