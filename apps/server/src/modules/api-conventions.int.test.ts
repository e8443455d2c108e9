import { tokensApi, ZErrorEnvelope } from '@cabinet/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../testing/browser.ts';
import { startTestApp, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
let token: string;
let readOnly: string;
beforeAll(async () => {
  t = await startTestApp();
  const { browser } = await signUp(t.url);
  token = (await browser.call(tokensApi.create, { body: { name: 'script' } })).body.token;
  readOnly = (await browser.call(tokensApi.create, { body: { name: 'reader', scopes: ['read'] } })).body.token;
});
afterAll(() => t.close());

const call = async (method: string, path: string, body?: unknown, bearer = token) => {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

describe('the API conventions', () => {
  it('answers failures with the error envelope and one entry per invalid field', async () => {
    const res = await call('POST', '/api/v1/workspaces', { name: '', slug: 'NO' });
    expect(res.status).toBe(400);
    expect(ZErrorEnvelope.parse(res.body).error.code).toBe('invalid_input');
    const fields = res.error?.details.fields.map((f: { path: string }) => f.path).sort();
    expect(fields).toEqual(['body.name', 'body.slug']);
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('answers not_found for unknown addresses, and never leaks internals', async () => {
    const res = await call('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.error?.code).toBe('not_found');
  });

  it('creates a workspace with its own roots, and refuses a taken address with a suggestion', async () => {
    const created = await call('POST', '/api/v1/workspaces', { name: 'Design team', slug: 'design-team' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Design team', slug: 'design-team', role: 'owner', quotaBytes: null, usedBytes: 0 });
    const again = await call('POST', '/api/v1/workspaces', { name: 'Design team', slug: 'design-team' });
    expect(again.status).toBe(409);
    expect(again.error?.details.suggestedName).toBe('design-team-2');
    const bySlug = await call('GET', '/api/v1/workspaces/design-team');
    expect(bySlug.body.id).toBe(created.body.id);
    const generated = await call('POST', '/api/v1/workspaces', { name: 'Design team' });
    expect(generated.body.slug).toBe('design-team-2');
  });

  it('lets a read-only token read but not change anything', async () => {
    expect((await call('GET', '/api/v1/workspaces', undefined, readOnly)).status).toBe(200);
    const write = await call('POST', '/api/v1/workspaces', { name: 'Nope' }, readOnly);
    expect(write.status).toBe(403);
    expect(write.error?.code).toBe('forbidden');
  });

  it('refuses an unknown or malformed bearer token', async () => {
    expect(await call('GET', '/api/v1/me', undefined, 'cab_unknown')).toFail('unauthenticated');
    const res = await fetch(`${t.url}/api/v1/me`, { headers: { authorization: 'Basic abc' } });
    expect(res.status).toBe(401);
  });

  it('describes itself in OpenAPI 3.1 generated from the contracts, with a reference page', async () => {
    const doc = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/api/v1/me', '/api/v1/workspaces', '/api/v1/tokens', '/api/v1/sessions', '/api/v1/tokens/{id}']) expect(doc.paths).toHaveProperty([p]);
    expect(doc.paths['/api/v1/workspaces'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('slug');
    const validation = await new Validator().validate(doc);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
    const docs = await fetch(`${t.url}/api/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('reports liveness and readiness', async () => {
    expect(await (await fetch(`${t.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${t.url}/readyz`)).json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
  });

  it('serves the browser app for its routes with a strict content security policy', async () => {
    const res = await fetch(`${t.url}/w/anything/my`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
