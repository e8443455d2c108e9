import { grantsApi, invitationsApi, itemsApi, meApi, membersApi, workspacesApi, type TUpdateMemberRequest } from '@cabinet/contracts';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { formAction, GOOD_PASSWORD, mailedLink, mailsTo, signUpWithPassword, TestBrowser, uniqueEmail } from '../../testing/browser.ts';
import type { Person } from '../../testing/given.ts';
import { anonymous, callingRoutes, invalidFields } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { insertSession } from '../sessions/sessions.repo.ts';
import { INVITATIONS_PER_HOUR, RESENDS_PER_HOUR } from './invitations.service.ts';
import { filesFolderName } from './members.service.ts';

const test = useTestApp();
/** Someone not signed in. */
const nobody = () => callingRoutes(anonymous(test.app.url));

const emailOf = async (p: Person) => (await p.call(meApi.get)).body.user.email;
const tokenOf = (url: string) => url.split('/invite/')[1]!;
const actions = async (workspaceId: string) =>
  (
    await test.app.ctx.db.selectFrom('activity_events').select(['action', 'item_id', 'data']).where('workspace_id', '=', workspaceId).orderBy('id').execute()
  ).filter((r) => /^(member|invitation)\./.test(r.action));

/** A workspace with one person of each role, and someone outside it. */
async function team() {
  const owner = await test.given.person('Olive Owner');
  const admin = await test.given.person('Adam Admin');
  const member = await test.given.person('Mia Member');
  const guest = await test.given.person('Gus Guest');
  const outsider = await test.given.person('Otto Outside');
  const ws = owner.workspace.id;
  await test.given.membership(admin, ws, 'admin');
  await test.given.membership(member, ws, 'member');
  await test.given.membership(guest, ws, 'guest');
  await test.given.grant((await test.given.folder(owner, owner.workspace.rootId, 'For the guest')).id, { user: guest }, 'viewer');
  return { owner, admin, member, guest, outsider, ws };
}

const roles = async (owner: Person, ws: string) =>
  Object.fromEntries((await owner.call(workspacesApi.members, { params: { ws } })).body.items.map((m) => [m.userId, m.role]));

describe('changing roles', () => {
  it('is for the owner and admins; admins cannot touch the owner nor make one; members, guests and outsiders are refused', async () => {
    const { owner, admin, member, guest, outsider, ws } = await team();
    const patch = (p: Person, who: Person, role: TUpdateMemberRequest['role']) => p.call(membersApi.update, { params: { ws, userId: who.id }, body: { role } });
    expect((await patch(admin, member, 'admin')).body).toMatchObject({ userId: member.id, role: 'admin' });
    expect((await patch(owner, member, 'member')).body.role).toBe('member');
    expect(await patch(admin, owner, 'member')).toFail('forbidden');
    expect(await patch(admin, member, 'owner')).toFail('forbidden');
    expect(await patch(member, guest, 'member')).toFail('forbidden');
    expect(await patch(guest, member, 'guest')).toFail('forbidden');
    expect(await patch(outsider, member, 'guest')).toFail('not_found');
    expect(await patch(owner, outsider, 'member')).toFail('not_found');
    // Raw: a role the declaration does not allow.
    expect(await owner.raw('PATCH', `/workspaces/${ws}/members/${member.id}`, { role: 'boss' })).toFail('invalid_input');
    expect(await owner.call(membersApi.update, { params: { ws, userId: 'not-an-id' }, body: { role: 'member' } })).toFail('invalid_input');
    // The owner cannot step down but by handing over.
    expect(await patch(owner, owner, 'admin')).toFail('forbidden');
    // A read-only token changes nothing.
    expect((await (await test.given.readOnly(owner)).call(membersApi.update, { params: { ws, userId: member.id }, body: { role: 'admin' } })).status).toBe(403);
    expect(await roles(owner, ws)).toMatchObject({ [owner.id]: 'owner', [admin.id]: 'admin', [member.id]: 'member' });
    expect((await actions(ws)).map((a) => [a.action, a.item_id, a.data.to])).toEqual([
      ['member.role_changed', null, 'admin'],
      ['member.role_changed', null, 'member'],
    ]);
  });

  it('hands the workspace over in one step: the new owner, and the old one an admin; there is always one owner', async () => {
    const { owner, admin, member, guest, ws } = await team();
    expect(await owner.call(membersApi.update, { params: { ws, userId: guest.id }, body: { role: 'owner' } })).toFail('forbidden');
    expect((await owner.call(membersApi.update, { params: { ws, userId: member.id }, body: { role: 'owner' } })).body).toMatchObject({ role: 'owner' });
    const now = await roles(owner, ws);
    expect(Object.values(now).filter((r) => r === 'owner')).toHaveLength(1);
    expect(now).toMatchObject({ [member.id]: 'owner', [owner.id]: 'admin', [admin.id]: 'admin' });
    // The former owner is an admin now: they can no longer hand it over or touch the owner.
    expect(await owner.call(membersApi.update, { params: { ws, userId: admin.id }, body: { role: 'owner' } })).toFail('forbidden');
    expect(await owner.call(membersApi.update, { params: { ws, userId: member.id }, body: { role: 'member' } })).toFail('forbidden');
  });
});

