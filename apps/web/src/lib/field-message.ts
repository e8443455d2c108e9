import { ApiError } from './api-client.ts';

/**
 * What a refusal (`invalid_input`) says of one field of the request: of the field at `path`, or of the first one named
 * when no path is given; undefined for any other failure.
 */
export function fieldMessage(error: unknown, path?: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const fields = error.details?.fields as { path: string; message: string }[] | undefined;
  return (path === undefined ? fields?.[0] : fields?.find((f) => f.path === path))?.message;
}

/** The message of a refused call: the field's own when the server names one, else the server's, else a general one. */
export const refusalMessage = (error: unknown) => fieldMessage(error) ?? (error instanceof ApiError ? error.message : 'Something went wrong.');
