import { itemsApi, meApi, tokensApi, workspacesApi } from '@cabinet/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { collabClients, until } from '../../testing/collab-client.ts';
import type { Person } from '../../testing/given.ts';
import { callingRoutes, invalidFields, withToken } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { runInApp } from '../../testing/cabinet-command.ts';

const test = useTestApp();
let clients: ReturnType<typeof collabClients> | undefined;
afterAll(() => clients?.destroyAll());

const APP_PASSWORD_REFUSED = 'This is an app password: it signs in WebDAV clients at /dav/ only. Use an API token for the API.';

/** An app password of `person`'s, made as the Account page makes it. */
async function appPassword(person: Person, name = 'Finder on the laptop') {
  const res = await person.call(tokensApi.create, { body: { name, scopes: ['dav'], expiresInDays: 365 } });
  expect(res.status, JSON.stringify(res.error)).toBe(201);
  return res.body;
}

/** Calls with `token` as a script's bearer token. */
const bearer = (token: string) => callingRoutes(withToken(test.app.url, token));

describe('app passwords (API tokens with the dav scope)', () => {
  it('are made with the dav scope alone, and listed with the API tokens, each with its scopes', async () => {
    const ada = await test.given.person('Ada');
    const made = await appPassword(ada);
    expect(made).toMatchObject({ name: 'Finder on the laptop', scopes: ['dav'], lastUsedAt: null });
    expect(made.token).toMatch(/^cab_/);
    const days = (Date.parse(made.expiresAt) - Date.parse(made.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(365);
    const listed = (await ada.call(tokensApi.list)).body.items;
    expect(listed.map((t) => [t.name, t.scopes])).toEqual([
      ['Finder on the laptop', ['dav']],
      ['tests', ['read', 'write']],
    ]);
    expect(listed[0]).not.toHaveProperty('token');
  });

  it('refuse another scope beside dav, saying to make an API token instead', async () => {
    const ada = await test.given.person('Ada');
    for (const scopes of [
      ['dav', 'read'],
      ['write', 'dav'],
      ['dav', 'read', 'write'],
    ] as const) {
      const res = await ada.call(tokensApi.create, { body: { name: 'Mixed', scopes: [...scopes] } });
      expect(res).toFail('invalid_input');
      expect(invalidFields(res)).toEqual([{ path: 'body.scopes', message: 'An app password (dav) has no other scope: make an API token for read or write.' }]);
    }
    expect(await ada.call(tokensApi.create, { body: { name: 'Unknown', scopes: ['admin' as never] } })).toFail('invalid_input');
    expect((await ada.call(tokensApi.list)).body.items.map((t) => t.name)).toEqual(['tests']);
  });

  it('are refused by the API, to read as to write, while API tokens keep working', async () => {
    const ada = await test.given.person('Ada');
    const { token } = await appPassword(ada);
    for (const res of [
      await bearer(token).call(meApi.get),
      await bearer(token).call(workspacesApi.list),
      await bearer(token).call(itemsApi.get, { params: { id: ada.workspace.homeId } }),
      await bearer(token).call(tokensApi.create, { body: { name: 'Escalated' } }),
    ]) {
      expect(res).toFail('forbidden');
      expect(res.error?.message).toBe(APP_PASSWORD_REFUSED);
    }
    // Tokens for the API: read and write, and read only.
    expect((await ada.call(meApi.get)).body.via).toBe('token');
    expect((await ada.call(workspacesApi.create, { body: { name: 'Still writes' } })).status).toBe(201);
    const reader = await test.given.readOnly(ada);
    expect((await reader.call(workspacesApi.list)).status).toBe(200);
    expect(await reader.call(workspacesApi.create, { body: { name: 'Nope' } })).toFail('forbidden');
    expect((await ada.call(tokensApi.list)).body.items.map((t) => t.name)).not.toContain('Escalated');
  });

  it('are refused by the collaboration socket, where an API token opens the document', async () => {
    const ada = await test.given.person('Ada');
    const { id } = await test.given.document(ada, ada.workspace.homeId, 'Plan');
    const { token } = await appPassword(ada);
    clients ??= collabClients(test.app.url);
    const refused = clients.connect(id, token);
    const opened = clients.connect(id, ada.token);
    await until(() => refused.outcome.failed !== undefined && opened.outcome.synced, 'the app password refused and the API token synced');
    expect(refused.outcome.failed).toBe('forbidden');
    expect(refused.outcome.synced).toBe(false);
  });

  it('are revoked like API tokens: gone from the list, and no longer a valid token', async () => {
    const ada = await test.given.person('Ada');
    const made = await appPassword(ada);
    expect((await ada.call(tokensApi.revoke, { params: { id: made.id } })).status).toBe(204);
    expect((await ada.call(tokensApi.list)).body.items.map((t) => t.id)).not.toContain(made.id);
    expect(await bearer(made.token).call(meApi.get)).toFail('unauthenticated');
    expect(await ada.call(tokensApi.revoke, { params: { id: made.id } })).toFail('not_found');
  });

  it('are made by `cabinet token create --scopes dav`, which refuses dav beside another scope', async () => {
    const ada = await test.given.person('Ada');
    const { email } = (await ada.call(meApi.get)).body.user;
    const create = (scopes: string) => runInApp(test.app.ctx, 'token create', { email, name: 'rclone', scopes, days: 365 });
    const made = await create('dav');
    expect(made.code, made.err).toBe(0);
    expect(made.err).toContain('App password (for WebDAV clients at /dav/) "rclone"');
    expect(await bearer(made.out.trim()).call(meApi.get)).toFail('forbidden');
    expect((await ada.call(tokensApi.list)).body.items.find((t) => t.name === 'rclone')?.scopes).toEqual(['dav']);

    const mixed = await create('dav,read');
    expect(mixed.code).toBe(1);
    expect(mixed.err).toContain('--scopes: An app password (dav) has no other scope: make an API token for read or write.');
    expect(mixed.out).toBe('');
  });
});