describe('removing someone', () => {
  it('hands their My files to the chosen member as a folder, withdraws their access at once, and is recorded', async () => {
    const { owner, admin, member, guest, outsider, ws } = await team();
    const memberHome = (await member.call(workspacesApi.get, { params: { ws } })).body.homeId;
    const plans = await test.given.folder(member, memberHome, 'Plans', ws);
    const old = await test.given.folder(member, memberHome, 'Old drafts', ws);
    expect((await member.call(itemsApi.trash, { params: { id: old.id } })).status).toBe(200);
    const shared = await test.given.folder(owner, owner.workspace.rootId, 'Shared with Mia');
    await test.given.grant(shared.id, { user: member }, 'editor');
    const del = (p: Person, who: Person, to: string) => p.call(membersApi.remove, { params: { ws, userId: who.id }, query: { filesTo: to } });

    expect(await del(member, admin, owner.id)).toFail('forbidden');
    expect(await del(guest, member, owner.id)).toFail('forbidden');
    expect(await del(outsider, member, owner.id)).toFail('not_found');
    expect(await del(admin, owner, admin.id)).toFail('forbidden');
    expect(await del(owner, owner, admin.id)).toFail('forbidden');
    expect(await del(owner, member, member.id)).toFail('invalid_input');
    expect(await del(owner, member, guest.id)).toFail('invalid_input');
    expect(await del(owner, member, outsider.id)).toFail('invalid_input');
    // Raw: without the filesTo the declaration requires.
    expect(await owner.raw('DELETE', `/workspaces/${ws}/members/${member.id}`)).toFail('invalid_input');
    expect(await del(owner, outsider, owner.id)).toFail('not_found');

    // Every instance hears that this person's access changed (migration 0009's trigger fires on the delete).
    const heard: string[] = [];
    const unlisten = await test.app.ctx.database.listen('cabinet_events', (payload) => heard.push(payload));
    expect((await del(admin, member, admin.id)).status).toBe(204);
    await expect.poll(() => heard.some((p) => JSON.parse(p).access?.u === member.id)).toBe(true);
    await unlisten();

    expect(await member.call(workspacesApi.get, { params: { ws } })).toFail('not_found');
    expect((await member.call(itemsApi.get, { params: { id: plans.id } })).status).toBe(404);
    expect((await member.call(itemsApi.get, { params: { id: shared.id } })).status).toBe(404);
    expect(await roles(owner, ws)).not.toHaveProperty(member.id);
    // Their files are the admin's now, in a folder named after them.
    const adminHome = (await admin.call(workspacesApi.get, { params: { ws } })).body.homeId;
    const handed = (await admin.call(itemsApi.children, { params: { ws, id: adminHome } })).body.items;
    expect(handed.map((i) => i.name)).toEqual(["Mia Member's files"]);
    expect((await admin.call(itemsApi.children, { params: { ws, id: handed[0]!.id } })).body.items.map((i) => i.id)).toEqual([plans.id]);
    // What they had put in the trash is in the recipient's trash, to restore or let go.
    expect((await admin.call(itemsApi.trashList, { params: { ws } })).body.items.map((i) => i.id)).toContain(old.id);
    expect((await actions(ws)).find((a) => a.action === 'member.removed')).toMatchObject({ item_id: null, data: { userId: member.id, filesTo: admin.id } });

    // Back through an invitation, they start afresh; a second removal to the same person gets its own name.
    const invite = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    expect((await member.call(invitationsApi.accept, { params: { token: tokenOf(invite.url) } })).body.joined).toBe(true);
    const newHome = (await member.call(workspacesApi.get, { params: { ws } })).body.homeId;
    expect((await member.call(itemsApi.create, { params: { ws }, body: { kind: 'folder', name: 'New plans', parentId: newHome } })).status).toBe(201);
    expect((await del(owner, member, admin.id)).status).toBe(204);
    expect((await admin.call(itemsApi.children, { params: { ws, id: adminHome } })).body.items.map((i) => i.name).sort()).toEqual([
      "Mia Member's files",
      "Mia Member's files (2)",
    ]);
  });
});

