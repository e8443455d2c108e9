import { urlOf, type CallInput, type FieldError, type ResponseOf, type RouteDeclaration, type TErrorEnvelope } from '@cabinet/contracts';

/** An answer as a test reads it: the route's declared body when it succeeded, its error (§8) when it did not. */
export interface Answer<T> {
  status: number;
  /** The success body, typed by the route's declaration. On a failure it holds the error envelope; read `error` instead. */
  body: T;
  /** The error of a failed answer (`{ code, message, details, requestId }`), undefined on success. */
  error: TErrorEnvelope['error'] | undefined;
  headers: Headers;
}

/** The offending fields (`details.fields`) of an `invalid_input` answer; none for any other answer. */
export const invalidFields = (answer: Pick<Answer<unknown>, 'error'>): FieldError[] =>
  answer.error?.code === 'invalid_input' ? ((answer.error.details?.fields ?? []) as FieldError[]) : [];

/** How a call is sent besides its input: extra request headers (If-Match, Origin…). */
export interface CallExtras {
  headers?: Record<string, string>;
}

/** Routes whose input is all optional can be called without one. */
type RouteArgs<R> = Record<never, never> extends CallInput<R> ? [input?: CallInput<R>, extras?: CallExtras] : [input: CallInput<R>, extras?: CallExtras];

/** Calls a declared route of `/api/v1`: the path from its declaration and params, the query, a JSON body. */
export type RouteCall = <R extends RouteDeclaration>(route: R, ...args: RouteArgs<R>) => Promise<Answer<ResponseOf<R>>>;

/** What a test sends as it is, for input no declaration allows (malformed paths, bodies of the wrong type). */
export type RawCall = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer<any>>;

/** Sends a request to `/api/v1/…` (`path` includes it) the way a client sends: its cookies, its token, its address. */
export type Send = (path: string, init: { method: string; headers: Record<string, string>; body?: string | Blob | Uint8Array }) => Promise<Response>;

/** A client that sends `headers` with every request (a request's own headers win). */
const sendingWith =
  (baseUrl: string, headers: Record<string, string>): Send =>
  (path, init) =>
    fetch(`${baseUrl}${path}`, { ...init, headers: { ...headers, ...init.headers } });

/** A client without an account: no token, no cookie. */
export const anonymous = (baseUrl: string): Send => sendingWith(baseUrl, {});

/** A client with an API token. */
export const withToken = (baseUrl: string, token: string): Send => sendingWith(baseUrl, { authorization: `Bearer ${token}` });

async function answerOf(res: Response): Promise<Answer<any>> {
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json');
  const body = text && json ? JSON.parse(text) : text || undefined;
  return { status: res.status, body, error: res.ok ? undefined : body?.error, headers: res.headers };
}

const jsonBody = (body: unknown): { headers: Record<string, string>; body?: string } =>
  body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : { headers: {} };

/**
 * The two ways a test calls Cabinet over HTTP through `send`: `call` through a route's declaration, so that paths and
 * inputs come under the compiler, and `raw` for what no declaration allows.
 */
export function callingRoutes(send: Send): { call: RouteCall; raw: RawCall } {
  const raw: RawCall = async (method, path, body, headers = {}) => {
    const json = jsonBody(body);
    return answerOf(await send(`/api/v1${path}`, { method, ...json, headers: { ...json.headers, ...headers } }));
  };
  const call: RouteCall = async (route, ...[input, extras]) => {
    const { params, query, body } = (input ?? {}) as { params?: never; query?: never; body?: unknown };
    const bytes = body instanceof Blob || body instanceof Uint8Array;
    const sent: { headers: Record<string, string>; body?: string | Blob | Uint8Array } = bytes
      ? { headers: {}, body: body as Blob | Uint8Array }
      : jsonBody(body);
    const init = { method: route.method, ...sent, headers: { ...sent.headers, ...extras?.headers } };
    return answerOf(await send(urlOf(route, params, query), init));
  };
  return { call, raw };
}
