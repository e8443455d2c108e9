import { filesApi, itemsApi, linksApi, publicLinksApi, type TCreateLinkRequest } from '@cabinet/contracts';
import { documentUpdate, fromMarkdown } from '@cabinet/doc-schema/server';
import { describe, expect, it } from 'vitest';
import { deriveKey, encrypt, randomToken } from '../../lib/crypto.ts';
import { storeDocument } from '../documents/index.ts';
import type { Person } from '../../testing/given.ts';
import { linkVisitor } from '../../testing/link-visitor.ts';
import { callingRoutes, invalidFields, type Answer } from '../../testing/route-call.ts';
import { startTestApp, useTestApp } from '../../testing/test-app.ts';

// Behind a proxy, so each visitor's address can be told apart (X-Forwarded-For).
const test = useTestApp({ LOG_LEVEL: 'error', TRUST_PROXY: 'true' });

const tokenOf = (url: string) => url.split('/s/')[1]!;

/** A browser without an account, from `ip`. */
const visitor = (ip?: string) => linkVisitor(test.app.url, ip);

async function makeLink(person: Person, itemId: string, body: Omit<TCreateLinkRequest, 'kind'> = {}) {
  const res = await person.call(linksApi.create, { params: { id: itemId }, body: { kind: 'view', ...body } });
  if (res.status !== 201 || !res.body.url) throw new Error(`no link: ${JSON.stringify(res.error)}`);
  return { ...res.body, url: res.body.url };
}

describe('making and managing links', () => {
  it('answers each role by its ability: managers make, change and revoke; others are refused or see nothing', async () => {
    const owner = await test.given.person('Owner');
    const [admin, member, guest, managerGuest, outsider] = (await Promise.all(
      ['Admin', 'Member', 'Guest', 'Manager guest', 'Outsider'].map((n) => test.given.person(n)),
    )) as [Person, Person, Person, Person, Person];
    await test.given.membership(admin, owner.workspace.id, 'admin');
    await test.given.membership(member, owner.workspace.id, 'member');
    await test.given.membership(guest, owner.workspace.id, 'guest');
    await test.given.membership(managerGuest, owner.workspace.id, 'guest');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Press kit');
    await test.given.grant(folder.id, { user: guest }, 'viewer');
    await test.given.grant(folder.id, { user: managerGuest }, 'manager');

    const created = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', downloadAllowed: false } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      itemId: folder.id,
      kind: 'view',
      state: 'active',
      expiresAt: null,
      hasPassword: false,
      downloadAllowed: false,
      views: 0,
      downloads: 0,
      createdBy: { id: owner.id, name: 'Owner' },
    });
    expect(created.body.url).toMatch(new RegExp(`^${test.app.ctx.env.PUBLIC_URL}/s/[A-Za-z0-9_-]{40,}$`));
    expect((await admin.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).status).toBe(201);
    expect((await managerGuest.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).status).toBe(201);

    // A member edits in the shared root but does not manage it; a guest viewer sees it; an outsider does not.
    for (const [who, status] of [
      [member, 403],
      [guest, 403],
      [outsider, 404],
    ] as const) {
      expect((await who.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).status).toBe(status);
      expect((await who.call(linksApi.list, { params: { id: folder.id } })).status).toBe(status);
      expect((await who.call(linksApi.update, { params: { id: folder.id, linkId: created.body.id }, body: { downloadAllowed: true } })).status).toBe(status);
      expect((await who.call(linksApi.revoke, { params: { id: folder.id, linkId: created.body.id } })).status).toBe(status);
    }
    // A token that may only read lists links but makes none.
    const reader = await test.given.readOnly(owner);
    expect((await reader.call(linksApi.list, { params: { id: folder.id } })).body.items).toHaveLength(3);
    expect((await reader.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).status).toBe(403);
    // A visitor without an account is no one here.
    const v = visitor();
    expect((await v.call(linksApi.list, { params: { id: folder.id } })).status).toBe(401);

    const listed = (await owner.call(linksApi.list, { params: { id: folder.id } })).body.items;
    expect(listed).toHaveLength(3);
    // Its managers can copy the address again later.
    expect(listed.find((l) => l.id === created.body.id)?.url).toBe(created.body.url);
    const stored = await test.app.ctx.db
      .selectFrom('share_links')
      .select(['token_hash', 'token_sealed'])
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_sealed).not.toContain(tokenOf(created.body.url!));

    const changed = await admin.call(linksApi.update, {
      params: { id: folder.id, linkId: created.body.id },
      body: { password: 'correct horse', downloadAllowed: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ hasPassword: true, downloadAllowed: true });
    expect((await owner.call(linksApi.update, { params: { id: folder.id, linkId: created.body.id }, body: { password: null } })).body.hasPassword).toBe(false);
    // A link's id is answered only on its own item.
    const other = await test.given.folder(owner, owner.workspace.rootId, 'Other');
    expect((await owner.call(linksApi.update, { params: { id: other.id, linkId: created.body.id }, body: { downloadAllowed: true } })).status).toBe(404);
    expect((await owner.call(linksApi.revoke, { params: { id: other.id, linkId: created.body.id } })).status).toBe(404);

    expect((await managerGuest.call(linksApi.revoke, { params: { id: folder.id, linkId: created.body.id } })).status).toBe(204);
    expect((await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: created.body.id } })).status).toBe(204);
    const revoked = (await owner.call(linksApi.list, { params: { id: folder.id } })).body.items.find((l) => l.id === created.body.id);
    expect(revoked?.state).toBe('revoked');
    const again = await owner.call(linksApi.update, { params: { id: folder.id, linkId: created.body.id }, body: { downloadAllowed: false } });
    expect(again).toFail('link_expired');
    expect(again.error?.details).toMatchObject({ reason: 'revoked' });

    const actions = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'actor_user_id'])
      .where('item_id', '=', folder.id)
      .where('action', 'like', 'link.%')
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['link.created', 'link.created', 'link.created', 'link.updated', 'link.updated', 'link.revoked']);
  });

  it('refuses bad input: a short password, an expiry in the past, a kind it does not make', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Drop');
    // Sent raw: some of these bodies are of types the declaration does not allow.
    const bad = async (body: Record<string, unknown>, path: string) => {
      const res = await owner.raw('POST', `/items/${folder.id}/links`, body);
      expect(res).toFail('invalid_input');
      expect(invalidFields(res).map((f) => f.path)).toContain(path);
    };
    await bad({ kind: 'view', password: 'short' }, 'body.password');
    await bad({ kind: 'view', expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'body.expiresAt');
    await bad({ kind: 'view', expiresAt: 'tomorrow' }, 'body.expiresAt');
    await bad({ kind: 'everything' }, 'body.kind');
    await bad({ kind: 'view', downloadAllowed: 'yes' }, 'body.downloadAllowed');
    const link = await makeLink(owner, folder.id);
    expect((await owner.call(linksApi.update, { params: { id: folder.id, linkId: link.id }, body: {} })).status).toBe(400);
    expect((await owner.call(linksApi.update, { params: { id: 'not-an-id', linkId: link.id }, body: { downloadAllowed: true } })).status).toBe(400);
  });
});

