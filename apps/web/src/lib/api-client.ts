import {
  CLIENT_ID_HEADER,
  CSRF_COOKIE,
  CSRF_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  LAST_CHANGE_HEADER,
  meApi,
  takesIdempotencyKey,
  urlOf,
  type AllOptional,
  type CallInput,
  type ErrorCode,
  type ResponseOf,
  type RouteDeclaration,
  type TErrorEnvelope,
} from '@cabinet/contracts';
import { noteLastChange } from './last-change.ts';
import { pageRoutes } from './page-routes.ts';

/** A failed call, carrying the stable code of the error catalogue; the app branches on `code` only. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** 32 random hex digits. (Not randomUUID: plain http on a LAN has no secure context.) */
const randomHex = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** This tab's name on its writes: the live stream tells it which changes were its own. */
export const CLIENT_ID = randomHex();

function csrfToken(): string {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${CSRF_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(CSRF_COOKIE.length + 1)) : '';
}

/** Where the browser goes to sign in, coming back to the current page afterwards. */
export function signInUrl(reason?: 'expired'): string {
  const here = window.location.pathname + window.location.search;
  const signIn = pageRoutes.signIn();
  if (window.location.pathname === signIn) return here;
  return pageRoutes.signIn({ returnTo: here !== pageRoutes.root() && !here.startsWith(signIn) ? here : undefined, reason });
}

const RETRYABLE = new Set([429, 503]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The error a failed answer stands for; a session that ended sends the page to sign in. `retryAfter`
 * (seconds), when given, joins the details: how long the caller is asked to wait.
 */
function failure(status: number, payload: unknown, retryAfter?: number): ApiError {
  const error = (payload as TErrorEnvelope | undefined)?.error;
  const details = retryAfter ? { ...error?.details, retryAfter } : error?.details;
  const apiError = new ApiError(status, error?.code ?? 'internal', error?.message ?? 'Something went wrong.', details);
  if (apiError.code === 'unauthenticated' || apiError.code === 'session_expired') {
    window.dispatchEvent(new CustomEvent('cabinet:signed-out', { detail: apiError.code }));
  }
  return apiError;
}

const unreachable = () => new ApiError(0, 'internal', 'Cabinet cannot be reached. Check your connection and try again.');

/**
 * How a call is made: `signal` abandons it (a query that is no longer wanted, such as a search typed
 * further); `retry: false` tries once, answering a refusal (429, 503) or an unreachable server at once
 * instead of waiting it out, the refusal's Retry-After in the error's details (`retryAfter`, seconds),
 * for a page that says how long to wait.
 */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  retry?: boolean | undefined;
}

/** The input a route takes; routes whose input is all optional can be called without one. */
type Input<R> = AllOptional<CallInput<R>> extends true ? [input?: CallInput<R>, options?: CallOptions] : [input: CallInput<R>, options?: CallOptions];

/**
 * Calls a declared route: JSON over `/api/v1` with the session cookie and, on state changes, the
 * CSRF header; 429 and 503 are retried with backoff. A POST carries an `Idempotency-Key` of its own,
 * the same on each of its retries: a creation the server received but whose answer was lost (a
 * dropped connection, a 503 from a proxy) is sent again safely, and is made once (ADR 0043).
 * Answers the route's declared response.
 */
export async function call<R extends RouteDeclaration>(route: R, ...[input, options]: Input<R>): Promise<ResponseOf<R>> {
  const { method } = route;
  const signal = options?.signal;
  const retry = options?.retry ?? true;
  const url = urlOf(route, input?.params, input?.query);
  const body: unknown = input?.body;
  const idempotent = method === 'GET';
  const key = method === 'POST' ? randomHex() : undefined;
  // Sent again only when that cannot do the work twice: a read, or a creation under its key.
  const repeatable = idempotent || takesIdempotencyKey(route);
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        credentials: 'same-origin',
        headers: {
          accept: 'application/json',
          ...(idempotent ? {} : { [CSRF_HEADER]: csrfToken(), [CLIENT_ID_HEADER]: CLIENT_ID }),
          ...(key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      // Abandoned on purpose: no retry, and the caller (TanStack Query) knows the abort for what it is.
      if (signal?.aborted) throw error;
      if (retry && repeatable && attempt < 4) {
        await sleep(500 * 2 ** attempt);
        continue;
      }
      throw unreachable();
    }
    if (retry && RETRYABLE.has(res.status) && attempt < 4 && (repeatable || res.status === 429)) {
      const retryAfter = Number(res.headers.get('retry-after'));
      await sleep(retryAfter > 0 ? retryAfter * 1000 : 500 * 2 ** attempt);
      continue;
    }
    noteLastChange(res.headers.get(LAST_CHANGE_HEADER));
    if (res.status === 204) return undefined as ResponseOf<R>;
    const payload = (await res.json().catch(() => undefined)) as unknown;
    if (res.ok) return payload as ResponseOf<R>;
    const retryAfter = Number(res.headers.get('retry-after'));
    throw failure(res.status, payload, !retry && retryAfter > 0 ? retryAfter : undefined);
  }
}

/**
 * Sends a file as the request body of a route that takes one (an import), reporting how much has
 * gone and stopping when `signal` aborts. XMLHttpRequest rather than fetch, because only it reports upload progress.
 */
export function sendFile<R extends RouteDeclaration & { body: 'file' }>(
  route: R,
  input: CallInput<R> & { body: Blob },
  o: { onProgress: (fraction: number) => void; signal: AbortSignal },
): Promise<ResponseOf<R>> {
  const file: Blob = input.body;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const stop = () => xhr.abort();
    o.signal.addEventListener('abort', stop, { once: true });
    const settle = (outcome: () => void) => {
      o.signal.removeEventListener('abort', stop);
      outcome();
    };
    xhr.open(route.method, urlOf(route, input.params, input.query));
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader(CSRF_HEADER, csrfToken());
    xhr.setRequestHeader(CLIENT_ID_HEADER, CLIENT_ID);
    if (route.method === 'POST') xhr.setRequestHeader(IDEMPOTENCY_KEY_HEADER, randomHex());
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => event.lengthComputable && o.onProgress(event.loaded / event.total);
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = undefined;
      }
      settle(() => (xhr.status >= 200 && xhr.status < 300 ? resolve(payload as ResponseOf<R>) : reject(failure(xhr.status, payload))));
    };
    xhr.onerror = () => settle(() => reject(unreachable()));
    xhr.onabort = () => settle(() => reject(new DOMException('Stopped', 'AbortError')));
    xhr.send(file);
  });
}

/**
 * Watches an event stream the server may end and refuse to open again: the person signed out elsewhere, or their
 * account deactivated by an administrator. Once the browser has given up on it, who is signed in is asked again,
 * so a page whose session ended goes to sign-in within seconds (a refusal for any other reason changes nothing).
 */
export function askWhoWhenRefused(source: EventSource): void {
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) call(meApi.get, undefined, { retry: false }).catch(() => undefined);
  });
}
