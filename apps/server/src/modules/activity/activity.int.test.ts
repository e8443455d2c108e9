import {
  activityApi,
  authApi,
  grantsApi,
  groupsApi,
  itemsApi,
  linksApi,
  meApi,
  membersApi,
  tokensApi,
  urlOf,
  workspacesApi,
  type TWorkspaceActivityQuery,
} from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../testing/browser.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { csvCell, pruneActivity } from './activity.service.ts';

const DAY = 24 * 60 * 60_000;

/** The audit log, an item's history, their CSV export, what is recorded of accounts and tokens, and pruning by age. */
describe('activity', () => {
  const test = useTestApp();

  const accountRows = (userId: string, action: string) =>
    test.app.ctx.db.selectFrom('activity_events').selectAll().where('actor_user_id', '=', userId).where('action', '=', action).orderBy('id').execute();

  /** A workspace of Ada's with an admin, a member, a guest (shared one folder) and an outsider. */
  async function team() {
    const g = test.given;
    const ada = await g.person('Ada');
    const [admin, member, guest, outsider] = [await g.person('Alan'), await g.person('Mia'), await g.person('Gus'), await g.person('Olga')];
    const ws = ada.workspace.id;
    await g.membership(admin, ws, 'admin');
    await g.membership(member, ws, 'member');
    await g.membership(guest, ws, 'guest');
    const folder = await g.folder(ada, ada.workspace.rootId, 'Plans');
    await g.grant(folder.id, { user: guest }, 'viewer');
    return { g, ada, admin, member, guest, outsider, ws, folder };
  }

  it('answers the audit log to the owner and admins only, newest first, with who, what, where and the item', async () => {
    const { ada, admin, member, guest, outsider, ws, folder } = await team();
    const headers = { 'user-agent': 'Audit tests/2.0' };
    await ada.call(itemsApi.update, { params: { id: folder.id }, body: { name: 'Plans 2027' } }, { headers: headers });

    const log = await ada.call(activityApi.workspace, { params: { ws } });
    expect(log.status).toBe(200);
    const renamed = log.body.items[0]!;
    expect(renamed).toMatchObject({
      action: 'item.renamed',
      actor: { kind: 'token', id: ada.id, name: 'Ada' },
      item: { id: folder.id, name: 'Plans 2027', kind: 'folder' },
      userAgent: 'Audit tests/2.0',
      data: { name: 'Plans 2027', previousName: 'Plans' },
    });
    expect(renamed.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(renamed.actor.email).toContain('@example.com');
    expect(renamed.data.parentIds).toBeUndefined();
    const ids = log.body.items.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    expect((await admin.call(activityApi.workspace, { params: { ws } })).status).toBe(200);
    expect(await member.call(activityApi.workspace, { params: { ws } })).toFail('forbidden');
    expect(await guest.call(activityApi.workspace, { params: { ws } })).toFail('forbidden');
    expect(await outsider.call(activityApi.workspace, { params: { ws } })).toFail('not_found');
  });

  it('filters by person, action, item and dates, and pages by cursor', async () => {
    const { g, ada, admin, ws, folder } = await team();
    const other = await g.folder(ada, ada.workspace.rootId, 'Other');
    await admin.call(itemsApi.update, { params: { id: folder.id }, body: { name: 'By the admin' } });
    await ada.call(itemsApi.update, { params: { id: other.id }, body: { name: 'By Ada' } });
    await ada.call(itemsApi.trash, { params: { id: other.id } });

    const q = async (query: TWorkspaceActivityQuery) => (await ada.call(activityApi.workspace, { params: { ws }, query })).body;
    const renames = await q({ action: 'item.renamed' });
    expect(renames.items.map((e) => e.data.name)).toEqual(['By Ada', 'By the admin']);
    const byAdmin = await q({ actorId: admin.id });
    expect(byAdmin.items.every((e) => e.actor.id === admin.id)).toBe(true);
    expect(byAdmin.items.map((e) => e.action)).toContain('item.renamed');
    const aboutOther = await q({ itemId: other.id });
    expect(aboutOther.items.map((e) => e.action)).toEqual(['item.trashed', 'item.renamed', 'item.created']);
    const today = new Date().toISOString().slice(0, 10);
    expect((await q({ itemId: other.id, after: today, before: today })).items).toHaveLength(3);
    expect((await q({ itemId: other.id, before: '2000-01-01' })).items).toHaveLength(0);
    expect((await q({ itemId: other.id, after: new Date(Date.now() + DAY).toISOString() })).items).toHaveLength(0);
    // No declaration allows an action Cabinet does not record: sent as it is.
    expect(await ada.raw('GET', `/workspaces/${ws}/activity?action=item.exploded`)).toFail('invalid_input');

    // Pages of two, newest first, with no entry twice and none left out.
    const all = (await q({ itemId: other.id })).items.map((e) => e.id);
    const first = await q({ itemId: other.id, limit: 2 });
    expect(first.items.map((e) => e.id)).toEqual(all.slice(0, 2));
    expect(first.nextCursor).toBeTruthy();
    const second = await q({ itemId: other.id, limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((e) => e.id)).toEqual(all.slice(2));
    expect(second.nextCursor).toBeNull();
    expect(await ada.call(activityApi.workspace, { params: { ws }, query: { cursor: 'nonsense!' } })).toFail('invalid_input');

    // An item deleted forever keeps its name in the log, from the record.
    expect((await ada.call(itemsApi.purge, { params: { id: other.id } })).status).toBe(204);
    const gone = await q({ itemId: other.id });
    expect(gone.items[0]).toMatchObject({ action: 'item.deleted', item: { id: other.id, name: 'By Ada', kind: 'folder' } });
  });

  it("answers an item's history to whoever may see it, with addresses only for the owner and admins", async () => {
    const { ada, guest, outsider, member, folder } = await team();
    await ada.call(itemsApi.update, { params: { id: folder.id }, body: { name: 'Plans v2' } });
    const seen = await guest.call(activityApi.item, { params: { id: folder.id } });
    expect(seen.status).toBe(200);
    expect(seen.body.items.map((e) => e.action)).toEqual(['item.renamed', 'item.created']);
    expect(seen.body.items.every((e) => e.ip === null && e.userAgent === null)).toBe(true);
    expect((await member.call(activityApi.item, { params: { id: folder.id } })).body.items[0]?.ip).toBeNull();
    expect((await ada.call(activityApi.item, { params: { id: folder.id } })).body.items[0]?.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(await outsider.call(activityApi.item, { params: { id: folder.id } })).toFail('not_found');
    // Who it was shared with, and its links, only for those who may see who has access; no addresses for a guest.
    expect((await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'workspace' }, role: 'commenter' } })).status).toBe(201);
    expect((await ada.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).status).toBe(201);
    const byGuest = (await guest.call(activityApi.item, { params: { id: folder.id } })).body.items;
    expect(byGuest.map((e) => e.action)).toEqual(['item.renamed', 'item.created']);
    expect(byGuest.every((e) => e.actor.email === null)).toBe(true);
    const byAda = (await ada.call(activityApi.item, { params: { id: folder.id } })).body.items;
    expect(byAda.map((e) => e.action)).toEqual(['link.created', 'item.shared', 'item.renamed', 'item.created']);
    expect(byAda[0]!.actor.email).toMatch(/^ada\./);
    // Only events about that item.
    const other = await test.given.folder(ada, ada.workspace.rootId, 'Unrelated');
    expect((await ada.call(activityApi.item, { params: { id: folder.id } })).body.items.some((e) => e.item?.id === other.id)).toBe(false);
  });

  it('names whom each entry is about: people put in and taken out of groups, given a role or removed, and whom an item was shared with', async () => {
    const { ada, member, guest, ws, folder } = await team();
    const group = (await ada.call(groupsApi.create, { params: { ws }, body: { name: 'Design' } })).body;
    expect((await ada.call(groupsApi.addMembers, { params: { ws, groupId: group.id }, body: { userIds: [member.id] } })).status).toBe(200);
    expect((await ada.call(groupsApi.removeMember, { params: { ws, groupId: group.id, userId: member.id } })).status).toBe(204);
    expect((await ada.call(membersApi.update, { params: { ws, userId: member.id }, body: { role: 'admin' } })).status).toBe(200);
    const toGroup = await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group.id }, role: 'editor' } });
    expect((await ada.call(grantsApi.remove, { params: { id: folder.id, grantId: toGroup.body.id } })).status).toBe(204);
    expect((await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'workspace' }, role: 'viewer' } })).status).toBe(201);
    expect((await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: member.id }, role: 'editor' } })).status).toBe(
      201,
    );
    expect((await ada.call(membersApi.remove, { params: { ws, userId: guest.id }, query: { filesTo: ada.id } })).status).toBe(204);

    const log = (await ada.call(activityApi.workspace, { params: { ws } })).body.items;
    const about = (action: string) => log.filter((e) => e.action === action).map((e) => e.subject);
    const mia = { kind: 'user', id: member.id, name: 'Mia', email: expect.stringContaining('@example.com') };
    expect(about('group.member_added')).toEqual([mia]);
    expect(about('group.member_removed')).toEqual([mia]);
    expect(about('member.role_changed')).toEqual([mia]);
    expect(about('member.removed')).toEqual([{ kind: 'user', id: guest.id, name: 'Gus', email: expect.stringContaining('@example.com') }]);
    expect(about('item.shared')).toEqual([
      mia,
      { kind: 'workspace', id: ws, name: null, email: null },
      { kind: 'group', id: group.id, name: 'Design', email: null },
      { kind: 'group', id: group.id, name: 'Design', email: null },
    ]);
    expect(about('item.renamed')).toEqual([]);
    expect(log.find((e) => e.action === 'item.created')?.subject).toBeNull();
    // Named as they are now: a group renamed since is read under its new name.
    await ada.call(groupsApi.rename, { params: { ws, groupId: group.id }, body: { name: 'Product design' } });
    const renamed = (await ada.call(activityApi.workspace, { params: { ws }, query: { action: 'item.shared' } })).body.items;
    expect(renamed[2]!.subject).toMatchObject({ kind: 'group', name: 'Product design' });
    // An item's history names them too.
    const history = (await ada.call(activityApi.item, { params: { id: folder.id } })).body.items;
    expect(history.filter((e) => e.action === 'item.shared').map((e) => e.subject?.name)).toEqual(['Mia', null, 'Product design', 'Product design']);
  });

  it('exports the filtered log as CSV, with cells a spreadsheet would run as formulas made harmless', async () => {
    const { ada, member, ws } = await team();
    const risky = await test.given.folder(ada, ada.workspace.rootId, '=HYPERLINK("evil","x")');
    await ada.call(itemsApi.update, { params: { id: risky.id }, body: { name: '@SUM(1+1)' } });

    // The CSV as sent, with its headers (`call` types a success as a page of entries).
    const res = await fetch(`${test.app.url}${urlOf(activityApi.workspace, { ws }, { format: 'csv', itemId: risky.id })}`, {
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+-activity-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('"Time","Actor","Actor email","Actor kind","Action","Item id","Item","IP address","User agent","Details","Subject","Subject email"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"item.renamed"');
    expect(lines[1]).toContain(`"${risky.id}","'@SUM(1+1)"`);
    expect(lines.join('\n')).not.toMatch(/(^|,)"[=+\-@]/m);

    expect(await member.call(activityApi.workspace, { params: { ws }, query: { format: 'csv' } })).toFail('forbidden');
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('a "quoted", word')).toBe('"a ""quoted"", word"');
    expect(csvCell(null)).toBe('""');
  });

  it('records sign-ins, sign-outs and API tokens made and revoked in each workspace the person is a member of', async () => {
    const { browser } = await signUp(test.app.url, { name: 'Signe' });
    const me = (await browser.call(meApi.get)).body;
    const userId = me.user.id;
    const started = await accountRows(userId, 'session.started');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ actor_kind: 'user', item_id: null });
    expect(started[0]!.ip).toMatch(/127\.0\.0\.1|::1/);

    const created = await browser.call(tokensApi.create, { body: { name: 'Backup script', scopes: ['read'] } });
    expect(created.status).toBe(201);
    expect((await browser.call(tokensApi.revoke, { params: { id: created.body.id } })).status).toBe(204);
    expect((await accountRows(userId, 'token.created'))[0]!.data).toMatchObject({ tokenId: created.body.id, tokenName: 'Backup script' });
    expect((await accountRows(userId, 'token.revoked'))[0]!.data).toMatchObject({ tokenId: created.body.id });
    expect(JSON.stringify(await accountRows(userId, 'token.created'))).not.toContain(created.body.token);

    expect((await browser.call(authApi.signOut)).status).toBe(200);
    expect(await accountRows(userId, 'session.ended')).toHaveLength(1);

    // The owner reads them in the audit log, as "signed in" with no item.
    const ws = started[0]!.workspace_id;
    const g = test.given;
    const owner = await g.person('Admin reader');
    await g.membership(owner, ws, 'admin');
    const log = await owner.call(activityApi.workspace, { params: { ws }, query: { action: 'session.started' } });
    expect(log.body.items).toEqual([
      expect.objectContaining({ action: 'session.started', item: null, actor: expect.objectContaining({ id: userId, name: 'Signe' }) }),
    ]);
  });

  it("records a token's use at most once an hour, when its last use is noted", async () => {
    const g = test.given;
    const ada = await g.person('Tokens');
    const tokenId = (await test.app.ctx.db.selectFrom('api_tokens').select('id').where('user_id', '=', ada.id).executeTakeFirstOrThrow()).id;
    const used = async () => (await accountRows(ada.id, 'token.used')).length;
    const call = () => ada.call(workspacesApi.get, { params: { ws: ada.workspace.id } });

    // A workspace where Ada is only a guest hears nothing of her account.
    const host = await g.person('Host');
    await g.membership(ada, host.workspace.id, 'guest');
    await Promise.all([call(), call(), call()]);
    expect(await used()).toBe(1);
    const [row] = await accountRows(ada.id, 'token.used');
    expect(row).toMatchObject({ actor_kind: 'token', actor_token_id: tokenId, workspace_id: ada.workspace.id, data: { tokenId } });

    // "Last used" is noted again a minute later; the use is not recorded again within the hour.
    await test.app.ctx.db
      .updateTable('api_tokens')
      .set({ last_used_at: new Date(Date.now() - 2 * 60_000) })
      .where('id', '=', tokenId)
      .execute();
    await call();
    expect(await used()).toBe(1);
    const touched = await test.app.ctx.db.selectFrom('api_tokens').select(['last_used_at']).where('id', '=', tokenId).executeTakeFirstOrThrow();
    expect(Date.now() - touched.last_used_at!.getTime()).toBeLessThan(60_000);

    // An hour on, it is.
    await test.app.ctx.db
      .updateTable('api_tokens')
      .set({ last_used_at: new Date(Date.now() - 2 * 60_000), use_recorded_at: new Date(Date.now() - 61 * 60_000) })
      .where('id', '=', tokenId)
      .execute();
    await call();
    expect(await used()).toBe(2);
  });

  it('deletes entries older than the retention period in bounded batches, and keeps everything at 0', async () => {
    const g = test.given;
    const ada = await g.person('Retention');
    const ws = ada.workspace.id;
    const old = new Date(Date.now() - 400 * DAY);
    for (let i = 0; i < 5; i++) {
      await test.app.ctx.db
        .insertInto('activity_events')
        .values({ workspace_id: ws, actor_kind: 'system', action: 'item.created', item_id: null, data: JSON.stringify({ name: `old ${i}` }), created_at: old })
        .execute();
    }
    await g.folder(ada, ada.workspace.rootId, 'Recent');
    const count = async () =>
      (
        await test.app.ctx.db
          .selectFrom('activity_events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('workspace_id', '=', ws)
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await count());

    expect(await pruneActivity(test.app.ctx.db, 0)).toBe(0);
    expect(Number(await count())).toBe(before);
    // Other tests' rows are recent: only these five are past 365 days.
    expect(await pruneActivity(test.app.ctx.db, 365, { batch: 2 })).toBe(5);
    expect(Number(await count())).toBe(before - 5);
    const log = await ada.call(activityApi.workspace, { params: { ws }, query: { action: 'item.created' } });
    expect(log.body.items.map((e) => e.data.name)).toEqual(['Recent']);
  });
});