describe('the workspace link policy and list', () => {
  it('is changed by admins only, and holds for every new link', async () => {
    const owner = await test.given.person('Owner');
    const [admin, member, guest, outsider] = (await Promise.all(['Admin', 'Member', 'Guest', 'Outsider'].map((n) => test.given.person(n)))) as [
      Person,
      Person,
      Person,
      Person,
    ];
    await test.given.membership(admin, owner.workspace.id, 'admin');
    await test.given.membership(member, owner.workspace.id, 'member');
    await test.given.membership(guest, owner.workspace.id, 'guest');
    const ws = owner.workspace.id;
    // A guest is in the workspace while something in it is shared with them.
    await test.given.grant((await test.given.folder(owner, owner.workspace.rootId, 'For the guest')).id, { user: guest }, 'viewer');
    expect((await member.call(linksApi.policy, { params: { ws } })).body).toEqual({ linksAllowed: true, passwordRequired: false, maxLifetimeDays: null });
    expect((await outsider.call(linksApi.policy, { params: { ws } })).status).toBe(404);
    for (const [who, status] of [
      [member, 403],
      [guest, 403],
      [outsider, 404],
    ] as const) {
      expect((await who.call(linksApi.updatePolicy, { params: { ws }, body: { linksAllowed: false } })).status).toBe(status);
      expect((await who.call(linksApi.workspace, { params: { ws } })).status).toBe(status);
    }
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Policy');

    expect((await admin.call(linksApi.updatePolicy, { params: { ws }, body: { linksAllowed: false } })).body.linksAllowed).toBe(false);
    const refused = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } });
    expect(refused.status).toBe(403);

    await owner.call(linksApi.updatePolicy, { params: { ws }, body: { linksAllowed: true, passwordRequired: true, maxLifetimeDays: 7 } });
    const noPassword = await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } });
    expect(noPassword).toFail('invalid_input');
    expect(invalidFields(noPassword)[0]?.path).toBe('body.password');
    const tooLong = await owner.call(linksApi.create, {
      params: { id: folder.id },
      body: {
        kind: 'view',
        password: 'long enough',
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    expect(tooLong).toFail('invalid_input');
    expect(invalidFields(tooLong)[0]?.path).toBe('body.expiresAt');
    // Without an expiry, the link lives as long as the policy allows.
    const made = await makeLink(owner, folder.id, { password: 'long enough' });
    const expiresAt = (await owner.call(linksApi.list, { params: { id: folder.id } })).body.items[0]?.expiresAt;
    expect(expiresAt).toBeTypeOf('string');
    expect(new Date(expiresAt!).getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    expect(new Date(expiresAt!).getTime()).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
    expect((await owner.call(linksApi.update, { params: { id: folder.id, linkId: made.id }, body: { expiresAt: null } })).status).toBe(400);
    expect((await owner.call(linksApi.update, { params: { id: folder.id, linkId: made.id }, body: { password: null } })).status).toBe(400);
    expect((await owner.call(linksApi.updatePolicy, { params: { ws }, body: { maxLifetimeDays: 0 } })).status).toBe(400);

    // The admins' list: every live link, with its item, who made it and its counts; not revoked ones.
    const second = await makeLink(owner, folder.id, { password: 'long enough' });
    await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: second.id } });
    const list = await admin.call(linksApi.workspace, { params: { ws } });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      id: made.id,
      item: { id: folder.id, name: 'Policy', kind: 'folder' },
      createdBy: { id: owner.id },
      views: 0,
      downloads: 0,
      hasPassword: true,
    });

    // Admins revoke any link from that list, even one to a member's My files, where they have no role.
    await test.app.ctx.db
      .updateTable('workspaces')
      .set({ settings: JSON.stringify({}) })
      .where('id', '=', ws)
      .execute();
    const home = (
      await test.app.ctx.db
        .selectFrom('memberships')
        .select('home_item_id')
        .where('workspace_id', '=', ws)
        .where('user_id', '=', member.id)
        .executeTakeFirstOrThrow()
    ).home_item_id!;
    const own = await test.given.folder(member, home, 'Mine', ws);
    const members = await makeLink(member, own.id);
    expect((await admin.call(linksApi.revoke, { params: { id: own.id, linkId: members.id } })).status).toBe(404);
    for (const [who, status] of [
      [member, 403],
      [guest, 403],
      [outsider, 404],
    ] as const) {
      expect((await who.call(linksApi.revokeInWorkspace, { params: { ws, linkId: members.id } })).status).toBe(status);
    }
    expect((await admin.call(linksApi.revokeInWorkspace, { params: { ws, linkId: members.id } })).status).toBe(204);
    expect(await visitor().call(publicLinksApi.open, { params: { token: tokenOf(members.url) } })).toFail('link_expired');
    expect((await admin.call(linksApi.revokeInWorkspace, { params: { ws, linkId: '0190a0a0-0000-7000-8000-000000000000' } })).status).toBe(404);
  });
});

