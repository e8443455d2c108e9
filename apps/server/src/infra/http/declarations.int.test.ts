import { allRoutes } from '@cabinet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../app.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const openApiPath = (path: string) => `${API_PREFIX}${path.replace(/:(\w+)/g, '{$1}')}`;

describe('the API and its declarations', () => {
  it('registers every declared route', () => {
    for (const route of allRoutes())
      expect(t.app.hasRoute({ method: route.method, url: `${API_PREFIX}${route.path}` }), `${route.method} ${route.path}`).toBe(true);
  });

  it('describes in OpenAPI exactly the public declarations, each with its error answers', async () => {
    const doc = (await (await fetch(`${t.url}${API_PREFIX}/openapi.json`)).json()) as {
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
});
