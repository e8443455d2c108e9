import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/dist');

/**
 * Mantine writes style attributes at run time, hence 'unsafe-inline' for styles only; no inline
 * script runs. 'wasm-unsafe-eval' lets the upload worker compile its SHA-256 WebAssembly (it
 * allows no JavaScript eval). `storageOrigin` is the bucket the browser PUTs parts to and reads
 * pictures, sound, video and (the viewer's Range requests) bytes from, or the origin of uploaded
 * bytes (USER_CONTENT_URL). Documents may show pictures from the web, as other editors do: images
 * (never scripts) from any https address.
 */
export const contentSecurityPolicy = (storageOrigin?: string) =>
  [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${storageOrigin ? ` ${storageOrigin}` : ''}`,
    `media-src 'self' blob:${storageOrigin ? ` ${storageOrigin}` : ''}`,
    "font-src 'self' data:",
    `connect-src 'self'${storageOrigin ? ` ${storageOrigin}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

/** A hashed file name changes with the content, so what is behind one never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built browser app. Files under `assets/` carry a hash of their content in their name,
 * so browsers keep them a year without asking again; everything else (index.html, the favicon) is
 * revalidated on each use and answers 304 while unchanged. Brotli or gzip copies made at build time
 * are sent to browsers that accept them. Every other page of the app gets index.html.
 */
export async function registerSpa(
  app: FastifyInstance,
  dist = WEB_DIST,
  storageOrigin?: string,
): Promise<(req: FastifyRequest, reply: FastifyReply) => FastifyReply> {
  const csp = contentSecurityPolicy(storageOrigin);
  const indexFile = path.join(dist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // index.html goes out with its CSP below; the compressed copies only as encodings of their originals.
      globIgnore: ['index.html', '**/*.br', '**/*.gz'],
      preCompressed: true,
      // Set here rather than by `maxAge`, which would give every file the same lifetime.
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader('cache-control', path.relative(dist, file).startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  const index = built
    ? readFileSync(indexFile, 'utf8')
    : '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cabinet</title></head><body><main><h1>Cabinet</h1>' +
      '<p>The browser app is not built yet. Run <code>npm run build</code>, or start Cabinet with <code>npm start</code>.</p></main></body></html>';
  const etag = `"${createHash('sha256').update(index).digest('base64url').slice(0, 27)}"`;
  const modified = new Date(Math.floor((built ? statSync(indexFile).mtimeMs : Date.now()) / 1000) * 1000);
  return (req, reply) => {
    reply.header('cache-control', 'no-cache').header('etag', etag).header('last-modified', modified.toUTCString());
    if (unchanged(req, etag, modified)) return reply.code(304).send();
    return reply.code(200).header('content-security-policy', csp).type('text/html; charset=utf-8').send(index);
  };
}

/** RFC 9110 §13.1: If-None-Match decides when present, otherwise If-Modified-Since. */
function unchanged(req: FastifyRequest, etag: string, modified: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return ifNoneMatch.split(',').some((tag) => ['*', etag, `W/${etag}`].includes(tag.trim()));
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && modified.getTime() <= since;
}