describe('a manager who is not an admin', () => {
  it('shares by link only within the policy: none when links are off, a password when one is needed, no longer than the maximum, and cannot change the policy', async () => {
    const owner = await test.given.person('Owner');
    const [member, guest] = (await Promise.all(['Member', 'Guest'].map((n) => test.given.person(n)))) as [Person, Person];
    const ws = owner.workspace.id;
    await test.given.membership(member, ws, 'member');
    await test.given.membership(guest, ws, 'guest');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Managed');
    await test.given.grant(folder.id, { user: member }, 'manager');
    await test.given.grant(folder.id, { user: guest }, 'manager');
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    for (const who of [member, guest]) {
      const live = await makeLink(who, folder.id, { password: 'long enough', expiresAt: inDays(3) });
      await owner.call(linksApi.updatePolicy, { params: { ws }, body: { linksAllowed: false } });
      expect(await who.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } })).toFail('forbidden');
      expect(await who.call(linksApi.updatePolicy, { params: { ws }, body: { linksAllowed: true } })).toFail('forbidden');
      await owner.call(linksApi.updatePolicy, { params: { ws }, body: { linksAllowed: true, passwordRequired: true, maxLifetimeDays: 7 } });
      const bad = async (res: Promise<Answer<unknown>>, field: string) => {
        const answer = await res;
        expect([answer.status, invalidFields(answer)[0]?.path]).toEqual([400, field]);
      };
      await bad(who.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view' } }), 'body.password');
      await bad(
        who.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', password: 'long enough', expiresAt: inDays(8) } }),
        'body.expiresAt',
      );
      // A link made before keeps working, but is not stretched past the policy nor stripped of its password.
      await bad(who.call(linksApi.update, { params: { id: folder.id, linkId: live.id }, body: { expiresAt: inDays(30) } }), 'body.expiresAt');
      await bad(who.call(linksApi.update, { params: { id: folder.id, linkId: live.id }, body: { password: null } }), 'body.password');
      expect(
        (await who.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', password: 'long enough', expiresAt: inDays(6) } })).status,
      ).toBe(201);
      await owner.call(linksApi.updatePolicy, { params: { ws }, body: { passwordRequired: false, maxLifetimeDays: null } });
    }
  });
});

