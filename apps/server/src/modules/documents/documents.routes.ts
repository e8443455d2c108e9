import { MAX_IMPORT_BYTES, ZExportQuery, ZIdParams, ZImportQuery, ZItem, ZRevision, ZRevisionDetail, ZRevisionPage, ZRevisionParams, ZRevisionsQuery, ZWorkspaceParams } from '@cabinet/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { attachment } from '../../lib/content-disposition.ts';
import { requireActor } from '../auth/actor.ts';
import { exportDocument, getRevision, importDocument, listRevisions, restoreRevision, type LiveDocuments } from './documents.service.ts';

export async function documentsRoutes(app: FastifyInstance, ctx: AppContext, live: LiveDocuments) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/items/:id/export',
    { schema: { tags: ['documents'], summary: 'Download a document as Markdown, HTML or PDF', params: ZIdParams, querystring: ZExportQuery } },
    async (req, reply) => {
      const file = await exportDocument(ctx, requireActor(req), req.params.id, req.query.format, live);
      return reply.header('content-type', file.contentType).header('content-disposition', attachment(file.filename)).header('cache-control', 'no-store').send(file.body);
    },
  );
  r.get(
    '/items/:id/revisions',
    { schema: { tags: ['documents'], summary: "A document's revisions, newest first", params: ZIdParams, querystring: ZRevisionsQuery, response: { 200: ZRevisionPage } } },
    async (req) => listRevisions(ctx.db, requireActor(req), req.params.id, req.query),
  );
  r.get(
    '/items/:id/revisions/:revisionId',
    { schema: { tags: ['documents'], summary: 'One revision with its content (ProseMirror JSON)', params: ZRevisionParams, response: { 200: ZRevisionDetail } } },
    async (req) => getRevision(ctx.db, requireActor(req), req.params.id, req.params.revisionId),
  );
  r.post(
    '/items/:id/revisions/:revisionId/restore',
    { schema: { tags: ['documents'], summary: 'Make the document what it was at a revision (managers); the restore is a new revision', params: ZRevisionParams, response: { 201: ZRevision } } },
    async (req, reply) => reply.code(201).send(await restoreRevision(ctx.db, requireActor(req), req.params.id, req.params.revisionId, live)),
  );
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
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/workspaces/:ws/documents/import',
      {
        schema: {
          tags: ['documents'],
          summary: 'Make a new document from a Markdown (.md), HTML (.html) or Word (.docx) file sent as the body',
          params: ZWorkspaceParams,
          querystring: ZImportQuery,
          response: { 201: ZItem },
        },
      },
      async (req, reply) => {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        return reply.code(201).send(await importDocument(ctx, requireActor(req), req.params.ws, req.query, body));
      },
    );
  });
}
