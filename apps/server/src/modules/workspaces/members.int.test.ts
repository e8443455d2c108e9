import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let g: ReturnType<typeof given>;
beforeAll(async () => {
  t = await startTestApp();
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

describe('the member list', () => {
  it('lists the members by name, filters by part of a name or email, and is not for guests or outsiders', async () => {
    const ada = await g.person('Ada Lovelace');
    const bea = await g.person('Bea Turing');
    const cy = await g.person('Cy Guest');
    const dee = await g.person('Dee Outside');
    await g.membership(bea, ada.workspace.id, 'member');
    await g.membership(cy, ada.workspace.id, 'guest');
    const all = await bea.call('GET', `/workspaces/${ada.workspace.id}/members`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((m: { name: string; role: string }) => [m.name, m.role])).toEqual([
      ['Ada Lovelace', 'owner'],
      ['Bea Turing', 'member'],
      ['Cy Guest', 'guest'],
    ]);
    expect((await ada.call('GET', `/workspaces/${ada.workspace.id}/members?q=tur`)).body.items.map((m: { userId: string }) => m.userId)).toEqual([bea.id]);
    expect((await ada.call('GET', `/workspaces/${ada.workspace.id}/members?q=%25`)).body.items).toEqual([]);
    expect((await ada.call('GET', `/workspaces/${ada.workspace.id}/members?limit=1`)).body.items).toHaveLength(1);
    expect((await cy.call('GET', `/workspaces/${ada.workspace.id}/members`)).body.error.code).toBe('forbidden');
    expect((await dee.call('GET', `/workspaces/${ada.workspace.id}/members`)).body.error.code).toBe('not_found');
    expect((await ada.call('GET', `/workspaces/${ada.workspace.id}/members?limit=0`)).body.error.code).toBe('invalid_input');
  });
});
