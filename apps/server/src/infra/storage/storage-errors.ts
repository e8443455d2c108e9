import { AppError } from '../../errors.ts';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'EAI_AGAIN', 'EPIPE', 'TimeoutError', 'AbortError']);

/** Turns what a storage call threw into `storage_unavailable` when the storage could not be reached or failed on its side. */
export function storageError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const e = error as { code?: string; name?: string; $metadata?: { httpStatusCode?: number }; $fault?: string };
  if ((e.code && UNREACHABLE.has(e.code)) || (e.name && UNREACHABLE.has(e.name)) || e.$fault === 'server' || (e.$metadata?.httpStatusCode ?? 0) >= 500) {
    return new AppError('storage_unavailable');
  }
  return error;
}

/** A part whose body is not the length it was declared to be. */
export const partLengthRefused = (length: number) =>
  new AppError('invalid_input', `This part is ${length} bytes long; send exactly that many.`, { partSize: length });
