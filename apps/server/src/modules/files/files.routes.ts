import {
  ZCompleteUploadRequest,
  ZCompleteUploadResponse,
  ZCompleteUploadsRequest,
  ZCompleteUploadsResponse,
  ZFileVersion,
  ZIdParams,
  ZOnConflict,
  ZSignPartsRequest,
  ZSignPartsResponse,
  ZStartedUpload,
  ZStartUploadRequest,
  ZStartUploadsRequest,
  ZStartUploadsResponse,
  ZStartVersionRequest,
  ZUpload,
  ZUploadStatus,
  ZWorkspaceParams,
} from '@cabinet/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../auth/actor.ts';
import { getContent, listVersions, zipItems, type Zip } from './content.service.ts';
import { AppError } from '../../errors.ts';
import { attachment } from '../../lib/content-disposition.ts';
import { abortUpload, completeUpload, completeUploads, getUpload, listUploads, signParts, startUpload, startUploads, startVersionUpload } from './uploads.service.ts';

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

export async function filesRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/workspaces/:ws/uploads',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Start a resumable upload (name, size and quota checked; nothing visible until complete)',
        params: ZWorkspaceParams,
        body: ZStartUploadRequest,
        response: { 201: ZStartedUpload },
      },
    },
    async (req, reply) => reply.code(201).send(await startUpload(ctx, requireActor(req), req.params.ws, req.body)),
  );
  r.post(
    '/workspaces/:ws/uploads/batch',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Start many uploads at once (many small files); each answers for itself, in order',
        params: ZWorkspaceParams,
        body: ZStartUploadsRequest,
        response: { 200: ZStartUploadsResponse },
      },
    },
    async (req) => ({ results: (await startUploads(ctx, requireActor(req), req.params.ws, req.body.uploads)).map((o) => (o instanceof AppError ? entryError(o) : { upload: o })) }),
  );
  r.get(
    '/workspaces/:ws/uploads',
    { schema: { tags: ['uploads'], summary: 'Your unfinished uploads in the workspace', params: ZWorkspaceParams, response: { 200: z.object({ items: z.array(ZUpload) }) } } },
    async (req) => ({ items: await listUploads(ctx, requireActor(req), req.params.ws) }),
  );
  r.get(
    '/uploads/:id',
    { schema: { tags: ['uploads'], summary: 'An upload and the parts the storage holds (what a resumed upload skips)', params: ZIdParams, response: { 200: ZUploadStatus } } },
    async (req) => getUpload(ctx, requireActor(req), req.params.id),
  );
  r.post(
    '/uploads/:id/parts',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Short-lived URLs to PUT parts to (the bucket, or Cabinet for local storage)',
        params: ZIdParams,
        body: ZSignPartsRequest,
        response: { 200: ZSignPartsResponse },
      },
    },
    async (req) => ({ parts: await signParts(ctx, requireActor(req), req.params.id, req.body.partNumbers) }),
  );
  r.post(
    '/uploads/:id/complete',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Join the parts, check size and SHA-256, and make the file appear',
        params: ZIdParams,
        body: ZCompleteUploadRequest.extend({ onConflict: ZOnConflict.optional() }),
        response: { 200: ZCompleteUploadResponse },
      },
    },
    async (req) => completeUpload(ctx, requireActor(req), req.params.id, req.body),
  );
  r.post(
    '/uploads/complete',
    {
      schema: {
        tags: ['uploads'],
        summary: 'Complete many uploads at once; each answers for itself, in order',
        body: ZCompleteUploadsRequest,
        response: { 200: ZCompleteUploadsResponse },
      },
    },
    async (req) => ({ results: (await completeUploads(ctx, requireActor(req), req.body.uploads)).map((o) => (o instanceof AppError ? entryError(o) : o)) }),
  );
  r.delete('/uploads/:id', { schema: { tags: ['uploads'], summary: 'Cancel an upload; its parts are removed', params: ZIdParams } }, async (req, reply) => {
    await abortUpload(ctx, requireActor(req), req.params.id);
    return reply.code(204).send();
  });

  r.get(
    '/items/:id/versions',
    { schema: { tags: ['files'], summary: "A file's versions, newest first", params: ZIdParams, response: { 200: z.object({ items: z.array(ZFileVersion) }) } } },
    async (req) => ({ items: await listVersions(ctx.db, requireActor(req), req.params.id) }),
  );
  r.post(
    '/items/:id/versions',
    { schema: { tags: ['files'], summary: 'Start uploading a new version of a file', params: ZIdParams, body: ZStartVersionRequest, response: { 201: ZStartedUpload } } },
    async (req, reply) => {
      return reply.code(201).send(await startVersionUpload(ctx, requireActor(req), req.params.id, req.body));
    },
  );

  r.get(
    '/items/:id/content',
    {
      schema: {
        tags: ['files'],
        summary: "A file's bytes: a redirect to a short-lived signed URL (Range and HEAD work there); a folder streams as a zip",
        params: ZIdParams,
        querystring: z.object({ version: z.uuid().optional(), download: z.enum(['0', '1']).optional() }),
      },
    },
    async (req, reply) => {
      const content = await getContent(ctx, requireActor(req), req.params.id, { versionId: req.query.version, download: req.query.download === '1', method: req.method === 'HEAD' ? 'HEAD' : 'GET' });
      if ('url' in content) return reply.header('cache-control', 'no-store').redirect(content.url, 302);
      return sendZip(reply, content);
    },
  );
  r.get(
    '/workspaces/:ws/zip',
    {
      schema: {
        tags: ['files'],
        summary: 'Several items as one zip, streamed (exact Content-Length, so the download shows progress)',
        params: ZWorkspaceParams,
        querystring: z.object({ ids: z.string().transform((s) => s.split(',')).pipe(z.array(z.uuid()).min(1).max(1000)) }),
      },
    },
    async (req, reply) => {
      return sendZip(reply, await zipItems(ctx, requireActor(req), req.params.ws, req.query.ids));
    },
  );
}