describe('someone removed', () => {
  it('loses the workspace at once by every session and token, and their live stream within seconds; what they shared with others stays shared', async () => {
    const { owner, member, ws } = await team();
    const colleague = await test.given.person('Cleo Colleague');
    await test.given.membership(colleague, ws, 'member');
    const memberHome = (await member.call(workspacesApi.get, { params: { ws } })).body.homeId;
    // Shared by them from their My files, and from a folder of the shared root they were given to manage.
    const theirs = (await test.given.folder(member, memberHome, 'Handbook', ws)).id;
    const managed = await test.given.folder(owner, owner.workspace.rootId, 'Managed by Mia');
    await test.given.grant(managed.id, { user: member }, 'manager');
    for (const item of [theirs, managed.id]) {
      expect(
        (await member.call(grantsApi.create, { params: { id: item }, body: { principal: { type: 'user', id: colleague.id }, role: 'editor' } })).status,
      ).toBe(201);
    }
    const reader = await test.given.readOnly(member);
    const sessionToken = randomToken();
    await insertSession(test.app.ctx.db, {
      tokenHash: sha256(sessionToken),
      userId: member.id,
      userAgent: null,
      ip: null,
      expiresAt: new Date(Date.now() + 86_400_000),
      idTokenSealed: null,
      refreshTokenSealed: null,
    });
    const browser = new TestBrowser(test.app.url);
    browser.cookies.set('cabinet_session', sessionToken);
    const bySession = () => browser.call(workspacesApi.get, { params: { ws } });
    expect((await bySession()).status).toBe(200);
    // Fetched: the stream is read as it comes, where a call would wait for its end.
    const stream = await fetch(`${test.app.url}/api/v1/workspaces/${ws}/events`, { headers: { authorization: `Bearer ${member.token}` } });
    expect(stream.status).toBe(200);
    const streamEnded = (async () => {
      const r = stream.body!.getReader();
      while (!(await r.read()).done);
    })();

    const removedAt = Date.now();
    expect((await owner.call(membersApi.remove, { params: { ws, userId: member.id }, query: { filesTo: owner.id } })).status).toBe(204);
    for (const who of [member, reader]) {
      expect((await who.call(workspacesApi.get, { params: { ws } })).status).toBe(404);
      expect((await who.call(itemsApi.get, { params: { id: managed.id } })).status).toBe(404);
    }
    expect((await bySession()).status).toBe(404);
    await streamEnded;
    expect(Date.now() - removedAt).toBeLessThan(10_000);

    // Their shares were given on the workspace's behalf: the colleague keeps both.
    for (const item of [theirs, managed.id]) {
      const seen = await colleague.call(itemsApi.get, { params: { id: item } });
      expect([seen.status, seen.body.role]).toEqual([200, 'editor']);
    }
    expect((await colleague.call(itemsApi.update, { params: { id: theirs }, body: { name: 'Handbook 2' } })).status).toBe(200);
  });
});

