// Types only from the schemas: a declaration is plain data, so the browser can import every
// declaration it calls without loading zod or a single schema (ADR 0023).
import type { z } from 'zod';
import type { ErrorCode } from '../error-codes.ts';
import type * as Catalogue from '../schemas.ts';

type Schemas = typeof Catalogue;
/** The name of a schema exported by the contracts (`'ZItem'`); the compiler refuses any other. */
export type SchemaName = { [K in keyof Schemas]: Schemas[K] extends z.ZodType ? K : never }[keyof Schemas];
export type SchemaOf<N extends SchemaName> = Schemas[N];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: `none` — anyone, signed in or not (a stale session cookie is ignored);
 * `read` — a signed-in person, by session or by any API token; `write` — the same, and a token
 * needs the `write` scope. An app password (the `dav` scope) calls no route: it signs in WebDAV
 * clients only. Cookie-borne state changes also need the CSRF header and Cabinet's own origin,
 * whatever the route.
 */
export type RouteAuth = 'none' | 'read' | 'write';

/** What a route answers besides JSON: a file or zip, a redirect to the bytes, a stream of events. */
export type RouteProduces = 'file' | 'redirect-or-zip' | 'event-stream';

export interface RouteDeclaration {
  method: Method;
  /** Under `/api/v1`, with `:name` parameters. */
  path: `/${string}`;
  tag: string;
  summary: string;
  /** More than the summary says, for the OpenAPI document (Markdown). */
  description?: string;
  auth: RouteAuth;
  /** Part of the public API, described in the OpenAPI document; otherwise the browser's own. */
  public: boolean;
  params?: SchemaName;
  query?: SchemaName;
  /** Request headers the route reads (documented, and checked). */
  headers?: SchemaName;
  /** A JSON body by its schema, or `file`: the request body is a file's bytes, whatever their type. */
  body?: SchemaName | 'file';
  /** JSON answers by status; `null` is an answer without a body (204). Absent when the route `produces` something else. */
  responses?: Readonly<Record<number, SchemaName | null>>;
  produces?: RouteProduces;
  /**
   * The codes of the §8 catalogue this route answers for its own reasons. Those that follow from
   * the rest of the declaration — authentication, CSRF and scope, invalid input, a body that is not
   * JSON, an unavailable database, internal — are added by `errorsOf`.
   */
  errors: readonly ErrorCode[];
}

/** Declares a route; the declaration keeps its literal types, which `call` and the server's handlers read. */
export const defineRoute = <const R extends RouteDeclaration>(route: R): R => route;

/** The params schema of each parameter that can address a route alone. */
const ADDRESSES = { ws: 'ZWorkspaceParams', id: 'ZIdParams' } as const satisfies Record<string, SchemaName>;
type Address = keyof typeof ADDRESSES;

/** The one parameter of a path (`/items/:id/copy` → `id`); `never` when it has none or several. */
type OnlyParam<P extends string> = P extends `${string}:${infer Tail}`
  ? Tail extends `${infer Name}/${infer Rest}`
    ? Rest extends `${string}:${string}`
      ? never
      : Name
    : Tail
  : never;
type AddressOf<P extends string> = OnlyParam<P> extends infer N extends Address ? (typeof ADDRESSES)[N] : never;

type AddressedInput = Omit<RouteDeclaration, 'params' | 'errors'> & { params?: never; errors: readonly Exclude<ErrorCode, 'not_found'>[] };
type Flat<T> = { [K in keyof T]: T[K] } & {};
export type AddressedRoute<R extends AddressedInput> = Flat<
  Omit<R, 'errors'> & { params: AddressOf<R['path']>; errors: readonly ['not_found', ...R['errors']] }
>;

