import { defineRoute } from '@cabinet/contracts';
import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { holdToDeclarations, route } from './route.ts';
import { responseSerializer } from './serializer.ts';

const one = defineRoute({
  method: 'GET',
  path: '/one/:id',
  tag: 't',
  summary: 'One',
  auth: 'read',
  public: true,
  params: 'ZIdParams',
  responses: { 200: 'ZEmptyTrashResult' },
  errors: [],
});
const gone = defineRoute({
  method: 'DELETE',
  path: '/one/:id',
  tag: 't',
  summary: 'Gone',
  auth: 'write',
  public: true,
  params: 'ZIdParams',
  responses: { 204: null },
  errors: [],
});

function server(checked = true) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(checked));
  return app;
}

describe('routes registered from their declarations', () => {
  it('validate the declared params and answer with the declared status', async () => {
    const app = server();
    await app.register(async (api) => {
      holdToDeclarations(api, [one, gone]);
      route(api, one, async (req) => ({ deleted: req.params.id.length }));
      route(api, gone, async () => {});
    });
    const id = '0190f5d6-0000-7000-8000-000000000000';
    expect((await app.inject({ method: 'GET', url: `/one/${id}` })).json()).toEqual({ deleted: 36 });
    expect((await app.inject({ method: 'GET', url: '/one/nope' })).statusCode).toBe(400);
    const deleted = await app.inject({ method: 'DELETE', url: `/one/${id}` });
    expect([deleted.statusCode, deleted.body]).toEqual([204, '']);
    await app.close();
  });

  it('refuse a route registered without a declaration', async () => {
    const app = server();
    const registering = app.register(async (api) => {
      holdToDeclarations(api, []);
      api.get('/undeclared', async () => ({}));
    });
    await expect(registering).rejects.toThrow('GET /undeclared has no declaration');
  });

  it('refuse to start while a declared route is not registered', async () => {
    const app = server();
    await app.register(async (api) => {
      holdToDeclarations(api, [one, gone]);
      route(api, one, async () => ({ deleted: 0 }));
    });
    await expect(app.ready()).rejects.toThrow('Declared but not registered: DELETE /one/:id');
  });

  it('write the declared properties of an answer and nothing else', async () => {
    for (const checked of [true, false]) {
      const app = server(checked);
      await app.register(async (api) => {
        holdToDeclarations(api, [one, gone]);
        route(api, one, async () => ({ deleted: 2, secret: 'not declared' }) as { deleted: number });
        route(api, gone, async () => {});
      });
      const res = await app.inject({ method: 'GET', url: '/one/0190f5d6-0000-7000-8000-000000000000' });
      expect([res.statusCode, res.body]).toEqual([200, '{"deleted":2}']);
      await app.close();
    }
  });

  it('check each answer against its schema only when told to (tests), not in production', async () => {
    const answers = async (checked: boolean) => {
      const app = server(checked);
      await app.register(async (api) => {
        holdToDeclarations(api, [one, gone]);
        route(api, one, async () => ({ deleted: 1.5 }));
        route(api, gone, async () => {});
      });
      const res = await app.inject({ method: 'GET', url: '/one/0190f5d6-0000-7000-8000-000000000000' });
      await app.close();
      return [res.statusCode, res.body];
    };
    // ZEmptyTrashResult counts what was deleted: a whole number.
    expect((await answers(true))[0]).toBe(500);
    expect(await answers(false)).toEqual([200, '{"deleted":1}']);
  });
});
