import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/dist');

/**
 * Mantine writes style attributes at run time, hence 'unsafe-inline' for styles only; no inline
 * script runs. 'wasm-unsafe-eval' lets the upload worker compile its SHA-256 WebAssembly (it
 * allows no JavaScript eval). `storageOrigin` is the bucket the browser PUTs parts to and reads
 * images from. Documents may show pictures from the web, as other editors do: images (never
 * scripts) from any https address.
 */
export const contentSecurityPolicy = (storageOrigin?: string) =>
  [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${storageOrigin ? ` ${storageOrigin}` : ''}`,
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self'${storageOrigin ? ` ${storageOrigin}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

/** Serves the built browser app: hashed assets cached forever, every other page gets index.html. */
export async function registerSpa(app: FastifyInstance, dist = WEB_DIST, storageOrigin?: string): Promise<(reply: FastifyReply) => FastifyReply> {
  const csp = contentSecurityPolicy(storageOrigin);
  const indexFile = path.join(dist, 'index.html');
  if (existsSync(indexFile)) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      setHeaders(res, file) {
        res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const index = existsSync(indexFile)
    ? readFileSync(indexFile, 'utf8')
    : '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cabinet</title></head><body><main><h1>Cabinet</h1><p>The browser app is not built yet. Run <code>npm run build</code>, or start Cabinet with <code>npm start</code>.</p></main></body></html>';
  return (reply) =>
    reply.code(200).header('content-security-policy', csp).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
}
