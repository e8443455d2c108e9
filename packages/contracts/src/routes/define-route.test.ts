import { describe, expect, it } from 'vitest';
import { defineAddressedRoute, defineRoute, errorsOf, successStatus, urlOf } from './define-route.ts';
import { allRoutes, commentsApi, documentsApi, filesApi, itemsApi, workspacesApi } from './index.ts';

describe('urlOf', () => {
  it('puts each parameter in the path, encoded', () => {
    expect(urlOf(commentsApi.update, { id: 'a b', commentId: 'x/y?z#' })).toBe('/api/v1/items/a%20b/comments/x%2Fy%3Fz%23');
    expect(urlOf(workspacesApi.get, { ws: 'design-team' })).toBe('/api/v1/workspaces/design-team');
  });

  it('adds the query, skipping undefined values and encoding the rest', () => {
    expect(urlOf(itemsApi.children, { ws: 'w', id: 'f' }, { limit: 200, cursor: undefined })).toBe('/api/v1/workspaces/w/items/f/children?limit=200');
    expect(urlOf(workspacesApi.members, { ws: 'w' }, { q: 'ann & bob', limit: 8 })).toBe('/api/v1/workspaces/w/members?q=ann+%26+bob&limit=8');
    expect(urlOf(filesApi.content, { id: 'i' }, { download: undefined })).toBe('/api/v1/items/i/content');
    expect(urlOf(documentsApi.export, { id: 'd' }, { format: 'pdf' })).toBe('/api/v1/items/d/export?format=pdf');
  });

  it('refuses a missing parameter rather than build a wrong address', () => {
    expect(() => urlOf(itemsApi.get, {} as { id: string })).toThrow('no value for :id');
    expect(() => urlOf(itemsApi.get, { id: '' })).toThrow('no value for :id');
  });
});

describe('the route declarations', () => {
  it('declare each method and path once', () => {
    const keys = allRoutes().map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('answer with the declared success status', () => {
    expect(successStatus(itemsApi.get)).toBe(200);
    expect(successStatus(itemsApi.create)).toBe(201);
    expect(successStatus(itemsApi.purge)).toBe(204);
    expect(successStatus(filesApi.content)).toBe(200);
  });

  it('let a read-only API token call exactly the reads', () => {
    for (const route of allRoutes()) expect(route.auth === 'write', `${route.method} ${route.path}`).toBe(route.auth !== 'none' && route.method !== 'GET');
  });

  it('add the errors of authentication and input checks to those a route names', () => {
    const route = defineRoute({
      method: 'POST',
      path: '/x/:id',
      tag: 't',
      summary: 's',
      auth: 'write',
      public: true,
      params: 'ZIdParams',
      errors: ['name_conflict'],
    });
    expect(errorsOf(route).sort()).toEqual([
      'database_unavailable',
      'forbidden',
      'internal',
      'invalid_input',
      'name_conflict',
      'session_expired',
      'unauthenticated',
    ]);
  });

  it('give a route addressed by :ws or :id its params and not_found, as if written out', () => {
    const common = { tag: 't', summary: 's', auth: 'write', public: true, body: 'ZCopyItemRequest', responses: { 201: 'ZItem' } } as const;
    expect(defineAddressedRoute({ method: 'POST', path: '/items/:id/copy', ...common, errors: ['cycle'] })).toStrictEqual(
      defineRoute({ method: 'POST', path: '/items/:id/copy', ...common, params: 'ZIdParams', errors: ['not_found', 'cycle'] }),
    );
    expect(defineAddressedRoute({ method: 'POST', path: '/workspaces/:ws/x', ...common, errors: [] }).params).toBe('ZWorkspaceParams');
    // @ts-expect-error -- two parameters: their schema is not one of these
    expect(() => defineAddressedRoute({ method: 'POST', path: '/items/:id/grants/:grantId', ...common, errors: [] })).toThrow('declare it with defineRoute');
    // @ts-expect-error -- no parameter at all
    expect(() => defineAddressedRoute({ method: 'POST', path: '/tokens', ...common, errors: [] })).toThrow('declare it with defineRoute');
  });
});
