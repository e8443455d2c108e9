import { configApi, meApi, tokensApi, workspacesApi, ZErrorEnvelope } from '@cabinet/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../testing/browser.ts';
import { anonymous, callingRoutes, invalidFields, withToken } from '../testing/route-call.ts';
import { useTestApp } from '../testing/test-app.ts';

const test = useTestApp();
let token: string;
let readOnly: string;
beforeAll(async () => {
  const { browser } = await signUp(test.app.url);
  token = (await browser.call(tokensApi.create, { body: { name: 'script' } })).body.token;
  readOnly = (await browser.call(tokensApi.create, { body: { name: 'reader', scopes: ['read'] } })).body.token;
});

/** A script calling with an API token (the one that may write unless another is given). */
const script = (bearer = token) => callingRoutes(withToken(test.app.url, bearer));
/** What the description is read for here (a type, not an interface: the validator takes any record). */
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation | undefined> & { post?: Operation }>;
  components?: { schemas?: Record<string, unknown> };
};
type Operation = {
  requestBody?: { content: Record<string, { schema: { properties?: object } }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

describe('the API conventions', () => {
  it('answers failures with the error envelope and one entry per invalid field', async () => {
    const res = await script().call(workspacesApi.create, { body: { name: '', slug: 'NO' } });
    expect(res.status).toBe(400);
    expect(ZErrorEnvelope.parse(res.body).error.code).toBe('invalid_input');
    const fields = invalidFields(res)
      .map((f) => f.path)
      .sort();
    expect(fields).toEqual(['body.name', 'body.slug']);
    expect(res.error?.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers not_found for unknown addresses, and never leaks internals', async () => {
    // Raw: an address no route declares.
    expect(await script().raw('GET', '/nothing-here')).toFail('not_found');
  });

  it('creates a workspace with its own roots, and refuses a taken address with a suggestion', async () => {
    const created = await script().call(workspacesApi.create, { body: { name: 'Design team', slug: 'design-team' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Design team', slug: 'design-team', role: 'owner', quotaBytes: null, usedBytes: 0 });
    const again = await script().call(workspacesApi.create, { body: { name: 'Design team', slug: 'design-team' } });
    expect(again.status).toBe(409);
    expect(again.error?.details?.suggestedName).toBe('design-team-2');
    const bySlug = await script().call(workspacesApi.get, { params: { ws: 'design-team' } });
    expect(bySlug.body.id).toBe(created.body.id);
    const generated = await script().call(workspacesApi.create, { body: { name: 'Design team' } });
    expect(generated.body.slug).toBe('design-team-2');
  });

  it('lets a read-only token read but not change anything', async () => {
    expect((await script(readOnly).call(workspacesApi.list)).status).toBe(200);
    expect(await script(readOnly).call(workspacesApi.create, { body: { name: 'Nope' } })).toFail('forbidden');
  });

  it('refuses an unknown or malformed bearer token', async () => {
    expect(await script('cab_unknown').call(meApi.get)).toFail('unauthenticated');
    const res = await callingRoutes(anonymous(test.app.url)).call(meApi.get, {}, { headers: { authorization: 'Basic abc' } });
    expect(res.status).toBe(401);
  });

  it('describes itself in OpenAPI 3.1 generated from the contracts, with a reference page', async () => {
    const doc = (await callingRoutes(anonymous(test.app.url)).call(configApi.openApi)).body as OpenApiDocument;
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/api/v1/me', '/api/v1/workspaces', '/api/v1/tokens', '/api/v1/sessions', '/api/v1/tokens/{id}']) expect(doc.paths).toHaveProperty([p]);
    expect(doc.paths['/api/v1/workspaces']?.post?.requestBody?.content['application/json']?.schema.properties).toHaveProperty('slug');
    const validation = await new Validator().validate(doc);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
    // The error envelope is described once and every error answer refers to it.
    const errors = Object.values(doc.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => Object.entries(operation?.responses ?? {}).filter(([status]) => Number(status) >= 400)),
    );
    expect(errors.length).toBeGreaterThan(100);
    for (const [, answer] of errors) expect(answer.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components?.schemas?.Error).toMatchObject({ type: 'object', required: ['error'] });
    const docs = await fetch(`${test.app.url}/api/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('tells keep-alive clients to give an idle connection up well before the server closes it', async () => {
    // Told the server's own time, a client reused a connection the server was closing at that moment, and its request was
    // reset: the tree benchmark's first listing after a minute of setup on PGlite (ADR 0049).
    const res = await script().call(meApi.get);
    const advertised = Number(/^timeout=(\d+)$/.exec(res.headers.get('keep-alive') ?? '')?.[1]);
    expect(advertised).toBeGreaterThan(0);
    expect(advertised * 1000).toBeLessThanOrEqual(test.app.app.server.keepAliveTimeout - 10_000);
  });

  it('reports liveness and readiness', async () => {
    expect(await (await fetch(`${test.app.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${test.app.url}/readyz`)).json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
  });

  it('serves the browser app for its routes with a strict content security policy', async () => {
    const res = await fetch(`${test.app.url}/w/anything/my`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
