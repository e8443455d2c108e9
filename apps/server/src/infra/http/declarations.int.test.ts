import { allRoutes, configApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../app.ts';
import { anonymous, callingRoutes } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp();

const openApiPath = (path: string) => `${API_PREFIX}${path.replace(/:(\w+)/g, '{$1}')}`;

describe('the API and its declarations', () => {
  it('registers every declared route', () => {
    for (const route of allRoutes())
      expect(test.app.app.hasRoute({ method: route.method, url: `${API_PREFIX}${route.path}` }), `${route.method} ${route.path}`).toBe(true);
  });

  it('describes in OpenAPI exactly the public declarations, each with its error answers', async () => {
    // Its route declares no answer body (it is the description of the others): read as the shape looked at here.
    const doc = (await callingRoutes(anonymous(test.app.url)).call(configApi.openApi)).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const described = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const declared = allRoutes()
      .filter((route) => route.public)
      .map((route) => `${route.method} ${openApiPath(route.path)}`);
    expect(described.sort()).toEqual(declared.sort());
    const rename = doc.paths[openApiPath('/items/:id')]!.patch!;
    expect(Object.keys(rename.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '412', '415', '500', '503']);
  });

  it('documents the Idempotency-Key header on the calls that make something, and on no other', async () => {
    const doc = (await callingRoutes(anonymous(test.app.url)).call(configApi.openApi)).body as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean }[]; responses: Record<string, unknown> }>>;
    };
    const keyOf = (path: string, method: string) =>
      doc.paths[openApiPath(path)]![method]!.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
    for (const path of ['/items/:id/links', '/workspaces/:ws/items', '/items/:id/grants']) {
      expect(keyOf(path, 'post'), path).toMatchObject({ required: false });
      expect(doc.paths[openApiPath(path)]!.post!.responses).toHaveProperty('429');
    }
    expect(keyOf('/items/:id', 'patch')).toBeUndefined();
    expect(keyOf('/items/:id/trash', 'post')).toBeUndefined();
  });
});
