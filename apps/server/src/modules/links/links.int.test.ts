import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let g: ReturnType<typeof given>;
beforeAll(async () => {
  // Behind a proxy, so each visitor's address can be told apart (X-Forwarded-For).
  t = await startTestApp({ LOG_LEVEL: 'error', TRUST_PROXY: 'true' });
  g = given(t.ctx, t.url);
});
afterAll(() => t.close());

const tokenOf = (url: string) => url.split('/s/')[1]!;

/** A browser without an account: keeps the cookies the server sets for it, and comes from `ip`. */
function visitor(ip = '203.0.113.7') {
  const jar = new Map<string, { value: string; path: string }>();
  return {
    jar,
    async call(method: string, path: string, body?: unknown) {
      const url = `/api/v1${path}`;
      const cookie = [...jar].filter(([, c]) => url.startsWith(c.path)).map(([k, c]) => `${k}=${c.value}`).join('; ');
      const res = await fetch(`${t.url}${url}`, {
        method,
        redirect: 'manual',
        headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair, ...attrs] = line.split(';').map((s) => s.trim());
        const [name, value] = pair!.split('=');
        const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
        jar.set(name!, { value: value!, path });
      }
      const type = res.headers.get('content-type') ?? '';
      const text = type.includes('json') ? await res.text() : '';
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
  };
}

async function makeLink(person: Person, itemId: string, body: Record<string, unknown> = {}) {
  const res = await person.call('POST', `/items/${itemId}/links`, { kind: 'view', ...body });
  if (res.status !== 201) throw new Error(`no link: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; url: string };
}

describe('making and managing links', () => {
  it('answers each role by its ability: managers make, change and revoke; others are refused or see nothing', async () => {
    const owner = await g.person('Owner');
    const [admin, member, guest, managerGuest, outsider] = (await Promise.all(['Admin', 'Member', 'Guest', 'Manager guest', 'Outsider'].map((n) => g.person(n)))) as [Person, Person, Person, Person, Person];
    await g.membership(admin, owner.workspace.id, 'admin');
    await g.membership(member, owner.workspace.id, 'member');
    await g.membership(guest, owner.workspace.id, 'guest');
    await g.membership(managerGuest, owner.workspace.id, 'guest');
    const folder = await g.folder(owner, owner.workspace.rootId, 'Press kit');
    await g.grant(folder.id, { user: guest }, 'viewer');
    await g.grant(folder.id, { user: managerGuest }, 'manager');

    const created = await owner.call('POST', `/items/${folder.id}/links`, { kind: 'view', downloadAllowed: false });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ itemId: folder.id, kind: 'view', state: 'active', expiresAt: null, hasPassword: false, downloadAllowed: false, views: 0, downloads: 0, createdBy: { id: owner.id, name: 'Owner' } });
    expect(created.body.url).toMatch(new RegExp(`^${t.ctx.env.PUBLIC_URL}/s/[A-Za-z0-9_-]{40,}$`));
    expect((await admin.call('POST', `/items/${folder.id}/links`, { kind: 'view' })).status).toBe(201);
    expect((await managerGuest.call('POST', `/items/${folder.id}/links`, { kind: 'view' })).status).toBe(201);

    // A member edits in the shared root but does not manage it; a guest viewer sees it; an outsider does not.
    for (const [who, status] of [[member, 403], [guest, 403], [outsider, 404]] as const) {
      expect((await who.call('POST', `/items/${folder.id}/links`, { kind: 'view' })).status).toBe(status);
      expect((await who.call('GET', `/items/${folder.id}/links`)).status).toBe(status);
      expect((await who.call('PATCH', `/items/${folder.id}/links/${created.body.id}`, { downloadAllowed: true })).status).toBe(status);
      expect((await who.call('DELETE', `/items/${folder.id}/links/${created.body.id}`)).status).toBe(status);
    }
    // A token that may only read lists links but makes none.
    const reader = await g.readOnly(owner);
    expect((await reader.call('GET', `/items/${folder.id}/links`)).body.items).toHaveLength(3);
    expect((await reader.call('POST', `/items/${folder.id}/links`, { kind: 'view' })).status).toBe(403);
    // A visitor without an account is no one here.
    const v = visitor();
    expect((await v.call('GET', `/items/${folder.id}/links`)).status).toBe(401);

    const listed = (await owner.call('GET', `/items/${folder.id}/links`)).body.items;
    expect(listed).toHaveLength(3);
    // Its managers can copy the address again later.
    expect(listed.find((l: { id: string }) => l.id === created.body.id).url).toBe(created.body.url);
    const stored = await t.ctx.db.selectFrom('share_links').select(['token_hash', 'token_sealed']).where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(stored.token_sealed).not.toContain(tokenOf(created.body.url));

    const changed = await admin.call('PATCH', `/items/${folder.id}/links/${created.body.id}`, { password: 'correct horse', downloadAllowed: true });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ hasPassword: true, downloadAllowed: true });
    expect((await owner.call('PATCH', `/items/${folder.id}/links/${created.body.id}`, { password: null })).body.hasPassword).toBe(false);
    // A link's id is answered only on its own item.
    const other = await g.folder(owner, owner.workspace.rootId, 'Other');
    expect((await owner.call('PATCH', `/items/${other.id}/links/${created.body.id}`, { downloadAllowed: true })).status).toBe(404);
    expect((await owner.call('DELETE', `/items/${other.id}/links/${created.body.id}`)).status).toBe(404);

    expect((await managerGuest.call('DELETE', `/items/${folder.id}/links/${created.body.id}`)).status).toBe(204);
    expect((await owner.call('DELETE', `/items/${folder.id}/links/${created.body.id}`)).status).toBe(204);
    const revoked = (await owner.call('GET', `/items/${folder.id}/links`)).body.items.find((l: { id: string }) => l.id === created.body.id);
    expect(revoked.state).toBe('revoked');
    const again = await owner.call('PATCH', `/items/${folder.id}/links/${created.body.id}`, { downloadAllowed: false });
    expect(again.status).toBe(410);
    expect(again.body.error).toMatchObject({ code: 'link_expired', details: { reason: 'revoked' } });

    const actions = await t.ctx.db.selectFrom('activity_events').select(['action', 'actor_user_id']).where('item_id', '=', folder.id).where('action', 'like', 'link.%').orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['link.created', 'link.created', 'link.created', 'link.updated', 'link.updated', 'link.revoked']);
  });

  it('refuses bad input: a short password, an expiry in the past, a kind it does not make', async () => {
    const owner = await g.person();
    const folder = await g.folder(owner, owner.workspace.rootId, 'Drop');
    const bad = async (body: Record<string, unknown>, path: string) => {
      const res = await owner.call('POST', `/items/${folder.id}/links`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    };
    await bad({ kind: 'view', password: 'short' }, 'body.password');
    await bad({ kind: 'view', expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'body.expiresAt');
    await bad({ kind: 'view', expiresAt: 'tomorrow' }, 'body.expiresAt');
    await bad({ kind: 'everything' }, 'body.kind');
    await bad({ kind: 'view', downloadAllowed: 'yes' }, 'body.downloadAllowed');
    const link = await makeLink(owner, folder.id);
    expect((await owner.call('PATCH', `/items/${folder.id}/links/${link.id}`, {})).status).toBe(400);
    expect((await owner.call('PATCH', `/items/not-an-id/links/${link.id}`, { downloadAllowed: true })).status).toBe(400);
  });
});

describe('the workspace link policy and list', () => {
  it('is changed by admins only, and holds for every new link', async () => {
    const owner = await g.person('Owner');
    const [admin, member, guest, outsider] = (await Promise.all(['Admin', 'Member', 'Guest', 'Outsider'].map((n) => g.person(n)))) as [Person, Person, Person, Person];
    await g.membership(admin, owner.workspace.id, 'admin');
    await g.membership(member, owner.workspace.id, 'member');
    await g.membership(guest, owner.workspace.id, 'guest');
    const ws = owner.workspace.id;
    // A guest is in the workspace while something in it is shared with them.
    await g.grant((await g.folder(owner, owner.workspace.rootId, 'For the guest')).id, { user: guest }, 'viewer');
    expect((await member.call('GET', `/workspaces/${ws}/link-policy`)).body).toEqual({ linksAllowed: true, passwordRequired: false, maxLifetimeDays: null });
    expect((await outsider.call('GET', `/workspaces/${ws}/link-policy`)).status).toBe(404);
    for (const [who, status] of [[member, 403], [guest, 403], [outsider, 404]] as const) {
      expect((await who.call('PATCH', `/workspaces/${ws}/link-policy`, { linksAllowed: false })).status).toBe(status);
      expect((await who.call('GET', `/workspaces/${ws}/links`)).status).toBe(status);
    }
    const folder = await g.folder(owner, owner.workspace.rootId, 'Policy');

    expect((await admin.call('PATCH', `/workspaces/${ws}/link-policy`, { linksAllowed: false })).body.linksAllowed).toBe(false);
    const refused = await owner.call('POST', `/items/${folder.id}/links`, { kind: 'view' });
    expect(refused.status).toBe(403);

    await owner.call('PATCH', `/workspaces/${ws}/link-policy`, { linksAllowed: true, passwordRequired: true, maxLifetimeDays: 7 });
    const noPassword = await owner.call('POST', `/items/${folder.id}/links`, { kind: 'view' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error.details.fields[0].path).toBe('body.password');
    const tooLong = await owner.call('POST', `/items/${folder.id}/links`, { kind: 'view', password: 'long enough', expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details.fields[0].path).toBe('body.expiresAt');
    // Without an expiry, the link lives as long as the policy allows.
    const made = await makeLink(owner, folder.id, { password: 'long enough' });
    const expiresAt = (await owner.call('GET', `/items/${folder.id}/links`)).body.items[0].expiresAt;
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    expect(new Date(expiresAt).getTime()).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
    expect((await owner.call('PATCH', `/items/${folder.id}/links/${made.id}`, { expiresAt: null })).status).toBe(400);
    expect((await owner.call('PATCH', `/items/${folder.id}/links/${made.id}`, { password: null })).status).toBe(400);
    expect((await owner.call('PATCH', `/workspaces/${ws}/link-policy`, { maxLifetimeDays: 0 })).status).toBe(400);

    // The admins' list: every live link, with its item, who made it and its counts; not revoked ones.
    const second = await makeLink(owner, folder.id, { password: 'long enough' });
    await owner.call('DELETE', `/items/${folder.id}/links/${second.id}`);
    const list = await admin.call('GET', `/workspaces/${ws}/links`);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ id: made.id, item: { id: folder.id, name: 'Policy', kind: 'folder' }, createdBy: { id: owner.id }, views: 0, downloads: 0, hasPassword: true });

    // Admins revoke any link from that list, even one to a member's My files, where they have no role.
    await t.ctx.db.updateTable('workspaces').set({ settings: JSON.stringify({}) }).where('id', '=', ws).execute();
    const home = (await t.ctx.db.selectFrom('memberships').select('home_item_id').where('workspace_id', '=', ws).where('user_id', '=', member.id).executeTakeFirstOrThrow()).home_item_id!;
    const own = (await member.call('POST', `/workspaces/${ws}/items`, { kind: 'folder', name: 'Mine', parentId: home })).body as { id: string };
    const members = await makeLink(member, own.id);
    expect((await admin.call('DELETE', `/items/${own.id}/links/${members.id}`)).status).toBe(404);
    for (const [who, status] of [[member, 403], [guest, 403], [outsider, 404]] as const) {
      expect((await who.call('DELETE', `/workspaces/${ws}/links/${members.id}`)).status).toBe(status);
    }
    expect((await admin.call('DELETE', `/workspaces/${ws}/links/${members.id}`)).status).toBe(204);
    expect((await visitor().call('GET', `/links/${tokenOf(members.url)}`)).body.error).toMatchObject({ code: 'link_expired' });
    expect((await admin.call('DELETE', `/workspaces/${ws}/links/0190a0a0-0000-7000-8000-000000000000`)).status).toBe(404);
  });
});

describe('visiting a link', () => {
  it('opens a folder: listing, navigation below it only, zip download counted; answers are private and send no Referer', async () => {
    const owner = await g.person();
    const folder = await g.folder(owner, owner.workspace.rootId, 'Shared');
    const sub = await g.folder(owner, folder.id, 'Sub');
    await g.upload(owner, sub.id, 'notes.txt', new TextEncoder().encode('hello from the link'));
    const outside = await g.folder(owner, owner.workspace.rootId, 'Private');
    const link = await makeLink(owner, folder.id);
    const token = tokenOf(link.url);
    const v = visitor();

    const opened = await v.call('GET', `/links/${token}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('private, no-store');
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    expect(opened.body).toMatchObject({ kind: 'view', downloadAllowed: true, expiresAt: null, item: { id: folder.id, kind: 'folder', name: 'Shared' } });
    expect(opened.body.item).not.toHaveProperty('ownerId');

    const top = await v.call('GET', `/links/${token}/items/${folder.id}`);
    expect(top.body.children.map((c: { name: string }) => c.name)).toEqual(['Sub']);
    const below = await v.call('GET', `/links/${token}/items/${sub.id}`);
    expect(below.body.trail.map((c: { name: string }) => c.name)).toEqual(['Shared', 'Sub']);
    const file = below.body.children[0];
    expect(file).toMatchObject({ kind: 'file', name: 'notes.txt', size: 19 });
    expect((await v.call('GET', `/links/${token}/items/${outside.id}`)).status).toBe(404);
    expect((await v.call('GET', `/links/${token}/items/${owner.workspace.rootId}`)).status).toBe(404);

    const preview = await v.call('GET', `/links/${token}/items/${file.id}/content`);
    expect(preview.status).toBe(302);
    expect(await (await fetch(new URL(preview.headers.get('location')!, t.url))).text()).toBe('hello from the link');
    const download = await v.call('GET', `/links/${token}/items/${file.id}/content?download=1`);
    expect(download.status).toBe(302);
    const zip = await fetch(`${t.url}/api/v1/links/${token}/items/${folder.id}/content`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await zip.arrayBuffer()).includes(Buffer.from('Sub/notes.txt'))).toBe(true);

    const counted = (await owner.call('GET', `/items/${folder.id}/links`)).body.items[0];
    expect(counted).toMatchObject({ views: 1, downloads: 2 });
    const rows = await t.ctx.db.selectFrom('activity_events').select(['action', 'actor_kind', 'actor_link_id', 'actor_user_id', 'ip']).where('actor_link_id', '=', link.id).orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['link.viewed', 'link.downloaded', 'link.downloaded']);
    expect(rows.every((r) => r.actor_kind === 'link' && r.actor_user_id === null && r.ip === '203.0.113.7')).toBe(true);
    // Opened again and again from one address: every view counted, recorded once an hour.
    for (let i = 0; i < 3; i++) expect((await v.call('GET', `/links/${token}`)).status).toBe(200);
    expect((await owner.call('GET', `/items/${folder.id}/links`)).body.items[0]).toMatchObject({ views: 4 });
    const viewed = await t.ctx.db.selectFrom('activity_events').select('id').where('actor_link_id', '=', link.id).where('action', '=', 'link.viewed').execute();
    expect(viewed).toHaveLength(1);

    // A link that forbids downloads still shows the page, but gives no download and no zip.
    await owner.call('PATCH', `/items/${folder.id}/links/${link.id}`, { downloadAllowed: false });
    expect((await v.call('GET', `/links/${token}`)).body.downloadAllowed).toBe(false);
    expect((await v.call('GET', `/links/${token}/items/${file.id}/content?download=1`)).status).toBe(403);
    expect((await v.call('GET', `/links/${token}/items/${folder.id}/content`)).status).toBe(403);
  });

  it('opens a file: its name and size, shown in the page, downloaded unless the link forbids it', async () => {
    const owner = await g.person();
    const up = await g.upload(owner, owner.workspace.rootId, 'photo.png', new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), { mimeType: 'image/png' });
    const fileId = up.body.item.id as string;
    const link = await makeLink(owner, fileId, { downloadAllowed: false });
    const token = tokenOf(link.url);
    const v = visitor();
    expect((await v.call('GET', `/links/${token}`)).body).toMatchObject({ downloadAllowed: false, item: { id: fileId, kind: 'file', name: 'photo.png', size: 8 } });
    const shown = await v.call('GET', `/links/${token}/items/${fileId}`);
    expect(shown.body).toMatchObject({ trail: [{ id: fileId, name: 'photo.png' }], children: [] });
    expect((await v.call('GET', `/links/${token}/items/${fileId}/content`)).status).toBe(302);
    const refused = await v.call('GET', `/links/${token}/items/${fileId}/content?download=1`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await owner.call('GET', `/items/${fileId}/links`)).body.items[0]).toMatchObject({ views: 1, downloads: 0 });
    // A file the page does not show in itself (a PDF) is only ever downloaded: not through this link.
    const pdf = await g.upload(owner, owner.workspace.rootId, 'terms.pdf', new TextEncoder().encode('%PDF-1.4'), { mimeType: 'application/pdf' });
    const pdfLink = await makeLink(owner, pdf.body.item.id, { downloadAllowed: false });
    const pdfToken = tokenOf(pdfLink.url);
    expect((await v.call('GET', `/links/${pdfToken}/items/${pdf.body.item.id}/content`)).body.error.code).toBe('forbidden');
    // In the trash, the link's file is gone for its visitor.
    await owner.call('POST', `/items/${fileId}/trash`);
    expect((await v.call('GET', `/links/${token}/items/${fileId}/content`)).status).toBe(404);
  });

  it('shows a document read-only, as HTML', async () => {
    const owner = await g.person();
    const doc = await owner.call('POST', `/workspaces/${owner.workspace.id}/items`, { kind: 'document', name: 'Launch plan', parentId: owner.workspace.rootId });
    const link = await makeLink(owner, doc.body.id);
    const v = visitor();
    const token = tokenOf(link.url);
    expect((await v.call('GET', `/links/${token}`)).body.item).toMatchObject({ kind: 'document', name: 'Launch plan' });
    const shown = await v.call('GET', `/links/${token}/items/${doc.body.id}/document`);
    expect(shown.status).toBe(200);
    expect(shown.body.title).toBe('Launch plan');
    expect(shown.body.html).toContain('Launch plan');
    expect((await v.call('GET', `/links/${token}/items/${doc.body.id}/content`)).status).toBe(415);
  });

  it('asks for the password; the cookie it sets holds for that link alone, and a new password ends it', async () => {
    const owner = await g.person();
    const folder = await g.folder(owner, owner.workspace.rootId, 'Locked');
    const link = await makeLink(owner, folder.id, { password: 'open sesame' });
    const other = await makeLink(owner, folder.id, { password: 'open sesame' });
    const token = tokenOf(link.url);
    const v = visitor();
    const locked = await v.call('GET', `/links/${token}`);
    expect(locked.status).toBe(401);
    expect(locked.body.error.code).toBe('link_password_required');
    expect((await v.call('GET', `/links/${token}/items/${folder.id}`)).status).toBe(401);
    const wrong = await v.call('POST', `/links/${token}/unlock`, { password: 'open barley' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('link_password_required');
    expect((await v.call('POST', `/links/${token}/unlock`, { password: 'open sesame' })).status).toBe(204);
    const cookie = v.jar.get('cabinet_link')!;
    expect(cookie.path).toBe(`/api/v1/links/${token}`);
    expect((await v.call('GET', `/links/${token}`)).status).toBe(200);
    // The other link with the same password still asks (the cookie is not sent to it, nor valid there).
    expect((await v.call('GET', `/links/${tokenOf(other.url)}`)).status).toBe(401);
    const forged = await fetch(`${t.url}/api/v1/links/${tokenOf(other.url)}`, { headers: { cookie: `cabinet_link=${cookie.value}` } });
    expect(forged.status).toBe(401);
    // A new password ends what the old one opened.
    await owner.call('PATCH', `/items/${folder.id}/links/${link.id}`, { password: 'new sesame!' });
    expect((await v.call('GET', `/links/${token}`)).status).toBe(401);
  });

  it('refuses an address after 10 wrong passwords in 10 minutes, with Retry-After, while the right password from elsewhere works', async () => {
    const owner = await g.person();
    const folder = await g.folder(owner, owner.workspace.rootId, 'Guarded');
    const token = tokenOf((await makeLink(owner, folder.id, { password: 'right password' })).url);
    const guesser = visitor('198.51.100.1');
    for (let i = 0; i < 10; i++) expect((await guesser.call('POST', `/links/${token}/unlock`, { password: `guess ${i}` })).status).toBe(401);
    const eleventh = await guesser.call('POST', `/links/${token}/unlock`, { password: 'guess 11' });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error.code).toBe('rate_limited');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(eleventh.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    // Even the right password is refused from that address for now…
    expect((await guesser.call('POST', `/links/${token}/unlock`, { password: 'right password' })).status).toBe(429);
    // …while someone else, elsewhere, gets in.
    const friend = visitor('198.51.100.2');
    expect((await friend.call('POST', `/links/${token}/unlock`, { password: 'right password' })).status).toBe(204);
    expect((await friend.call('GET', `/links/${token}`)).status).toBe(200);
    // Tries sent all at once count as many: no more than the limit get a check.
    const burst = visitor('198.51.100.3');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => burst.call('POST', `/links/${token}/unlock`, { password: `burst ${i}` })));
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(20);
    // A right password is no wrong try: ten of them in a row do not lock anyone out.
    const regular = visitor('198.51.100.4');
    for (let i = 0; i < 11; i++) expect((await regular.call('POST', `/links/${token}/unlock`, { password: 'right password' })).status).toBe(204);
  });

  it('ends when its maker may no longer share the item: access lowered, account disabled', async () => {
    const owner = await g.person();
    const bea = await g.person();
    await g.membership(bea, owner.workspace.id, 'member');
    const folder = await g.folder(owner, owner.workspace.rootId, 'Handed out');
    await g.grant(folder.id, { user: bea }, 'manager');
    const link = await makeLink(bea, folder.id);
    const token = tokenOf(link.url);
    const v = visitor();
    expect((await v.call('GET', `/links/${token}`)).status).toBe(200);
    await t.ctx.db.updateTable('item_grants').set({ role: 'viewer' }).where('item_id', '=', folder.id).where('principal_id', '=', bea.id).execute();
    const ended = await v.call('GET', `/links/${token}`);
    expect(ended.status).toBe(410);
    expect(ended.body.error).toMatchObject({ code: 'link_expired', details: { reason: 'maker' } });
    await t.ctx.db.updateTable('item_grants').set({ role: 'manager' }).where('item_id', '=', folder.id).where('principal_id', '=', bea.id).execute();
    expect((await v.call('GET', `/links/${token}`)).status).toBe(200);
    await t.ctx.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', bea.id).execute();
    expect((await v.call('GET', `/links/${token}`)).body.error.code).toBe('link_expired');
  });

  it('ends with expiry and revocation (link_expired), stops while its item is in the trash, and follows the item when it moves', async () => {
    const owner = await g.person();
    const folder = await g.folder(owner, owner.workspace.rootId, 'Travelling');
    const parent = await g.folder(owner, owner.workspace.rootId, 'Parent');
    const link = await makeLink(owner, folder.id, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const token = tokenOf(link.url);
    const v = visitor();
    expect((await v.call('GET', `/links/${token}`)).status).toBe(200);

    expect((await owner.call('PATCH', `/items/${folder.id}`, { parentId: parent.id })).status).toBe(200);
    expect((await v.call('GET', `/links/${token}`)).status).toBe(200);

    await owner.call('POST', `/items/${parent.id}/trash`);
    expect((await v.call('GET', `/links/${token}`)).status).toBe(404);
    expect((await owner.call('GET', `/workspaces/${owner.workspace.id}/links`)).body.items).toEqual([]);
    await owner.call('POST', `/items/${parent.id}/restore`);
    expect((await v.call('GET', `/links/${token}`)).status).toBe(200);

    await t.ctx.db.updateTable('share_links').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', link.id).execute();
    const expired = await v.call('GET', `/links/${token}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toMatchObject({ code: 'link_expired', details: { reason: 'expired' } });
    expect((await v.call('POST', `/links/${token}/unlock`, { password: 'whatever it is' })).status).toBe(410);
    expect((await owner.call('GET', `/workspaces/${owner.workspace.id}/links`)).body.items).toEqual([]);

    const second = await makeLink(owner, folder.id);
    expect((await v.call('GET', `/links/${tokenOf(second.url)}`)).status).toBe(200);
    await owner.call('DELETE', `/items/${folder.id}/links/${second.id}`);
    const revoked = await v.call('GET', `/links/${tokenOf(second.url)}`);
    expect(revoked.status).toBe(410);
    expect(revoked.body.error.details.reason).toBe('revoked');

    expect((await v.call('GET', '/links/no-such-link-token-at-all-here')).status).toBe(404);
    expect((await v.call('GET', '/links/bad')).status).toBe(400);
  });
});
