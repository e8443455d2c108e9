import * as catalogue from '@cabinet/contracts';
import {
  ERROR_STATUS,
  errorsOf,
  IDEMPOTENCY_KEY_HEADER,
  takesIdempotencyKey,
  successStatus,
  ZErrorEnvelope,
  type BodyOut,
  type ParamsOut,
  type QueryOut,
  type ResponseOf,
  type RouteDeclaration,
  type SchemaName,
} from '@cabinet/contracts';
import type { SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract the route was registered from: who may call it (read by authentication), whether OpenAPI shows it. */
    route?: RouteDeclaration;
  }
}

/** A request as its route declares it: params, query and body parsed by the route's schemas. */
export type DeclaredRequest<R> = Omit<FastifyRequest, 'params' | 'query' | 'body'> & { params: ParamsOut<R>; query: QueryOut<R>; body: BodyOut<R> };

/**
 * A route's handler: it answers the declared response, which is sent with the declared success
 * status (none for 204), or sends something else itself and answers the reply (a redirect, a file, a stream).
 */
export type DeclaredHandler<R> = (req: DeclaredRequest<R>, reply: FastifyReply) => Promise<ResponseOf<R> | FastifyReply>;

const schemaNamed = (name: SchemaName): z.ZodType => catalogue[name];

/** The Fastify schema of a declaration: what validates the request and shapes the answer. */
function schemaOf(route: RouteDeclaration): FastifySchema {
  const response = Object.entries(route.responses ?? {}).filter((entry): entry is [string, SchemaName] => entry[1] !== null);
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.auth === 'none' ? { security: [] } : {}),
    ...(route.params ? { params: schemaNamed(route.params) } : {}),
    ...(route.query ? { querystring: schemaNamed(route.query) } : {}),
    ...(route.headers ? { headers: schemaNamed(route.headers) } : {}),
    ...(route.body && route.body !== 'file' ? { body: schemaNamed(route.body) } : {}),
    ...(response.length ? { response: Object.fromEntries(response.map(([status, name]) => [status, schemaNamed(name)])) } : {}),
  };
}

/** Registers a declared route: method, URL, schemas, OpenAPI tags, and who may call it, all from the declaration. */
export function route<R extends RouteDeclaration>(app: FastifyInstance, declaration: R, handler: DeclaredHandler<R>): void {
  const status = successStatus(declaration);
  app.route({
    method: declaration.method,
    url: declaration.path,
    schema: schemaOf(declaration),
    config: { route: declaration },
    handler: async (req, reply) => {
      const answer = await handler(req as unknown as DeclaredRequest<R>, reply);
      if (answer === reply || reply.sent) return reply;
      return status === 204 ? reply.code(204).send() : reply.code(status).send(answer);
    },
  });
}

/**
 * Holds a scope to its declarations: registering a route without one throws, and the server is not
 * ready while a declared route is not registered. So the contracts and the server cannot drift apart.
 */
export function holdToDeclarations(scope: FastifyInstance, declarations: readonly RouteDeclaration[]): void {
  const registered = new Set<RouteDeclaration>();
  scope.addHook('onRoute', (options) => {
    const declaration = options.config?.route;
    if (!declaration)
      throw new Error(`${String(options.method)} ${options.url} has no declaration: declare it in packages/contracts/src/routes and register it with route().`);
    registered.add(declaration);
  });
  scope.addHook('onReady', async () => {
    const missing = declarations.filter((declaration) => !registered.has(declaration));
    if (missing.length) throw new Error(`Declared but not registered: ${missing.map((d) => `${d.method} ${d.path}`).join(', ')}.`);
  });
}

/**
 * @fastify/swagger's transform: only public declarations are described, each with its success
 * answer and every error it may give (the §8 envelope, the codes named for each status).
 */
export const openApiTransform: typeof jsonSchemaTransform = (input) => {
  const declaration = (input.route.config as { route?: RouteDeclaration } | undefined)?.route;
  if (!declaration?.public) return { schema: { hide: true }, url: input.url };
  const described = jsonSchemaTransform(input);
  const byStatus = new Map<number, string[]>();
  for (const code of errorsOf(declaration)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  // The envelope is converted once and shared: converting it per route and status made the first document slow.
  const errors = Object.fromEntries([...byStatus].map(([status, codes]) => [status, { ...errorEnvelopeJson(), description: `Error: ${codes.join(', ')}` }]));
  const schema = described.schema as { response?: Record<string, unknown>; headers?: JsonObjectSchema };
  const headers = takesIdempotencyKey(declaration) ? withIdempotencyKey(schema.headers) : schema.headers;
  return { ...described, schema: { ...schema, ...(headers ? { headers } : {}), response: { ...schema.response, ...errors } } };
};

/** The name under which the document holds the §8 error envelope once, for every error answer to refer to. */
const ERROR_COMPONENT = 'Error';

interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } | undefined>>;
  components?: { schemas?: Record<string, unknown> };
}

/**
 * @fastify/swagger's transformObject: the error envelope, which every route's error answers share, is written once
 * under `components.schemas` and referred to, rather than again for each status of each route (half the document).
 */
export const openApiDocument: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  const described = document.openapiObject as OpenApiDocument;
  const ref = { $ref: `#/components/schemas/${ERROR_COMPONENT}` };
  for (const operations of Object.values(described.paths ?? {}))
    for (const operation of Object.values(operations))
      for (const [status, answer] of Object.entries(operation?.responses ?? {}))
        if (Number(status) >= 400 && answer.content?.['application/json']) answer.content['application/json'] = { schema: ref };
  const { $schema: _, ...envelope } = errorEnvelopeJson();
  return { ...document.openapiObject, components: { ...described.components, schemas: { ...described.components?.schemas, [ERROR_COMPONENT]: envelope } } };
};

interface JsonObjectSchema {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}

/** The request headers of a route that makes something, with the optional `Idempotency-Key` it honours (ADR 0043). */
const withIdempotencyKey = (headers: JsonObjectSchema | undefined): JsonObjectSchema => ({
  ...headers,
  type: 'object',
  properties: {
    ...headers?.properties,
    [IDEMPOTENCY_KEY_HEADER]: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'Optional; 1–255 visible ASCII characters, new for each thing to make (a UUID). Sent again with the same request by the same caller ' +
        'within 24 hours, it is answered with the first answer (header `Idempotent-Replayed: true`) and nothing is made again; ' +
        'with another request, `invalid_input`; while the first is still at work, the answer waits for it.',
    },
  },
});

let envelopeJson: Record<string, unknown> | undefined;
const errorEnvelopeJson = () => (envelopeJson ??= z.toJSONSchema(ZErrorEnvelope, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>);
