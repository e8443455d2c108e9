import type { ErrorCode } from '@cabinet/contracts';
import { ApiError } from '../../../lib/api-client.ts';
import type { ViewerSource } from '../viewer-source.ts';

/** The address of one of a file's conversion routes (`preview/html`, `preview/sheets`) with its query. */
export function previewUrl(source: ViewerSource, path: 'preview/html' | 'preview/sheets', query: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  if (source.versionId) params.set('version', source.versionId);
  for (const [k, v] of Object.entries(query)) params.set(k, String(v));
  const q = params.toString();
  return `${source.conversionBase}/${path}${q ? `?${q}` : ''}`;
}

/** A GET of a conversion route: its JSON, or its error envelope as an ApiError (a 415 says why in `details.reason`). */
export async function getPreview<T>(url: string, signal: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' }, signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError(0, 'internal', 'Cabinet cannot be reached. Check your connection and try again.');
  }
  const payload = (await res.json().catch(() => undefined)) as { error?: { code: ErrorCode; message: string; details?: Record<string, unknown> } } | undefined;
  if (res.ok) return payload as T;
  const e = payload?.error;
  throw new ApiError(res.status, e?.code ?? 'internal', e?.message ?? 'Something went wrong on our side.', e?.details);
}

/** Whether a failure is the file's (no preview of it: show Download) rather than a passing one worth retrying. */
export const isNoPreview = (error: unknown) => error instanceof ApiError && error.code === 'unsupported_media_type';

/** Retries what may pass (an unreachable server, a busy one), never a file that cannot be shown or a refusal. */
export const retryPreview = (failures: number, error: unknown) =>
  failures < 3 && error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status === 503);
