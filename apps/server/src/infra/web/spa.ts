import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/dist');

// Mantine writes style attributes at run time, hence 'unsafe-inline' for styles only; no inline script runs.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** Serves the built browser app: hashed assets cached forever, every other page gets index.html. */
export async function registerSpa(app: FastifyInstance, dist = WEB_DIST): Promise<(reply: FastifyReply) => FastifyReply> {
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
    reply.code(200).header('content-security-policy', CSP).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
}