describe("lists of links and a visitor's folder", () => {
  it('come a page at a time; a link whose address cannot be read back is listed without one, and breaks nothing', async () => {
    const owner = await test.given.person();
    const ws = owner.workspace.id;
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Paged');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await makeLink(owner, folder.id)).id);
    // The item's links and the workspace's, a page of `limit` at a time from `cursor`.
    type Listing = (query: { limit: number; cursor?: string }) => Promise<Answer<{ items: { id: string; url: string | null }[]; nextCursor: string | null }>>;
    const ofItem: Listing = (query) => owner.call(linksApi.list, { params: { id: folder.id }, query });
    const ofWorkspace: Listing = (query) => owner.call(linksApi.workspace, { params: { ws }, query });
    const all = async (listing: Listing) => {
      const seen: { id: string; url: string | null }[] = [];
      let cursor: string | undefined;
      do {
        const page = await listing({ limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.status).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.items);
        cursor = page.body.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    expect((await all(ofItem)).map((l) => l.id)).toEqual([...made].reverse());
    // A link whose item sits in a trashed folder is not live: left out of the workspace's list, which goes on past it.
    const binned = await test.given.folder(owner, owner.workspace.rootId, 'Binned');
    const inside = await test.given.folder(owner, binned.id, 'Inside');
    await makeLink(owner, inside.id);
    const later = await makeLink(owner, folder.id);
    await owner.call(itemsApi.trash, { params: { id: binned.id } });
    expect((await all(ofWorkspace)).map((l) => l.id)).toEqual([later.id, ...[...made].reverse()]);
    expect((await owner.call(linksApi.list, { params: { id: folder.id }, query: { limit: '1001' } })).status).toBe(400);
    expect((await owner.call(linksApi.list, { params: { id: folder.id }, query: { cursor: 'not-a-cursor' } })).status).toBe(400);

    // Sealed under another secret (SESSION_SECRET changed since): no address, the rest as before.
    await test.app.ctx.db
      .updateTable('share_links')
      .set({ token_sealed: encrypt(deriveKey(randomToken(), 'share-link-token'), 'gone') })
      .where('id', '=', made[2]!)
      .execute();
    for (const listing of [ofItem, ofWorkspace]) {
      const listed = await all(listing);
      expect(listed.find((l) => l.id === made[2])!.url).toBeNull();
      expect(listed.filter((l) => l.id !== made[2]).every((l) => l.url?.startsWith(`${test.app.ctx.env.PUBLIC_URL}/s/`))).toBe(true);
    }

    // A visitor's folder: folders first, then by name whatever its case, a page at a time.
    const shown = await test.given.folder(owner, owner.workspace.rootId, 'Shown');
    for (const name of ['beta', 'Alpha', 'gamma']) await test.given.document(owner, shown.id, name);
    for (const name of ['Zed', 'arc']) await test.given.folder(owner, shown.id, name);
    const token = tokenOf((await makeLink(owner, shown.id)).url);
    const v = visitor();
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await v.call(publicLinksApi.item, { params: { token, itemId: shown.id }, query: { limit: 2, ...(cursor ? { cursor } : {}) } });
      expect(page.body.children.length).toBeLessThanOrEqual(2);
      names.push(...page.body.children.map((c) => c.name));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(names).toEqual(['arc', 'Zed', 'Alpha', 'beta', 'gamma']);
    expect((await v.call(publicLinksApi.item, { params: { token, itemId: shown.id } })).body).toMatchObject({ nextCursor: null });
  });
});

describe('visiting a link', () => {
  it('opens a folder: listing, navigation below it only, zip download counted; answers are private and send no Referer', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Shared');
    const sub = await test.given.folder(owner, folder.id, 'Sub');
    await test.given.upload(owner, sub.id, 'notes.txt', new TextEncoder().encode('hello from the link'));
    const outside = await test.given.folder(owner, owner.workspace.rootId, 'Private');
    const link = await makeLink(owner, folder.id);
    const token = tokenOf(link.url);
    const v = visitor();

    const opened = await v.call(publicLinksApi.open, { params: { token } });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('private, no-store');
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    expect(opened.body).toMatchObject({ kind: 'view', downloadAllowed: true, expiresAt: null, item: { id: folder.id, kind: 'folder', name: 'Shared' } });
    expect(opened.body.item).not.toHaveProperty('ownerId');

    const top = await v.call(publicLinksApi.item, { params: { token, itemId: folder.id } });
    expect(top.body.children.map((c) => c.name)).toEqual(['Sub']);
    const below = await v.call(publicLinksApi.item, { params: { token, itemId: sub.id } });
    expect(below.body.trail.map((c) => c.name)).toEqual(['Shared', 'Sub']);
    const [file] = below.body.children;
    expect(file).toMatchObject({ kind: 'file', name: 'notes.txt', size: 19 });
    const fileId = file!.id;
    expect((await v.call(publicLinksApi.item, { params: { token, itemId: outside.id } })).status).toBe(404);
    expect((await v.call(publicLinksApi.item, { params: { token, itemId: owner.workspace.rootId } })).status).toBe(404);

    const preview = await v.call(publicLinksApi.content, { params: { token, itemId: fileId } });
    expect(preview.status).toBe(302);
    expect(await (await fetch(new URL(preview.headers.get('location')!, test.app.url))).text()).toBe('hello from the link');
    const download = await v.call(publicLinksApi.content, { params: { token, itemId: fileId }, query: { download: '1' } });
    expect(download.status).toBe(302);
    // The zip's bytes, which an answer read as text would not keep.
    const zip = await fetch(`${test.app.url}/api/v1/links/${token}/items/${folder.id}/content`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await zip.arrayBuffer()).includes(Buffer.from('Sub/notes.txt'))).toBe(true);

    const counted = (await owner.call(linksApi.list, { params: { id: folder.id } })).body.items[0];
    expect(counted).toMatchObject({ views: 1, downloads: 2 });
    const rows = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['action', 'actor_kind', 'actor_link_id', 'actor_user_id', 'ip'])
      .where('actor_link_id', '=', link.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['link.viewed', 'link.downloaded', 'link.downloaded']);
    expect(rows.every((r) => r.actor_kind === 'link' && r.actor_user_id === null && r.ip === '203.0.113.7')).toBe(true);
    // Opened again and again from one address: every view counted, recorded once an hour.
    for (let i = 0; i < 3; i++) expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(200);
    expect((await owner.call(linksApi.list, { params: { id: folder.id } })).body.items[0]).toMatchObject({ views: 4 });
    const viewed = await test.app.ctx.db
      .selectFrom('activity_events')
      .select('id')
      .where('actor_link_id', '=', link.id)
      .where('action', '=', 'link.viewed')
      .execute();
    expect(viewed).toHaveLength(1);

    // A link that forbids downloads still shows the page, but gives no download and no zip.
    await owner.call(linksApi.update, { params: { id: folder.id, linkId: link.id }, body: { downloadAllowed: false } });
    expect((await v.call(publicLinksApi.open, { params: { token } })).body.downloadAllowed).toBe(false);
    expect((await v.call(publicLinksApi.content, { params: { token, itemId: fileId }, query: { download: '1' } })).status).toBe(403);
    expect((await v.call(publicLinksApi.content, { params: { token, itemId: folder.id } })).status).toBe(403);
  });

  it('opens a file: its name and size, shown in the page, downloaded unless the link forbids it', async () => {
    const owner = await test.given.person();
    const up = await test.given.upload(owner, owner.workspace.rootId, 'photo.png', new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), {
      mimeType: 'image/png',
    });
    const fileId = up.body.item.id;
    const link = await makeLink(owner, fileId, { downloadAllowed: false });
    const token = tokenOf(link.url);
    const v = visitor();
    expect((await v.call(publicLinksApi.open, { params: { token } })).body).toMatchObject({
      downloadAllowed: false,
      item: { id: fileId, kind: 'file', name: 'photo.png', size: 8 },
    });
    const shown = await v.call(publicLinksApi.item, { params: { token, itemId: fileId } });
    expect(shown.body).toMatchObject({ trail: [{ id: fileId, name: 'photo.png' }], children: [] });
    expect((await v.call(publicLinksApi.content, { params: { token, itemId: fileId } })).status).toBe(302);
    const refused = await v.call(publicLinksApi.content, { params: { token, itemId: fileId }, query: { download: '1' } });
    expect(refused).toFail('forbidden');
    expect((await owner.call(linksApi.list, { params: { id: fileId } })).body.items[0]).toMatchObject({ views: 1, downloads: 0 });
    // A file the page does not show in itself (a PDF) is only ever downloaded: not through this link.
    const pdf = await test.given.upload(owner, owner.workspace.rootId, 'terms.pdf', new TextEncoder().encode('%PDF-1.4'), { mimeType: 'application/pdf' });
    const pdfLink = await makeLink(owner, pdf.body.item.id, { downloadAllowed: false });
    const pdfToken = tokenOf(pdfLink.url);
    expect(await v.call(publicLinksApi.content, { params: { token: pdfToken, itemId: pdf.body.item.id } })).toFail('forbidden');
    // In the trash, the link's file is gone for its visitor.
    await owner.call(itemsApi.trash, { params: { id: fileId } });
    expect((await v.call(publicLinksApi.content, { params: { token, itemId: fileId } })).status).toBe(404);
  });

  it('shows a document read-only, as HTML', async () => {
    const owner = await test.given.person();
    const doc = await test.given.document(owner, owner.workspace.rootId, 'Launch plan');
    const link = await makeLink(owner, doc.id);
    const v = visitor();
    const token = tokenOf(link.url);
    expect((await v.call(publicLinksApi.open, { params: { token } })).body.item).toMatchObject({ kind: 'document', name: 'Launch plan' });
    const shown = await v.call(publicLinksApi.document, { params: { token, itemId: doc.id } });
    expect(shown.status).toBe(200);
    expect(shown.body.title).toBe('Launch plan');
    expect(shown.body.html).toContain('Launch plan');
    expect((await v.call(publicLinksApi.content, { params: { token, itemId: doc.id } })).status).toBe(415);
  });

  it("zips a folder with its documents as Markdown, for a link's visitor as for a member, its exact length said up front", async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Handbook');
    const sub = await test.given.folder(owner, folder.id, 'Policies');
    const doc = await test.given.document(owner, sub.id, 'Leave');
    await storeDocument(test.app.ctx.db, doc.id, { state: documentUpdate(fromMarkdown('# Leave\n\nTwenty-five days a year.')), text: '' }, { by: null });
    await test.given.document(owner, folder.id, 'Blank');
    await test.given.upload(owner, folder.id, 'notes.txt', new TextEncoder().encode('plain notes'));
    const token = tokenOf((await makeLink(owner, folder.id)).url);

    const zips = [
      await fetch(`${test.app.url}/api/v1/links/${token}/items/${folder.id}/content`, { headers: { 'x-forwarded-for': '203.0.113.7' } }),
      await fetch(`${test.app.url}/api/v1/items/${folder.id}/content`, { headers: { authorization: `Bearer ${owner.token}` } }),
    ];
    for (const zip of zips) {
      expect(zip.status).toBe(200);
      const bytes = Buffer.from(await zip.arrayBuffer());
      expect(Number(zip.headers.get('content-length'))).toBe(bytes.length);
      // Stored, not compressed: each entry's name and bytes are in the zip as they are.
      for (const text of ['Policies/Leave.md', '# Leave', 'Twenty-five days a year.', 'Blank.md', 'notes.txt', 'plain notes'])
        expect(bytes.includes(Buffer.from(text)), text).toBe(true);
    }
  });

  it('downloads a document under the link as Markdown or PDF when the link allows downloads, counted; refused when it does not', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Handbook');
    const doc = await test.given.document(owner, folder.id, 'Leave');
    await storeDocument(test.app.ctx.db, doc.id, { state: documentUpdate(fromMarkdown('# Leave\n\nTwenty-five days a year.')), text: '' }, { by: null });
    const file = (await test.given.upload(owner, folder.id, 'notes.txt', new TextEncoder().encode('plain notes'))).body.item;
    const link = await makeLink(owner, folder.id, { password: 'open sesame' });
    const token = tokenOf(link.url);
    const v = visitor();
    const exported = (format: 'markdown' | 'html' | 'pdf', itemId = doc.id) => v.call(publicLinksApi.export, { params: { token, itemId }, query: { format } });

    expect(await exported('markdown')).toFail('link_password_required');
    expect((await v.call(publicLinksApi.unlock, { params: { token }, body: { password: 'open sesame' } })).status).toBe(204);
    const markdown = await exported('markdown');
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown.headers.get('content-disposition')).toContain('attachment; filename="Leave.md"');
    expect(markdown.headers.get('cache-control')).toBe('private, no-store');
    expect(markdown.body).toBe('# Leave\n\nTwenty-five days a year.');
    const pdf = await exported('pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(String(pdf.body).startsWith('%PDF')).toBe(true);
    // Only documents are exported; a file is downloaded as it is.
    expect(await exported('markdown', file.id)).toFail('unsupported_media_type');
    expect((await owner.call(linksApi.list, { params: { id: folder.id } })).body.items[0]).toMatchObject({ downloads: 2 });

    // Without downloads the document is read on the page only.
    await owner.call(linksApi.update, { params: { id: folder.id, linkId: link.id }, body: { downloadAllowed: false } });
    expect(await exported('markdown')).toFail('forbidden');
    expect(await exported('pdf')).toFail('forbidden');
    await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: link.id } });
    expect(await exported('markdown')).toFail('link_expired');
    expect((await owner.call(linksApi.list, { params: { id: folder.id } })).body.items[0]).toMatchObject({ downloads: 2 });
  });

  it("shows a document's own pictures through short-lived signed URLs that need no cookie, and no other item's", async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Handbook');
    const doc = await test.given.document(owner, folder.id, 'Welcome');
    const other = await test.given.document(owner, folder.id, 'Other');
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
    const chart = (await test.given.upload(owner, doc.id, 'chart.png', png)).body.item;
    const notes = (await test.given.upload(owner, doc.id, 'notes.pdf', new TextEncoder().encode('%PDF-1.4'), { mimeType: 'application/pdf' })).body.item;
    const theirs = (await test.given.upload(owner, other.id, 'theirs.png', png)).body.item;
    const markdown = `![chart](/api/v1/items/${chart.id}/content) ![theirs](/api/v1/items/${theirs.id}/content) ![notes](/api/v1/items/${notes.id}/content) ![web](https://example.com/web.png)`;
    await storeDocument(test.app.ctx.db, doc.id, { state: documentUpdate(fromMarkdown(markdown)), text: '' }, { by: null });
    const link = await makeLink(owner, folder.id, { password: 'open sesame', downloadAllowed: false });
    const token = tokenOf(link.url);
    const v = visitor();
    expect((await v.call(publicLinksApi.unlock, { params: { token }, body: { password: 'open sesame' } })).status).toBe(204);

    const shown = await v.call(publicLinksApi.document, { params: { token, itemId: doc.id } });
    expect(shown.status).toBe(200);
    const sources = new Map([...shown.body.html.matchAll(/<img[^>]*?src="([^"]*)"[^>]*?alt="([^"]*)"/g)].map((m) => [m[2]!, m[1]!.replaceAll('&amp;', '&')]));
    expect([...sources.keys()].sort()).toEqual(['chart', 'notes', 'theirs', 'web']);
    // The document's own picture: a signed address of its bytes, fetched with no session and no cookie.
    const signed = sources.get('chart')!;
    expect(signed).not.toContain(chart.id);
    expect(signed).not.toContain(token);
    const bytes = await fetch(new URL(signed, test.app.url), { headers: { 'x-forwarded-for': '198.51.100.9' } });
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(Buffer.from(png));
    // Another document's picture, a file in it that is no picture, and the web keep their addresses.
    expect(sources.get('theirs')).toBe(`/api/v1/items/${theirs.id}/content`);
    expect(sources.get('notes')).toBe(`/api/v1/items/${notes.id}/content`);
    expect(sources.get('web')).toBe('https://example.com/web.png');
    expect((await visitor().call(filesApi.content, { params: { id: theirs.id } })).status).toBe(401);
    // Showing pictures is part of the page: not a download, nothing recorded for them.
    const listed = (await owner.call(linksApi.list, { params: { id: folder.id } })).body.items.find((l) => l.id === link.id);
    expect(listed?.downloads).toBe(0);
    const downloads = await test.app.ctx.db
      .selectFrom('activity_events')
      .select('id')
      .where('action', '=', 'link.downloaded')
      .where('workspace_id', '=', owner.workspace.id)
      .execute();
    expect(downloads).toHaveLength(0);

    // A picture of a document reached by its own link is signed as well; once the link ends, the document is refused.
    const docLink = await makeLink(owner, doc.id);
    const direct = await v.call(publicLinksApi.document, { params: { token: tokenOf(docLink.url), itemId: doc.id } });
    expect(direct.body.html).not.toContain(`/api/v1/items/${chart.id}/content`);
    await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: link.id } });
    const ended = await v.call(publicLinksApi.document, { params: { token, itemId: doc.id } });
    expect(ended).toFail('link_expired');
  });

  it('asks for the password; the cookie it sets holds for that link alone, and a new password ends it', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Locked');
    const link = await makeLink(owner, folder.id, { password: 'open sesame' });
    const other = await makeLink(owner, folder.id, { password: 'open sesame' });
    const token = tokenOf(link.url);
    const v = visitor();
    const locked = await v.call(publicLinksApi.open, { params: { token } });
    expect(locked).toFail('link_password_required');
    expect((await v.call(publicLinksApi.item, { params: { token, itemId: folder.id } })).status).toBe(401);
    const wrong = await v.call(publicLinksApi.unlock, { params: { token }, body: { password: 'open barley' } });
    expect(wrong).toFail('link_password_required');
    expect((await v.call(publicLinksApi.unlock, { params: { token }, body: { password: 'open sesame' } })).status).toBe(204);
    const cookie = v.jar.get('cabinet_link')!;
    expect(cookie.path).toBe(`/api/v1/links/${token}`);
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(200);
    // The other link with the same password still asks (the cookie is not sent to it, nor valid there).
    expect((await v.call(publicLinksApi.open, { params: { token: tokenOf(other.url) } })).status).toBe(401);
    const forged = await visitor().call(
      publicLinksApi.open,
      { params: { token: tokenOf(other.url) } },
      { headers: { cookie: `cabinet_link=${cookie.value}` } },
    );
    expect(forged.status).toBe(401);
    // A new password ends what the old one opened.
    await owner.call(linksApi.update, { params: { id: folder.id, linkId: link.id }, body: { password: 'new sesame!' } });
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(401);
  });

  it('refuses an address after 10 wrong passwords in 10 minutes, with Retry-After, while the right password from elsewhere works', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Guarded');
    const token = tokenOf((await makeLink(owner, folder.id, { password: 'right password' })).url);
    const guesser = visitor('198.51.100.1');
    for (let i = 0; i < 10; i++) expect((await guesser.call(publicLinksApi.unlock, { params: { token }, body: { password: `guess ${i}` } })).status).toBe(401);
    const eleventh = await guesser.call(publicLinksApi.unlock, { params: { token }, body: { password: 'guess 11' } });
    expect(eleventh).toFail('rate_limited');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(eleventh.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    // Even the right password is refused from that address for now…
    expect((await guesser.call(publicLinksApi.unlock, { params: { token }, body: { password: 'right password' } })).status).toBe(429);
    // …while someone else, elsewhere, gets in.
    const friend = visitor('198.51.100.2');
    expect((await friend.call(publicLinksApi.unlock, { params: { token }, body: { password: 'right password' } })).status).toBe(204);
    expect((await friend.call(publicLinksApi.open, { params: { token } })).status).toBe(200);
    // Tries sent all at once count as many: no more than the limit get a check.
    const burst = visitor('198.51.100.3');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => burst.call(publicLinksApi.unlock, { params: { token }, body: { password: `burst ${i}` } })),
    );
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(20);
    // A right password is no wrong try: ten of them in a row do not lock anyone out.
    const regular = visitor('198.51.100.4');
    for (let i = 0; i < 11; i++)
      expect((await regular.call(publicLinksApi.unlock, { params: { token }, body: { password: 'right password' } })).status).toBe(204);
  });

  it('behind one trusted proxy, counts the address the proxy saw: what the caller writes into X-Forwarded-For changes nothing, and an IPv6 caller counts by its /64', async () => {
    // One hop trusted: the test is the proxy, and appends the address it "saw" last.
    const proxied = await startTestApp({ LOG_LEVEL: 'error', TRUST_PROXY: '1' }, { db: test.app.db });
    try {
      const owner = await test.given.person();
      const folder = await test.given.folder(owner, owner.workspace.rootId, 'Behind a proxy');
      const token = tokenOf((await makeLink(owner, folder.id, { password: 'right password' })).url);
      const { call } = callingRoutes((path, init) => fetch(`${proxied.url}${path}`, init));
      const unlock = (forwarded: string, password: string) =>
        call(publicLinksApi.unlock, { params: { token }, body: { password } }, { headers: { 'x-forwarded-for': forwarded } });
      for (let i = 0; i < 10; i++) expect((await unlock(`10.9.8.${i}, 203.0.113.50`, `guess ${i}`)).status).toBe(401);
      expect((await unlock('10.9.9.9, 203.0.113.50', 'right password')).status).toBe(429);
      expect((await unlock('203.0.113.51', 'right password')).status).toBe(204);
      // Ten guesses from ten addresses of one /64 are ten guesses from one caller.
      for (let i = 0; i < 10; i++) expect((await unlock(`2001:db8:7:7::${i + 1}`, `guess ${i}`)).status).toBe(401);
      expect((await unlock('2001:db8:7:7:ffff::1', 'right password')).status).toBe(429);
      expect((await unlock('2001:db8:7:8::1', 'right password')).status).toBe(204);
    } finally {
      await proxied.close();
    }
  });

  it('ends when its maker may no longer share the item: access lowered, account disabled', async () => {
    const owner = await test.given.person();
    const bea = await test.given.person();
    await test.given.membership(bea, owner.workspace.id, 'member');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Handed out');
    await test.given.grant(folder.id, { user: bea }, 'manager');
    const link = await makeLink(bea, folder.id);
    const token = tokenOf(link.url);
    const v = visitor();
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(200);
    await test.app.ctx.db.updateTable('item_grants').set({ role: 'viewer' }).where('item_id', '=', folder.id).where('principal_id', '=', bea.id).execute();
    const ended = await v.call(publicLinksApi.open, { params: { token } });
    expect(ended).toFail('link_expired');
    expect(ended.error?.details).toMatchObject({ reason: 'maker' });
    await test.app.ctx.db.updateTable('item_grants').set({ role: 'manager' }).where('item_id', '=', folder.id).where('principal_id', '=', bea.id).execute();
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(200);
    await test.app.ctx.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', bea.id).execute();
    expect(await v.call(publicLinksApi.open, { params: { token } })).toFail('link_expired');
  });

  it('ends with expiry and revocation (link_expired), stops while its item is in the trash, and follows the item when it moves', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Travelling');
    const parent = await test.given.folder(owner, owner.workspace.rootId, 'Parent');
    const link = await makeLink(owner, folder.id, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const token = tokenOf(link.url);
    const v = visitor();
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(200);

    expect((await owner.call(itemsApi.update, { params: { id: folder.id }, body: { parentId: parent.id } })).status).toBe(200);
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(200);

    await owner.call(itemsApi.trash, { params: { id: parent.id } });
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(404);
    expect((await owner.call(linksApi.workspace, { params: { ws: owner.workspace.id } })).body.items).toEqual([]);
    await owner.call(itemsApi.restore, { params: { id: parent.id } });
    expect((await v.call(publicLinksApi.open, { params: { token } })).status).toBe(200);

    await test.app.ctx.db
      .updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', link.id)
      .execute();
    const expired = await v.call(publicLinksApi.open, { params: { token } });
    expect(expired).toFail('link_expired');
    expect(expired.error?.details).toMatchObject({ reason: 'expired' });
    expect((await v.call(publicLinksApi.unlock, { params: { token }, body: { password: 'whatever it is' } })).status).toBe(410);
    expect((await owner.call(linksApi.workspace, { params: { ws: owner.workspace.id } })).body.items).toEqual([]);

    const second = await makeLink(owner, folder.id);
    expect((await v.call(publicLinksApi.open, { params: { token: tokenOf(second.url) } })).status).toBe(200);
    await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: second.id } });
    const revoked = await v.call(publicLinksApi.open, { params: { token: tokenOf(second.url) } });
    expect(revoked).toFail('link_expired');
    expect(revoked.error?.details?.reason).toBe('revoked');

    expect((await v.call(publicLinksApi.open, { params: { token: 'no-such-link-token-at-all-here' } })).status).toBe(404);
    expect((await v.call(publicLinksApi.open, { params: { token: 'bad' } })).status).toBe(400);
  });
});