describe('invitations', () => {
  it('by email: mailed with its link, listed for managers, accepted only by that verified address, once', async () => {
    const { owner, admin, member, guest, outsider, ws } = await team();
    const invitee = await test.given.person('Ivy Invitee');
    const email = await emailOf(invitee);
    const created = await admin.call(invitationsApi.create, { params: { ws }, body: { email, role: 'member' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, role: 'member', state: 'pending', uses: 0, maxUses: 1, createdBy: { id: admin.id, name: 'Adam Admin' } });
    expect(created.body.url).toMatch(new RegExp(`^${test.app.url}/invite/[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(created.body.url);
    // The token is not kept: only its hash.
    const row = await test.app.ctx.db.selectFrom('invitations').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(mailsTo(test.app.ctx.env.DATA_DIR, email)[0]).toMatchObject({
      subject: expect.stringContaining('Adam Admin invited you'),
      text: expect.stringContaining(created.body.url),
    });

    const list = await owner.call(invitationsApi.list, { params: { ws } });
    expect(list.body.items.map((i) => i.id)).toEqual([created.body.id]);
    expect(JSON.stringify(list.body)).not.toContain(token);
    for (const p of [member, guest]) expect(await p.call(invitationsApi.list, { params: { ws } })).toFail('forbidden');
    expect(await outsider.call(invitationsApi.list, { params: { ws } })).toFail('not_found');

    // Anyone may look at it before signing in.
    const preview = await nobody().call(invitationsApi.preview, { params: { token } });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      workspace: { id: ws, name: expect.any(String) },
      role: 'member',
      email,
      state: 'pending',
      invitedBy: 'Adam Admin',
    });

    const wrong = await outsider.call(invitationsApi.accept, { params: { token } });
    expect(wrong).toFail('forbidden');
    expect(wrong.error?.details).toMatchObject({ reason: 'wrong_email' });
    expect(await roles(owner, ws)).not.toHaveProperty(outsider.id);

    const accepted = await invitee.call(invitationsApi.accept, { params: { token } });
    expect(accepted.body).toMatchObject({ workspace: { id: ws }, role: 'member', joined: true });
    expect((await invitee.call(workspacesApi.get, { params: { ws } })).body.role).toBe('member');
    const twice = await invitee.call(invitationsApi.accept, { params: { token } });
    expect(twice).toFail('link_expired');
    expect(twice.error?.details).toMatchObject({ reason: 'accepted' });
    expect(
      await test.app.ctx.db.selectFrom('memberships').select('user_id').where('workspace_id', '=', ws).where('user_id', '=', invitee.id).execute(),
    ).toHaveLength(1);
    expect((await owner.call(invitationsApi.list, { params: { ws } })).body.items[0]).toMatchObject({ state: 'accepted', uses: 1 });
    expect((await nobody().call(invitationsApi.preview, { params: { token } })).body.state).toBe('accepted');

    // Someone who is already a member is not invited again.
    expect(await owner.call(invitationsApi.create, { params: { ws }, body: { email, role: 'admin' } })).toFail('invalid_input');
    expect((await actions(ws)).map((a) => a.action)).toEqual(['invitation.created', 'member.added', 'invitation.accepted']);
  });

  it('an unverified address does not count', async () => {
    const { owner, ws } = await team();
    const unverified = await test.given.person('Una Verified');
    await test.app.ctx.db.updateTable('users').set({ email_verified: false }).where('id', '=', unverified.id).execute();
    const created = (await owner.call(invitationsApi.create, { params: { ws }, body: { email: await emailOf(unverified), role: 'member' } })).body;
    const refused = await unverified.call(invitationsApi.accept, { params: { token: tokenOf(created.url) } });
    expect(refused.error?.details?.reason).toBe('unverified_email');
    expect(refused.error?.message).toMatch(/is not confirmed yet/);
  });

  it('an address confirmed after signing in counts at once: joining looks at the embedded provider’s account again', async () => {
    const { owner, ws } = await team();
    const browser = new TestBrowser(test.app.url);
    const email = uniqueEmail('later');
    // Signed up and signed in with the password, the mailed link not yet opened.
    await signUpWithPassword(browser, (await browser.navigate('/auth/login')).url, { name: 'Lena Later', email, password: GOOD_PASSWORD });
    expect((await browser.call(meApi.get)).body.user.emailVerified).toBe(false);
    const token = tokenOf((await owner.call(invitationsApi.create, { params: { ws }, body: { email, role: 'member' } })).body.url);
    const early = await browser.call(invitationsApi.accept, { params: { token } });
    expect(early).toFail('forbidden');
    expect(early.error?.details?.reason).toBe('unverified_email');
    expect(early.error?.message).toMatch(/open the link in the message sent to it, then try again/);

    // Confirmed elsewhere (another tab or device: the link asks for the password there); this session goes on.
    const elsewhere = new TestBrowser(test.app.url);
    const confirm = await elsewhere.navigate(await mailedLink(test.app.url, email, 'verify'));
    expect((await elsewhere.navigate(formAction(confirm), { form: { password: GOOD_PASSWORD } })).text).toContain('Email confirmed');

    const joined = await browser.call(invitationsApi.accept, { params: { token } });
    expect(joined.body).toMatchObject({ workspace: { id: ws }, role: 'member', joined: true });
    expect((await browser.call(meApi.get)).body.user.emailVerified).toBe(true);
  });

  it('an invite link: anyone signed in joins with its role until it runs out; one already in is not added twice', async () => {
    const { owner, admin, member, guest, ws } = await team();
    const link = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member', maxUses: 2 } })).body;
    expect(link).toMatchObject({ email: null, maxUses: 2, role: 'member' });
    const token = tokenOf(link.url);
    const a = await test.given.person('Link One');
    const b = await test.given.person('Link Two');
    const c = await test.given.person('Link Three');
    expect((await a.call(invitationsApi.accept, { params: { token } })).body).toMatchObject({ role: 'member', joined: true });
    // Already in (the same role or a stronger one): nothing changes, no use counted.
    expect((await member.call(invitationsApi.accept, { params: { token } })).body).toMatchObject({ role: 'member', joined: false });
    expect((await admin.call(invitationsApi.accept, { params: { token } })).body).toMatchObject({ role: 'admin', joined: false });
    expect((await b.call(invitationsApi.accept, { params: { token } })).body.joined).toBe(true);
    const usedUp = await c.call(invitationsApi.accept, { params: { token } });
    expect(usedUp).toFail('link_expired');
    expect(usedUp.error?.details?.reason).toBe('used_up');
    expect(usedUp.error?.message).toMatch(/used as many times as it allows/);
    expect((await nobody().call(invitationsApi.preview, { params: { token } })).body.state).toBe('used_up');
    expect((await owner.call(invitationsApi.list, { params: { ws } })).body.items.find((i) => i.id === link.id)).toMatchObject({
      state: 'accepted',
      uses: 2,
    });
    // An accepted invitation is not revoked (PRODUCT.md §4: accepted is final).
    expect(await owner.call(invitationsApi.revoke, { params: { ws, id: link.id } })).toFail('invalid_input');

    // A guest invited as a member becomes one.
    const memberLink = (await admin.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    expect((await guest.call(invitationsApi.accept, { params: { token: tokenOf(memberLink.url) } })).body).toMatchObject({ role: 'member', joined: true });
    expect((await roles(owner, ws))[guest.id]).toBe('member');
  });

  it('revoked or expired: the link stops working, with a clear reason; resent: a new link, the old one dead', async () => {
    const { owner, admin, member, ws } = await team();
    const someone = await test.given.person('Sam Someone');
    const link = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    expect(await member.call(invitationsApi.revoke, { params: { ws, id: link.id } })).toFail('forbidden');
    expect((await admin.call(invitationsApi.revoke, { params: { ws, id: link.id } })).status).toBe(204);
    const revoked = await someone.call(invitationsApi.accept, { params: { token: tokenOf(link.url) } });
    expect([revoked.status, revoked.error?.details?.reason]).toEqual([410, 'revoked']);
    expect(await admin.call(invitationsApi.revoke, { params: { ws, id: someone.workspace.id } })).toFail('not_found');

    const soon = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member', expiresAt: new Date(Date.now() + 60_000).toISOString() } }))
      .body;
    await test.app.ctx.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', soon.id)
      .execute();
    const expired = await someone.call(invitationsApi.accept, { params: { token: tokenOf(soon.url) } });
    expect([expired.status, expired.error?.details?.reason]).toEqual([410, 'expired']);
    expect((await owner.call(invitationsApi.list, { params: { ws } })).body.items.find((i) => i.id === soon.id)?.state).toBe('expired');

    // Resent: a new token, mailed; the old URL no longer works.
    const email = await emailOf(someone);
    const invited = (await owner.call(invitationsApi.create, { params: { ws }, body: { email, role: 'admin' } })).body;
    const resent = await owner.call(invitationsApi.resend, { params: { ws, id: invited.id } });
    expect(resent.body).toMatchObject({ id: invited.id, state: 'pending' });
    expect(await someone.call(invitationsApi.accept, { params: { token: tokenOf(invited.url) } })).toFail('not_found');
    const urls = mailsTo(test.app.ctx.env.DATA_DIR, email).map((m) => /https?:\S+\/invite\/\S+/.exec(m.text)![0]);
    const fresh = urls.find((u) => u !== invited.url)!;
    expect((await someone.call(invitationsApi.accept, { params: { token: tokenOf(fresh) } })).body).toMatchObject({ role: 'admin', joined: true });
    // Links are not mailed; accepted ones are not resent.
    const plain = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    expect(await owner.call(invitationsApi.resend, { params: { ws, id: plain.id } })).toFail('invalid_input');
    expect(await owner.call(invitationsApi.resend, { params: { ws, id: invited.id } })).toFail('invalid_input');
    expect((await actions(ws)).map((a) => a.action)).toContain('invitation.revoked');
  });

  it('refuses bad input, unknown tokens, members, guests and outsiders; rate-limits making them', async () => {
    const { owner, member, guest, outsider, ws } = await team();
    const invite = (p: Person) => p.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } });
    expect(await invite(member)).toFail('forbidden');
    expect(await invite(guest)).toFail('forbidden');
    expect(await invite(outsider)).toFail('not_found');
    // Raw: bodies the declaration does not allow (a guest's role among them).
    const post = (p: Person, body: unknown) => p.raw('POST', `/workspaces/${ws}/invitations`, body);
    const asGuest = await post(owner, { role: 'guest' });
    expect(asGuest).toFail('invalid_input');
    expect(invalidFields(asGuest)[0]?.message).toMatch(/share an item with them instead/);
    for (const body of [
      { role: 'owner' },
      { role: 'member', email: 'not an address' },
      { role: 'member', maxUses: 0 },
      { role: 'member', expiresAt: 'tomorrow' },
      { role: 'member', expiresAt: new Date(Date.now() - 1000).toISOString() },
      { role: 'member', expiresAt: new Date(Date.now() + 100 * 86_400_000).toISOString() },
      { role: 'member', email: 'x@example.com', maxUses: 3 },
      {},
    ]) {
      expect(await post(owner, body), JSON.stringify(body)).toFail('invalid_input');
    }
    expect((await nobody().call(invitationsApi.preview, { params: { token: 'x'.repeat(43) } })).status).toBe(404);
    expect((await nobody().call(invitationsApi.preview, { params: { token: 'short' } })).status).toBe(400);
    expect(await outsider.call(invitationsApi.accept, { params: { token: 'y'.repeat(43) } })).toFail('not_found');
    expect((await nobody().call(invitationsApi.accept, { params: { token: 'y'.repeat(43) } })).status).toBe(401);

    // Sends count wherever they were made: here, sends recorded in the owner's own other workspace.
    const rows = Array.from({ length: INVITATIONS_PER_HOUR }, () => ({
      workspace_id: outsider.workspace.id,
      actor_kind: 'user' as const,
      actor_user_id: owner.id,
      action: 'invitation.resent',
      data: JSON.stringify({ invitationId: crypto.randomUUID() }),
    }));
    await test.app.ctx.db.insertInto('activity_events').values(rows).execute();
    const limited = await invite(owner);
    expect(limited).toFail('rate_limited');
    expect(limited.headers.get('retry-after')).toBe('600');
  });
});

describe('who may manage invitations', () => {
  it('owner and admin list, make, resend and revoke them; members and guests are refused; outsiders do not see the workspace', async () => {
    const { owner, admin, member, guest, outsider, ws } = await team();
    const expected = { owner: 'ok', admin: 'ok', member: 'forbidden', guest: 'forbidden', outsider: 'not_found' } as const;
    for (const [name, p] of Object.entries({ owner, admin, member, guest, outsider }) as [keyof typeof expected, Person][]) {
      const mine = (await owner.call(invitationsApi.create, { params: { ws }, body: { email: `someone.${name}@example.com`, role: 'member' } })).body;
      const calls = [
        await p.call(invitationsApi.list, { params: { ws } }),
        await p.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } }),
        await p.call(invitationsApi.resend, { params: { ws, id: mine.id } }),
        await p.call(invitationsApi.revoke, { params: { ws, id: mine.id } }),
      ];
      for (const res of calls) expect(res.status < 300 ? 'ok' : res.error?.code, `${name}: ${JSON.stringify(res.body)}`).toBe(expected[name]);
    }
    // Bad ids are bad input; another workspace's invitation is not found.
    expect(await owner.call(invitationsApi.revoke, { params: { ws, id: 'nope' } })).toFail('invalid_input');
    const elsewhere = (await outsider.call(invitationsApi.create, { params: { ws: outsider.workspace.id }, body: { role: 'member' } })).body;
    expect(await owner.call(invitationsApi.revoke, { params: { ws, id: elsewhere.id } })).toFail('not_found');
    expect(await owner.call(invitationsApi.resend, { params: { ws, id: elsewhere.id } })).toFail('not_found');
  });
});

describe('whoever made an invitation stops speaking for it', () => {
  it('an admin demoted or removed loses their pending invitations; one whose maker no longer manages the workspace is refused', async () => {
    const { owner, admin, member, ws } = await team();
    const other = await test.given.person('Ada Second');
    await test.given.membership(other, ws, 'admin');
    const byAdmin = (await admin.call(invitationsApi.create, { params: { ws }, body: { role: 'admin' } })).body;
    const byOther = (await other.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    const byOwner = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    expect((await owner.call(membersApi.update, { params: { ws, userId: admin.id }, body: { role: 'member' } })).status).toBe(200);
    const list = (await owner.call(invitationsApi.list, { params: { ws } })).body.items;
    expect(list.find((i) => i.id === byAdmin.id)?.state).toBe('revoked');
    expect(list.find((i) => i.id === byOwner.id)?.state).toBe('pending');
    const joiner = await test.given.person('Jo Joiner');
    const refused = await joiner.call(invitationsApi.accept, { params: { token: tokenOf(byAdmin.url) } });
    expect([refused.status, refused.error?.details?.reason]).toEqual([410, 'revoked']);
    // Removed: the same.
    expect((await owner.call(membersApi.remove, { params: { ws, userId: other.id }, query: { filesTo: owner.id } })).status).toBe(204);
    expect((await joiner.call(invitationsApi.accept, { params: { token: tokenOf(byOther.url) } })).error?.details?.reason).toBe('revoked');
    // Should the maker lose the role some other way, accepting still checks who made it.
    const fresh = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    const third = await test.given.person('Tess Third');
    await test.given.membership(third, ws, 'admin');
    const byThird = (await third.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    await test.app.ctx.db.updateTable('memberships').set({ role: 'member' }).where('workspace_id', '=', ws).where('user_id', '=', third.id).execute();
    const gone = await joiner.call(invitationsApi.accept, { params: { token: tokenOf(byThird.url) } });
    expect(gone).toFail('link_expired');
    expect(gone.error?.details).toMatchObject({ reason: 'revoked' });
    expect(gone.error?.message).toMatch(/no longer manages the workspace/);
    expect((await joiner.call(invitationsApi.accept, { params: { token: tokenOf(fresh.url) } })).body.joined).toBe(true);
    expect((await member.call(workspacesApi.get, { params: { ws } })).body.role).toBe('member');
  });
});

describe('at the same moment', () => {
  it('two hand-overs at once leave one owner; removing X to Y and Y to X at once does not deadlock', async () => {
    const { owner, admin, member, ws } = await team();
    const results = await Promise.all([
      owner.call(membersApi.update, { params: { ws, userId: admin.id }, body: { role: 'owner' } }),
      owner.call(membersApi.update, { params: { ws, userId: member.id }, body: { role: 'owner' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(Object.values(await roles(admin, ws)).filter((r) => r === 'owner')).toHaveLength(1);

    const x = await test.given.person('Xena X');
    const y = await test.given.person('Yuri Y');
    await test.given.membership(x, ws, 'member');
    await test.given.membership(y, ws, 'member');
    const newOwner = results[0]!.status === 200 ? admin : member;
    const both = await Promise.all([
      newOwner.call(membersApi.remove, { params: { ws, userId: x.id }, query: { filesTo: y.id } }),
      newOwner.call(membersApi.remove, { params: { ws, userId: y.id }, query: { filesTo: x.id } }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([204, 400]);
  });

  it('two invitations to one workspace accepted at once by one person: one membership, no error', async () => {
    const { owner, admin, ws } = await team();
    const a = (await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    const b = (await admin.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body;
    const joiner = await test.given.person('Double Joiner');
    const results = await Promise.all([
      joiner.call(invitationsApi.accept, { params: { token: tokenOf(a.url) } }),
      joiner.call(invitationsApi.accept, { params: { token: tokenOf(b.url) } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.joined).sort()).toEqual([false, true]);
    expect(
      await test.app.ctx.db.selectFrom('memberships').select('user_id').where('workspace_id', '=', ws).where('user_id', '=', joiner.id).execute(),
    ).toHaveLength(1);
  });
});

describe('sending invitations', () => {
  it('every send counts, resends too: each is recorded, one invitation is mailed at most 5 times an hour, and one address gets one pending invitation', async () => {
    const { owner, ws } = await team();
    const invited = (await owner.call(invitationsApi.create, { params: { ws }, body: { email: 'twice@example.com', role: 'member' } })).body;
    const again = await owner.call(invitationsApi.create, { params: { ws }, body: { email: 'TWICE@example.com', role: 'admin' } });
    expect(again).toFail('invalid_input');
    expect(again.error?.message).toMatch(/already has a pending invitation/);
    for (let i = 1; i < RESENDS_PER_HOUR; i++) expect((await owner.call(invitationsApi.resend, { params: { ws, id: invited.id } })).status).toBe(200);
    const limited = await owner.call(invitationsApi.resend, { params: { ws, id: invited.id } });
    expect(limited).toFail('rate_limited');
    expect((await actions(ws)).filter((a) => a.action === 'invitation.resent')).toHaveLength(RESENDS_PER_HOUR - 1);
    // Another invitation is not held back by this one's limit.
    expect((await owner.call(invitationsApi.create, { params: { ws }, body: { email: 'other@example.com', role: 'member' } })).status).toBe(201);
  });

  it('when the mail cannot be sent nothing changes: no invitation made, and a resent one keeps its old link', async () => {
    const { owner, ws } = await team();
    const someone = await test.given.person('Mail Less');
    const email = await emailOf(someone);
    const invited = (await owner.call(invitationsApi.create, { params: { ws }, body: { email, role: 'member' } })).body;
    const send = test.app.ctx.mailer.send;
    test.app.ctx.mailer.send = () => Promise.reject(new Error('mail server down'));
    try {
      const resent = await owner.call(invitationsApi.resend, { params: { ws, id: invited.id } });
      expect(resent.status).toBe(500);
      expect(resent.error?.message).toMatch(/could not be sent.*the link sent before still works/);
      const made = await owner.call(invitationsApi.create, { params: { ws }, body: { email: 'nobody.mailed@example.com', role: 'member' } });
      expect(made.error?.message).toMatch(/could not be sent.*The invitation was not made/);
    } finally {
      test.app.ctx.mailer.send = send;
    }
    const list = (await owner.call(invitationsApi.list, { params: { ws } })).body.items;
    expect(list.map((i) => i.email)).toEqual([email]);
    // Retrying works, and the first link was never killed.
    expect((await owner.call(invitationsApi.create, { params: { ws }, body: { email: 'nobody.mailed@example.com', role: 'member' } })).status).toBe(201);
    expect((await someone.call(invitationsApi.accept, { params: { token: tokenOf(invited.url) } })).body.joined).toBe(true);
  });

  it('mails only once the invitation is made: a slow mail server holds nothing up, a refused invitation is never mailed, and one whose mail failed is withdrawn on the record', async () => {
    const { owner, ws } = await team();
    const send = test.app.ctx.mailer.send;
    const mailed: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    test.app.ctx.mailer.send = async (m) => {
      mailed.push(m.to);
      await held;
    };
    try {
      const slow = owner.call(invitationsApi.create, { params: { ws }, body: { email: 'slow.mail@example.com', role: 'member' } });
      await expect.poll(() => mailed).toEqual(['slow.mail@example.com']);
      // While the mail is on its way, the same person's next invitation (which takes the same lock) goes through.
      const meanwhile = await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } });
      expect(meanwhile.status).toBe(201);
      release();
      expect((await slow).status).toBe(201);
      // Refused inside its transaction: never mailed.
      expect((await owner.call(invitationsApi.create, { params: { ws }, body: { email: 'SLOW.mail@example.com', role: 'member' } })).status).toBe(400);
      expect(mailed).toEqual(['slow.mail@example.com']);
      test.app.ctx.mailer.send = () => Promise.reject(new Error('mail server down'));
      expect((await owner.call(invitationsApi.create, { params: { ws }, body: { email: 'unlucky@example.com', role: 'member' } })).status).toBe(500);
    } finally {
      test.app.ctx.mailer.send = send;
    }
    const recorded = (await actions(ws))
      .filter((a) => (a.data as { email?: string }).email === 'unlucky@example.com')
      .map((a) => [a.action, (a.data as { reason?: string }).reason]);
    expect(recorded).toEqual([
      ['invitation.created', undefined],
      ['invitation.revoked', 'not_mailed'],
    ]);
  });

  it('the list comes a page at a time', async () => {
    const { owner, ws } = await team();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await owner.call(invitationsApi.create, { params: { ws }, body: { role: 'member' } })).body.id);
    const first = (await owner.call(invitationsApi.list, { params: { ws }, query: { limit: '3' } })).body;
    expect(first.items).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await owner.call(invitationsApi.list, { params: { ws }, query: { limit: 3, cursor: first.nextCursor! } })).body;
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((i) => i.id)).toEqual([...made].reverse());
  });
});

describe('accounts that are deactivated', () => {
  it("cannot be made owner nor receive a removed person's files", async () => {
    const { owner, admin, member, ws } = await team();
    await test.app.ctx.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', admin.id).execute();
    const handOver = await owner.call(membersApi.update, { params: { ws, userId: admin.id }, body: { role: 'owner' } });
    expect(handOver).toFail('invalid_input');
    const remove = await owner.call(membersApi.remove, { params: { ws, userId: member.id }, query: { filesTo: admin.id } });
    expect(remove).toFail('invalid_input');
    expect((await roles(owner, ws))[owner.id]).toBe('owner');
  });
});

describe('what a removed person leaves', () => {
  it("what they trashed outside their My files is in the recipient's trash; an empty My files is not handed over", async () => {
    const { owner, admin, member, guest, ws } = await team();
    const shared = await test.given.folder(member, owner.workspace.rootId, 'Shared scraps', ws);
    const ownersThing = await test.given.folder(owner, owner.workspace.rootId, 'Owner thing');
    expect((await member.call(itemsApi.trash, { params: { id: shared.id } })).status).toBe(200);
    expect((await member.call(itemsApi.trash, { params: { id: ownersThing.id } })).status).toBe(200);
    expect((await owner.call(membersApi.remove, { params: { ws, userId: member.id }, query: { filesTo: admin.id } })).status).toBe(204);
    const trash = (await admin.call(itemsApi.trashList, { params: { ws } })).body.items.map((i) => i.id);
    expect(trash).toEqual(expect.arrayContaining([shared.id, ownersThing.id]));
    // The member's My files was empty, and so is the guest's: no folder lands in the recipient's My files.
    expect((await owner.call(membersApi.remove, { params: { ws, userId: guest.id }, query: { filesTo: admin.id } })).status).toBe(204);
    const adminHome = (await admin.call(workspacesApi.get, { params: { ws } })).body.homeId;
    expect((await admin.call(itemsApi.children, { params: { ws, id: adminHome } })).body.items).toEqual([]);
  });

  it('the folder is named after them within the name rules, even for names that break them', async () => {
    expect(filesFolderName('A/B\u0007 C ')).toBe("A-B C's files");
    expect(filesFolderName('   ')).toBe("Former member's files");
    const long = filesFolderName('é'.repeat(300));
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(255);
    expect(long.endsWith("'s files")).toBe(true);
    expect(filesFolderName('x\uD83D')).toBe("x's files");
    expect(filesFolderName('😀'.repeat(100)).includes('\uFFFD')).toBe(false);

    const { owner, admin, member, ws } = await team();
    const weird = `M/${'ß'.repeat(200)}`;
    await test.app.ctx.db.updateTable('users').set({ name: weird }).where('id', '=', member.id).execute();
    const memberHome = (await member.call(workspacesApi.get, { params: { ws } })).body.homeId;
    await test.given.folder(member, memberHome, 'Stuff', ws);
    const adminHome = (await admin.call(workspacesApi.get, { params: { ws } })).body.homeId;
    // A folder already named so, differently cased: SQL's lower() decides, as the unique index does.
    const name = filesFolderName(weird);
    await test.given.folder(admin, adminHome, name.toLowerCase(), ws);
    expect((await owner.call(membersApi.remove, { params: { ws, userId: member.id }, query: { filesTo: admin.id } })).status).toBe(204);
    const names = (await admin.call(itemsApi.children, { params: { ws, id: adminHome } })).body.items.map((i) => i.name);
    expect(names).toHaveLength(2);
    expect(names).toContain(`${name} (2)`);
  });
});

describe('the request log', () => {
  it("never holds an invitation's or a public link's token", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp(test.app.ctx, { logger: { level: 'info', stream }, webDist: path.join(test.app.dataDir, 'no-web-build') });
    try {
      const token = 'T0kenT0kenT0kenT0kenT0kenT0kenT0kenT0ken123';
      await app.inject({ method: 'GET', url: `/api/v1/invitations/${token}` });
      await app.inject({ method: 'POST', url: `/api/v1/invitations/${token}/accept` });
      await app.inject({ method: 'GET', url: `/invite/${token}?x=1` });
      await app.inject({ method: 'GET', url: `/s/${token}` });
      await app.inject({ method: 'POST', url: `/api/v1/links/${token}/unlock`, payload: { password: 'not this one' } });
      const logged = lines.join('');
      expect(logged).toContain('/api/v1/invitations/…/accept');
      expect(logged).toContain('/invite/…');
      expect(logged).toContain('/s/…');
      expect(logged).toContain('/api/v1/links/…/unlock');
      expect(logged).not.toContain(token);
    } finally {
      await app.close();
    }
  });
});

describe('the member list', () => {
  it('comes a page at a time, by name, and shows managers deactivated accounts as such', async () => {
    const { owner, admin, member, guest, ws } = await team();
    const gone = await test.given.person('Zed Gone');
    await test.given.membership(gone, ws, 'member');
    await test.app.ctx.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', gone.id).execute();
    const seen: { userId: string; status?: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await admin.call(workspacesApi.members, { params: { ws }, query: { limit: 2, include: 'deactivated', ...(cursor ? { cursor } : {}) } });
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.map((m) => m.userId)).toEqual([admin.id, guest.id, member.id, owner.id, gone.id]);
    expect(seen.find((m) => m.userId === gone.id)?.status).toBe('deactivated');
    expect(seen.find((m) => m.userId === owner.id)?.status).toBe('active');
    // Without asking, and for mentions, only active accounts; members may not ask for the rest.
    expect((await member.call(workspacesApi.members, { params: { ws } })).body.items.map((m) => m.userId)).not.toContain(gone.id);
    expect(await member.call(workspacesApi.members, { params: { ws }, query: { include: 'deactivated' } })).toFail('forbidden');
  });
});
