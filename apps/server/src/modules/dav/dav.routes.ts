import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { rateKey } from '../../lib/client-address.ts';
import type { DocumentMarkdown } from '../files/index.ts';
import type { ItemContents } from '../items/index.ts';
import { mkcol, put, remove } from './changes.ts';
import { copyOrMove } from './copy-move.ts';
import { header, type DavCall } from './dav-call.ts';
import { DAV_PREFIX, davPath } from './dav-path.ts';
import { resolve, type Resolved } from './dav-resources.ts';
import { get } from './get.ts';
import { conditionsOf, lock, requireConditions, unlock } from './locks.ts';
import { propfind, propfindDepth } from './propfind.ts';
import { readPropFind, readPropPatch } from './prop-requests.ts';
import { proppatch } from './proppatch.ts';
import { answerError, DavRefusal } from './refusal.ts';
import { isSideFileName, SIDE_FILES, sideFileRequest } from './side-files.ts';
import { signInFailures } from './sign-in-failures.ts';
import { readXml } from './xml-read.ts';
import { writeXml } from './xml-write.ts';

/** Methods WebDAV adds to HTTP's, and whether a request of each may carry a body. */
const DAV_METHODS = { PROPFIND: true, PROPPATCH: true, MKCOL: true, COPY: false, MOVE: false, LOCK: true, UNLOCK: false } as const;
/** What Cabinet's WebDAV answers to, as OPTIONS tells (classes 1 and 2: RFC 4918 §18). */
const ALLOWED = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK'];
const READING = new Set(['OPTIONS', 'GET', 'HEAD', 'PROPFIND']);
/** A PROPFIND, PROPPATCH or LOCK body is a short XML document. */
const MAX_XML_BYTES = 1024 * 1024;

type Handler = (call: DavCall, target: Resolved) => Promise<unknown>;

const found = (target: Resolved) => {
  if (!('found' in target)) throw new DavRefusal(404, 'Nothing is there.');
  return target.found;
};

const handlers = (contents: ItemContents): Record<string, Handler> => ({
  GET: (call, target) => get(call, found(target), false),
  HEAD: (call, target) => get(call, found(target), true),
  PROPFIND: async (call, target) => {
    const depth = propfindDepth(header(call, 'depth'));
    const body = await readBody(call.req);
    const asked = readPropFind(body.byteLength ? readXml(body) : undefined);
    const answer = writeXml(await propfind(call, found(target), depth, asked));
    call.reply.code(207).type('application/xml; charset=utf-8').send(answer);
  },
  PROPPATCH: async (call, target) => {
    const body = await readBody(call.req);
    if (!body.byteLength) throw new DavRefusal(400, 'A PROPPATCH body is a DAV:propertyupdate.');
    const steps = readPropPatch(readXml(body));
    const answer = writeXml(await proppatch(call, found(target), steps));
    call.reply.code(207).type('application/xml; charset=utf-8').send(answer);
  },
  LOCK: async (call, target) => {
    const body = await readBody(call.req);
    await lock(call, target, body.byteLength ? readXml(body) : undefined);
  },
  UNLOCK: unlock,
  MKCOL: mkcol,
  DELETE: remove,
  PUT: put,
  COPY: (call, target) => copyOrMove(call, target, contents, false),
  MOVE: (call, target) => copyOrMove(call, target, contents, true),
});

/** What WebDAV uses of the modules after it: who signs in, a document's Markdown, what a copy of a document takes. */
export interface DavOptions {
  davActor: (req: FastifyRequest) => Promise<Actor>;
  markdown: DocumentMarkdown;
  contents: ItemContents;
}

/** A request's body, whole, up to a bound (the XML bodies', unless told; 413 past it). */
async function readBody(req: FastifyRequest, max = MAX_XML_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > max) throw new DavRefusal(413, `The request body is larger than ${max / 1024 / 1024} MiB.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * WebDAV at `/dav/` (ADR 0067): each workspace the caller is in, with its places My files, Workspace and Shared with
 * me, read and changed through the same services and policy as the API. Clients sign in with HTTP Basic (any user
 * name, an app password); OPTIONS answers anyone, as clients ask it before they sign in. Bodies are read by each
 * method as it needs: every content type passes untouched (a PUT's bytes stream on to storage).
 */
export async function davRoutes(app: FastifyInstance, ctx: AppContext, o: DavOptions) {
  const { davActor, markdown } = o;
  const HANDLERS = handlers(o.contents);
  for (const [method, hasBody] of Object.entries(DAV_METHODS)) app.addHttpMethod(method, { hasBody });
  const failures = signInFailures({ max: 10, windowMs: 10 * 60_000, addresses: 10_000 });

  async function signIn(req: FastifyRequest): Promise<Actor> {
    // By address and the user name given: one client guessing behind a shared address does not lock out the others.
    const key = `${rateKey(req.ip)}\n${basicUser(req.headers.authorization)}`;
    const wait = failures.wait(key);
    if (wait) throw new AppError('rate_limited', 'Too many wrong passwords from here. Wait before trying again.', { retryAfter: wait });
    try {
      return await davActor(req);
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthenticated' && req.headers.authorization) failures.failed(key);
      throw error;
    }
  }

  async function handle(req: FastifyRequest, reply: FastifyReply) {
    try {
      if (req.method === 'OPTIONS') {
        reply.header('dav', '1, 2').header('ms-author-via', 'DAV').header('allow', ALLOWED.join(', ')).header('content-length', 0);
        return reply.code(200).send();
      }
      const handler = HANDLERS[req.method];
      if (!handler) {
        reply.header('allow', ALLOWED.join(', '));
        throw new DavRefusal(405, `${req.method} is not served here.`);
      }
      const actor = await signIn(req);
      req.actor = actor;
      if (!READING.has(req.method) && !actor.scopes.includes('write')) throw new AppError('forbidden', 'This token may only read.');
      const path = davPath(req.raw.url ?? req.url);
      const call: DavCall = { ctx, actor, req, reply, path, markdown, conditions: conditionsOf(header({ req }, 'if')), signIn: () => davActor(req) };
      const target = await resolve(ctx.db, actor, path.names);
      // A side file of Finder's where no item has the name (one that does is reached as any item).
      if (!('found' in target) && path.names.length > 2 && isSideFileName(path.names.at(-1)!) && req.method !== 'MKCOL') {
        await sideFileRequest(call, () => readBody(req, SIDE_FILES.maxBytes));
        return reply;
      }
      await requireConditions(call, target);
      await handler(call, target);
      return reply;
    } catch (error) {
      return answerError(req, reply, error);
    }
  }

  await app.register(async (dav) => {
    dav.removeAllContentTypeParsers();
    // The body stays on the request, unread, for the method to read (or stream) itself.
    dav.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const methods = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'POST', ...Object.keys(DAV_METHODS)];
    for (const url of [DAV_PREFIX, `${DAV_PREFIX}/`, `${DAV_PREFIX}/*`]) dav.route({ method: methods, url, handler: handle });
  });
}

/** The user name of a Basic authorization (any name is accepted; it only keeps clients apart when counting failures). */
function basicUser(authorization: string | undefined): string {
  const basic = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(authorization ?? '');
  if (!basic) return '';
  const credentials = Buffer.from(basic[1]!, 'base64').toString('utf8');
  return credentials
    .slice(0, Math.max(0, credentials.indexOf(':')))
    .slice(0, 320)
    .toLowerCase();
}
