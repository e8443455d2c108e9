import { ERROR_STATUS, uuidv7, type ErrorCode, type FieldError, type TErrorEnvelope } from '@cabinet/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Duplex } from 'node:stream';

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  unauthenticated: 'Sign in to continue.',
  session_expired: 'Your session has expired. Sign in again to continue.',
  forbidden: 'You do not have permission to do that.',
  not_found: 'Not found.',
  invalid_input: 'Some of the input is not valid.',
  name_conflict: 'Something with that name already exists here.',
  cycle: 'A folder cannot be moved into itself or one of its subfolders.',
  version_mismatch: 'This changed since you loaded it. Reload and try again.',
  file_too_large: 'The file is larger than the maximum allowed size.',
  quota_exceeded: 'The workspace has run out of storage space.',
  upload_expired: 'This upload has expired or was cancelled.',
  checksum_mismatch: 'The uploaded bytes do not match the file.',
  link_expired: 'This link has expired or was revoked.',
  link_password_required: 'This link needs a password.',
  unsupported_media_type: 'This type of file is not supported here.',
  rate_limited: 'Too many requests. Wait a moment and try again.',
  storage_unavailable: 'File storage is unavailable right now. Try again shortly.',
  database_unavailable: 'The database is unavailable right now. Try again shortly.',
  internal: 'Something went wrong on our side.',
};

/** The one error type services throw; the handler turns it into the envelope of PRODUCT.md §8. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? DEFAULT_MESSAGES[code]);
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const invalidInput = (fields: FieldError[]) => new AppError('invalid_input', undefined, { fields });

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE', 'EAI_AGAIN']);

/**
 * SQLSTATE class 22 (data exception): a value the database cannot take — NUL in text, a malformed
 * uuid, a date out of range. The contracts refuse these first; any that slips past is still the
 * caller's bad input, never a 500.
 */
const isDataException = (error: unknown) => /^22[0-9A-Z]{3}$/.test(String((error as { code?: unknown } | undefined)?.code));

/** True for errors that mean the database could not be reached, as opposed to a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; errors?: unknown[] } | undefined;
  if (!e) return false;
  if (e.code && CONNECTION_ERRORS.has(e.code)) return true;
  // SQLSTATE class 08 (connection exception), 57P01–57P03 (server shutting down or starting).
  if (e.code && (/^08/.test(e.code) || /^57P0[1-3]$/.test(e.code))) return true;
  if (/Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message ?? ''))
    return true;
  return Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable);
}

function envelope(code: ErrorCode, message: string, requestId: string, details?: Record<string, unknown>): TErrorEnvelope {
  return { error: { code, message, ...(details ? { details } : {}), requestId } };
}

export function sendError(reply: FastifyReply, error: AppError) {
  if (error.code === 'rate_limited' && error.details?.retryAfter) reply.header('retry-after', String(error.details.retryAfter));
  // Set here too: an address the router refuses is answered before the hooks that set it elsewhere.
  reply.header('x-request-id', reply.request.id);
  return reply.code(error.status).send(envelope(error.code, error.message, String(reply.request.id), error.details));
}

export function toAppError(error: unknown, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as FastifyError).validationContext ?? 'body';
    // One entry per field, even when a value breaks several rules.
    const fields = new Map<string, string[]>();
    for (const v of error.validation) {
      const path = [where, ...v.instancePath.split('/').filter(Boolean)].join('.');
      fields.set(path, [...(fields.get(path) ?? []), v.message ?? 'is not valid']);
    }
    return invalidInput([...fields].map(([path, messages]) => ({ path, message: messages.join('; ') })));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return new AppError('database_unavailable');
  }
  if (isDataException(error)) {
    request.log.warn({ err: error }, 'input the database refused');
    return invalidInput([{ path: 'request', message: 'holds a value that cannot be stored' }]);
  }
  const fe = error as FastifyError;
  // An address whose escapes do not decode, or a path segment past the router's limit.
  if (fe.code === 'FST_ERR_BAD_URL' || fe.code === 'FST_ERR_MAX_PARAM_LENGTH') return invalidInput([{ path: 'url', message: 'is not a valid address' }]);
  if (fe.statusCode === 415) return new AppError('unsupported_media_type', 'Send the request body as JSON.');
  if (fe.statusCode === 413) return invalidInput([{ path: 'body', message: 'is too large' }]);
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return invalidInput([{ path: 'body', message: fe.message }]);
  }
  request.log.error({ err: error }, 'unhandled error');
  return new AppError('internal');
}

/**
 * A request Node cannot parse (headers too large, broken HTTP) never reaches Fastify: it is
 * answered here in the error envelope too, and the connection closes.
 */
export function answerUnparsableRequest(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are too large.'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request did not arrive in time.'
        : 'The request is not valid HTTP.';
  const requestId = uuidv7();
  const body = JSON.stringify(envelope('invalid_input', message, requestId, { fields: [{ path: 'request', message }] }));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