describe("a link's number and end", () => {
  it('numbers links by the order they were made on their item, whatever page is read and after one is revoked', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Numbered');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await makeLink(owner, folder.id)).id);
    await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: made[1]! } });
    const first = await owner.call(linksApi.list, { params: { id: folder.id }, query: { limit: 1 } });
    const rest = await owner.call(linksApi.list, { params: { id: folder.id }, query: { limit: 2, cursor: first.body.nextCursor! } });
    expect([...first.body.items, ...rest.body.items].map((l) => [l.id, l.number])).toEqual([
      [made[2], 3],
      [made[1], 2],
      [made[0], 1],
    ]);
    const elsewhere = await test.given.folder(owner, owner.workspace.rootId, 'Elsewhere');
    expect((await makeLink(owner, elsewhere.id)).number).toBe(1);
    expect((await owner.call(linksApi.workspace, { params: { ws: owner.workspace.id } })).body.items.find((l) => l.id === made[2])?.number).toBe(3);
  });

  it('says when a revoked link was revoked, its planned expiry kept apart', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Ended early');
    const expiresAt = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const link = await makeLink(owner, folder.id, { expiresAt });
    expect(link.revokedAt).toBeNull();
    const before = Date.now();
    await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: link.id } });
    const listed = (await owner.call(linksApi.list, { params: { id: folder.id } })).body.items[0]!;
    expect(listed).toMatchObject({ state: 'revoked', expiresAt });
    expect(new Date(listed.revokedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(listed.revokedAt!).getTime()).toBeLessThanOrEqual(Date.now());
  });
});