/**
 * Declares a route addressed by the one parameter of its path — a workspace (`/workspaces/:ws/trash`)
 * or an id (`/items/:id/copy`, `/uploads/:id`): its params are that parameter's schema, and
 * `not_found` (no such thing, or none you may see) comes before its own errors. The declaration is
 * the one `defineRoute` would make with them written out, down to the order of its fields. Marked
 * free of side effects, so that a bundle drops the declarations it does not call.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineAddressedRoute<const R extends AddressedInput>(
  route: R & { path: [AddressOf<R['path']>] extends [never] ? never : R['path'] },
): AddressedRoute<R> {
  const { method, path, tag, summary, auth, public: isPublic, errors, ...rest } = route;
  const names = [...path.matchAll(/:([A-Za-z]\w*)/g)].map((match) => match[1]!);
  const params = names.length === 1 && Object.hasOwn(ADDRESSES, names[0]!) ? ADDRESSES[names[0] as Address] : undefined;
  if (!params) throw new Error(`${method} ${path}: not addressed by :ws or :id alone; declare it with defineRoute`);
  return { method, path, tag, summary, auth, public: isPublic, params, ...rest, errors: ['not_found', ...errors] } as unknown as AddressedRoute<R>;
}

type Input<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer N extends SchemaName } ? z.input<SchemaOf<N>> : undefined;
type Output<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer N extends SchemaName } ? z.output<SchemaOf<N>> : undefined;

export type ParamsIn<R> = Input<R, 'params'>;
export type QueryIn<R> = Input<R, 'query'>;
export type BodyIn<R> = R extends { body: 'file' } ? Blob : Input<R, 'body'>;
/** What a handler receives, parsed (defaults applied, transforms run). */
export type ParamsOut<R> = Output<R, 'params'>;
export type QueryOut<R> = Output<R, 'query'>;
export type BodyOut<R> = R extends { body: 'file' } ? Uint8Array : Output<R, 'body'>;

type SuccessSchema<R> = R extends { responses: infer S } ? S[Extract<keyof S, 200 | 201 | 204>] : undefined;
/** The answer of a route: its success schema's output, `void` for 204, `unknown` for what is not JSON. */
export type ResponseOf<R> = [SuccessSchema<R>] extends [infer N]
  ? [N] extends [SchemaName]
    ? z.output<SchemaOf<N>>
    : [N] extends [null]
      ? void
      : unknown
  : never;

/** The success status a route answers with (200 unless it declares 201 or 204). */
export function successStatus(route: RouteDeclaration): number {
  const declared = Object.keys(route.responses ?? {})
    .map(Number)
    .find((status) => status >= 200 && status < 300);
  return declared ?? 200;
}

/**
 * Whether a route honours `Idempotency-Key` (ADR 0043): the POSTs that make something (answered
 * 201) for a signed-in caller. A client may send such a request again with its key and be sure
 * one thing is made.
 */
export function takesIdempotencyKey(route: RouteDeclaration): boolean {
  return route.method === 'POST' && route.auth !== 'none' && successStatus(route) === 201;
}

/** True when every field of T is optional. */
export type AllOptional<T> = Record<never, never> extends T ? true : false;
type Part<K extends string, T> = [T] extends [undefined] ? { [P in K]?: undefined } : AllOptional<T> extends true ? { [P in K]?: T } : { [P in K]: T };
/** What a caller gives: `params`, `query` and `body` as the route declares them (required when they must be). */
export type CallInput<R> = Part<'params', ParamsIn<R>> & Part<'query', QueryIn<R>> & Part<'body', BodyIn<R>>;

const ALWAYS: readonly ErrorCode[] = ['database_unavailable', 'internal'];

/** Every code a route may answer: its own, and those of authentication, input checks and outages. */
export function errorsOf(route: RouteDeclaration): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (route.auth !== 'none') codes.add('unauthenticated').add('session_expired');
  // Refused scope of a read-only token, or a state change without its CSRF header or from another origin.
  if (route.auth === 'write' || route.method !== 'GET') codes.add('forbidden');
  if (route.params || route.query || route.body) codes.add('invalid_input');
  // A JSON body sent as anything else.
  if (route.body && route.body !== 'file') codes.add('unsupported_media_type');
  for (const code of route.errors) codes.add(code);
  // A request whose key's first request is still at work, after waiting for it a while (ADR 0043).
  if (takesIdempotencyKey(route)) codes.add('rate_limited');
  for (const code of ALWAYS) codes.add(code);
  return [...codes];
}

/**
 * The URL of a route: its path under `/api/v1` with each `:name` replaced by the encoded parameter
 * and the query's defined values after `?`. A missing parameter throws.
 */
export function urlOf<R extends RouteDeclaration>(route: R, params?: ParamsIn<R>, query?: QueryIn<R>): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/:([A-Za-z]\w*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new Error(`${route.method} ${route.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    search.set(name, String(value));
  }
  const qs = search.toString();
  return `/api/v1${path}${qs ? `?${qs}` : ''}`;
}
