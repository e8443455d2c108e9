import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../infra/http/actor.ts';
import type { DocumentMarkdown } from '../files/index.ts';
import type { DavPath } from './dav-path.ts';
import type { IfList } from './if-header.ts';

/** The `If` header of a request, parsed once: its lists and the lock tokens it submits. */
export interface Conditions {
  lists: IfList[];
  submitted: Set<string>;
}

/** One WebDAV request as its method's handler sees it: who calls, what the target's path names, and what it may use. */
export interface DavCall {
  ctx: AppContext;
  actor: Actor;
  req: FastifyRequest;
  reply: FastifyReply;
  path: DavPath;
  /** A document's Markdown as it stands (given by the documents module, which comes after this one's imports). */
  markdown: DocumentMarkdown;
  /** Signs the request in again: a long request (a PUT) checks before it finishes that its password still holds. */
  signIn(): Promise<unknown>;
  /** The request's If header, parsed: its conditions, and the lock tokens it submits. */
  conditions: Conditions;
}

/** A request header's value; a header sent twice counts as not understood, so as absent. */
export function header(call: Pick<DavCall, 'req'>, name: string): string | undefined {
  const value = call.req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
