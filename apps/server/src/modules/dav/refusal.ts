import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, sendError, toAppError } from '../../errors.ts';
import { DavPathElsewhere, DavPathInvalid } from './dav-path.ts';
import { IfHeaderSyntax } from './if-header.ts';
import { LockRequestInvalid } from './lock-info.ts';
import { PropRequestInvalid } from './prop-requests.ts';
import { XmlInvalid } from './xml-read.ts';
import { d, writeXml, type XmlElement } from './xml-write.ts';

/**
 * A WebDAV answer other than success that the API's catalogue has no code for: a status of RFC 4918 (405, 409 for a
 * missing parent, 412, 423, 424, 502…), with the precondition that failed where the RFC names one (sent as
 * `<d:error><d:condition/></d:error>`), else the message as text.
 */
export class DavRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly condition?: XmlElement,
  ) {
    super(message);
  }
}

/** Answers a failed WebDAV request: a refusal as WebDAV states it, the API's errors by their catalogue status and envelope. */
export function answerError(req: FastifyRequest, reply: FastifyReply, error: unknown) {
  if (reply.sent) return reply;
  reply.header('x-request-id', req.id);
  // A body left unread (a PUT refused before its bytes, or cut short) is not read on: the connection closes after the answer.
  if (!req.raw.complete) reply.header('connection', 'close');
  const refusal = asRefusal(error);
  if (refusal) {
    if (refusal.condition) {
      return reply
        .code(refusal.status)
        .type('application/xml; charset=utf-8')
        .send(writeXml(d('error', refusal.condition)));
    }
    return reply.code(refusal.status).type('text/plain; charset=utf-8').send(`${refusal.message}\n`);
  }
  const appError = toAppError(error, req);
  if (appError.code === 'unauthenticated') reply.header('www-authenticate', 'Basic realm="Cabinet", charset="UTF-8"');
  return sendError(reply, appError);
}

function asRefusal(error: unknown): DavRefusal | undefined {
  if (error instanceof DavRefusal) return error;
  if (error instanceof DavPathElsewhere) return new DavRefusal(502, error.message);
  if (error instanceof DavPathInvalid || error instanceof XmlInvalid || error instanceof PropRequestInvalid || error instanceof LockRequestInvalid) {
    return new DavRefusal(400, error.message);
  }
  if (error instanceof IfHeaderSyntax) return new DavRefusal(400, error.message);
  return undefined;
}

/** An AppError of the API, when that is what `error` is, with the code given. */
export const isAppError = (error: unknown, code: AppError['code']) => error instanceof AppError && error.code === code;
