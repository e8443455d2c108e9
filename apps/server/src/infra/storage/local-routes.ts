import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import { LOCAL_BLOB_PATH, LOCAL_PART_PATH, type LocalStorage } from './local.ts';
import { partLengthRefused } from './storage-errors.ts';

/** Parses a single `Range: bytes=a-b` against a size; null for the whole file, 'unsatisfiable' when out of bounds. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

/**
 * What every answer carrying bytes that people uploaded says, whatever they are: never a page that
 * runs anything (the policy makes the answer a sandbox with no scripts, plugins, forms or
 * fetches, even when opened as a page of its own), and never sniffed into another type.
 */
export const USER_CONTENT_HEADERS = {
  'content-security-policy': "sandbox; default-src 'none'",
  'x-content-type-options': 'nosniff',
} as const;

/**
 * With local storage, Cabinet itself is the bucket: it receives parts and serves bytes on the
 * URLs it signed, as S3 would on presigned ones. `appOrigin`: when the bytes are served on an origin
 * of their own (USER_CONTENT_URL), the app's pages there may read them (Range requests of the
 * viewer), as a bucket's CORS rules let them.
 */
export async function localStorageRoutes(app: FastifyInstance, storage: LocalStorage, appOrigin?: string) {
  const cors = storage.browserOrigin && appOrigin ? appOrigin : undefined;
  await app.register(async (scope) => {
    // Parts stream to disk as they arrive; nothing buffers a whole part in memory.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    // Answered before the whole body was read (refused unread, or part-way): the connection closes with the answer
    // rather than wait for the rest, which could be endless, and hold up a shutdown.
    scope.addHook('onSend', async (req, reply) => {
      if (!req.raw.complete) reply.header('connection', 'close');
    });
    scope.put<{ Params: { uploadId: string; partNumber: string }; Querystring: Record<string, string> }>(
      `${LOCAL_PART_PATH}/:uploadId/:partNumber`,
      { schema: { hide: true } },
      async (req, reply) => {
        const params = storage.signer.verify(`${LOCAL_PART_PATH}/${req.params.uploadId}/${req.params.partNumber}`, req.query);
        if (!params?.k || !params.l) throw new AppError('forbidden', 'This upload link is invalid or has expired.');
        const partNumber = Number(req.params.partNumber);
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) throw new AppError('invalid_input', 'Part numbers run from 1 to 10,000.');
        const length = Number(params.l);
        // A body that says it has another length is refused unread; the connection closes rather than take the rest.
        const declared = req.headers['content-length'];
        if (declared !== undefined && Number(declared) !== length) throw partLengthRefused(length);
        const part = await storage.writePart(params.k, req.params.uploadId, partNumber, length, req.raw, { hash: params.w === '1' });
        return reply.header('etag', `"${part.etag}"`).code(200).send();
      },
    );
  });

  app.route<{ Querystring: Record<string, string> }>({
    method: ['GET', 'HEAD'],
    url: LOCAL_BLOB_PATH,
    schema: { hide: true },
    handler: async (req, reply) => {
      const params = storage.signer.verify(LOCAL_BLOB_PATH, req.query);
      if (!params?.k) throw new AppError('forbidden', 'This download link is invalid or has expired.');
      const info = await storage.stat(params.k);
      if (!info) throw new AppError('not_found');
      const range = parseRange(req.headers.range, info.size);
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', params.t || 'application/octet-stream')
        .header('content-disposition', `${params.d === 'inline' ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(params.n ?? 'download')}`)
        .header('cache-control', 'private, max-age=300')
        .headers(USER_CONTENT_HEADERS);
      if (cors) reply.headers(corsHeaders(cors));
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${info.size}`).send();
      const { start, end } = range ?? { start: 0, end: info.size - 1 };
      reply.header('content-length', String(Math.max(0, end - start + 1)));
      if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${info.size}`);
      if (req.method === 'HEAD' || info.size === 0) return reply.send();
      return reply.send(await storage.read(params.k, { start, end }));
    },
  });

  if (cors) {
    // A Range request from the app's pages is not a simple one: its browser asks first.
    app.options(LOCAL_BLOB_PATH, { schema: { hide: true } }, async (_req, reply) =>
      reply
        .code(204)
        .headers(corsHeaders(cors))
        .header('access-control-allow-methods', 'GET, HEAD')
        .header('access-control-allow-headers', 'range')
        .header('access-control-max-age', '600')
        .send(),
    );
  }
}

const corsHeaders = (origin: string) => ({
  'access-control-allow-origin': origin,
  'access-control-expose-headers': 'content-range, content-length, accept-ranges, content-disposition',
});

/**
 * With USER_CONTENT_URL, one server answers on two origins and keeps them apart: the content origin
 * serves signed bytes (and health checks) and nothing else — no page, no API, no sign-in, so no
 * cookie of the app's is ever set or read there — and the app's origin serves no uploaded bytes.
 */
export function keepUserContentApart(app: FastifyInstance, contentUrl: string) {
  const contentHost = new URL(contentUrl).host.toLowerCase();
  app.addHook('onRequest', async (req) => {
    const path = req.url.split('?')[0]!;
    if (path === '/healthz' || path === '/readyz') return;
    if ((req.host.toLowerCase() === contentHost) !== (path === LOCAL_BLOB_PATH)) throw new AppError('not_found', 'No such address.');
  });
}
