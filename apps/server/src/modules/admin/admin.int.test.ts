import { adminApi, meApi, securityApi, uploadsApi, uuidv7 } from '@cabinet/contracts';
import { totpCode } from '@cabinet/idp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParagraph, collabClients, until } from '../../testing/collab-client.ts';
import { formAction, mailsTo, signIn, signUp, TestBrowser } from '../../testing/browser.ts';
import { watch } from '../../testing/event-watch.ts';
import { addPasskey, PasskeyAuthenticator, passkeyForm } from '../../testing/passkey-authenticator.ts';
import type { Person } from '../../testing/given.ts';
import { anonymous, callingRoutes, type Answer } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000' });
let root: Person;
let clients: ReturnType<typeof collabClients>;

/** A person made an instance administrator, as `cabinet user create --admin` does. */
async function administrator(name = 'Root'): Promise<Person> {
  const person = await test.given.person(name);
  await test.app.ctx.db.updateTable('users').set({ is_instance_admin: true }).where('id', '=', person.id).execute();
  return person;
}

/** A failed job, as the runner leaves one after its last attempt. */
async function failedJob(kind = 'blob.delete', error = 'storage answered 500') {
  const id = uuidv7();
  await test.app.ctx.db
    .insertInto('jobs')
    .values({
      id,
      kind,
      payload: JSON.stringify({ key: 'blobs/x' }),
      run_at: new Date(),
      attempts: 3,
      max_attempts: 3,
      last_error: error,
      last_attempt_at: new Date(),
      created_at: new Date(),
    })
    .execute();
  return id;
}

beforeAll(async () => {
  root = await administrator();
  clients = collabClients(test.app.url, { retryMs: 1000 });
});
afterAll(() => clients.destroyAll());

describe('instance administration', () => {
  it('is refused to everyone but instance administrators, workspace owners included', async () => {
    const owner = await test.given.person('Owner');
    const id = owner.id;
    const calls = [
      owner.call(adminApi.overview),
      owner.call(adminApi.settings),
      owner.call(adminApi.workspaces, { query: {} }),
      owner.call(adminApi.updateWorkspace, { params: { id: owner.workspace.id }, body: { quotaBytes: 1 } }),
      owner.call(adminApi.users, { query: {} }),
      owner.call(adminApi.updateUser, { params: { id: root.id }, body: { status: 'deactivated' } }),
      owner.call(adminApi.signOutUser, { params: { id: root.id } }),
      owner.call(adminApi.resetTwoStep, { params: { id: root.id } }),
      owner.call(adminApi.jobs),
      owner.call(adminApi.retryJob, { params: { id } }),
      owner.call(adminApi.discardJob, { params: { id } }),
      owner.call(adminApi.audit, { query: {} }),
    ];
    for (const answer of await Promise.all(calls)) expect(answer).toFail('forbidden');
    // No one signed in: every admin route asks for a sign-in first.
    const { call } = callingRoutes(anonymous(test.app.url));
    for (const route of Object.values(adminApi)) {
      const params = route.path.includes(':id') ? { params: { id } } : {};
      const body = route.method === 'PATCH' ? { body: {} } : {};
      const answer = await (call as (r: typeof route, a: object) => Promise<Answer<unknown>>)(route, {
        ...params,
        ...body,
        ...(route.method === 'GET' ? { query: {} } : {}),
      });
      expect(answer, `${route.method} ${route.path}`).toFail('unauthenticated');
    }
    // Nothing changed: the owner's quota is still none, the administrator still active.
    const ws = await root.call(adminApi.workspaces, { query: { limit: 1000 } });
    expect(ws.body.items.find((w) => w.id === owner.workspace.id)?.quotaBytes).toBeNull();
    expect((await root.call(meApi.get)).status).toBe(200);
  });

  it('shows the instance: version, health, usage, settings with secrets masked', async () => {
    const overview = await root.call(adminApi.overview);
    expect(overview.status).toBe(200);
    expect(overview.body.health.database.state).toBe('ok');
    expect(overview.body.health.storage.state).toBe('ok');
    expect(overview.body.health.redis.state).toBe('not_configured');
    expect(overview.body.health.mail.state).toBe('not_configured');
    expect(overview.body.usage.people).toBeGreaterThanOrEqual(1);
    expect(overview.body.backups).toMatchObject({ schedule: null, next: null });
    const settings = await root.call(adminApi.settings);
    const byName = new Map(settings.body.items.map((s) => [s.name, s]));
    expect(byName.get('SESSION_SECRET')).toMatchObject({ secret: true, value: '••••••••' });
    expect(byName.get('MAX_FILE_SIZE')).toMatchObject({ secret: false, set: false });
    expect(JSON.stringify(settings.body)).not.toContain(test.app.ctx.env.SESSION_SECRET);
  });

  it('sets a workspace quota, which uploads then meet, and audits it', async () => {
    const bea = await test.given.person('Bea');
    await test.given.upload(bea, bea.workspace.homeId, 'a.txt', new Uint8Array(1000));
    const listed = await root.call(adminApi.workspaces, { query: { q: 'Bea' } });
    const row = listed.body.items.find((w) => w.id === bea.workspace.id)!;
    expect(row).toMatchObject({ usedBytes: 1000, quotaBytes: null, memberCount: 1, owner: { id: bea.id } });

    const set = await root.call(adminApi.updateWorkspace, { params: { id: bea.workspace.id }, body: { quotaBytes: 1500 } });
    expect(set.body).toMatchObject({ quotaBytes: 1500, usedBytes: 1000 });
    const refused = await bea.call(uploadsApi.start, {
      params: { ws: bea.workspace.id },
      body: { parentId: bea.workspace.homeId, name: 'b.bin', size: 600, sha256: 'a'.repeat(64) },
    });
    expect(refused).toFail('quota_exceeded');
    expect((await root.call(adminApi.updateWorkspace, { params: { id: bea.workspace.id }, body: { quotaBytes: null } })).body.quotaBytes).toBeNull();
    expect(await root.call(adminApi.updateWorkspace, { params: { id: uuidv7() }, body: { quotaBytes: 1 } })).toFail('not_found');
    expect(await root.call(adminApi.updateWorkspace, { params: { id: bea.workspace.id }, body: { quotaBytes: -1 } })).toFail('invalid_input');

    const audit = await root.call(adminApi.audit, { query: {} });
    const entries = audit.body.items.filter((e) => e.targetId === bea.workspace.id);
    // Done with an administrator's API token: the audit says so, and which token.
    expect(entries.map((e) => [e.action, e.data])).toEqual([
      ['workspace.quota_changed', { from: 1500, to: null, via: 'token', tokenId: expect.any(String) }],
      ['workspace.quota_changed', { from: null, to: 1500, via: 'token', tokenId: expect.any(String) }],
    ]);
    expect(entries[0]!.actor?.id).toBe(root.id);
  });

  it('deactivates a person: their token, session, event stream and collaboration socket end; activated, they sign in again', async () => {
    const signedUp = await signUp(test.app.url, { name: 'Cleo' });
    const cleoId = (await signedUp.browser.call(meApi.get)).body.user.id;
    const cleo = await test.given.person('Cleo token');
    // The token person stands for Cleo's scripts: their API token is Cleo's.
    await test.app.ctx.db.updateTable('api_tokens').set({ user_id: cleoId }).where('user_id', '=', cleo.id).execute();
    await test.app.ctx.db.updateTable('memberships').set({ user_id: cleoId }).where('user_id', '=', cleo.id).execute();
    const doc = await test.given.document(cleo, cleo.workspace.homeId, 'Notes');
    const stream = await watch(test.app.url, cleo, cleo.workspace.id);
    await stream.ready();
    const socket = clients.connect(doc.id, cleo.token);
    await until(() => socket.outcome.synced, 'the socket to sync');
    addParagraph(socket.document, 'typed before');

    const off = await root.call(adminApi.updateUser, { params: { id: cleoId }, body: { status: 'deactivated' } });
    expect(off.body).toMatchObject({ status: 'deactivated' });
    expect(await cleo.call(meApi.get)).toFail('unauthenticated');
    expect(await signedUp.browser.call(meApi.get)).toFail('unauthenticated');
    await until(() => !!(socket.outcome.closed ?? socket.outcome.failed), 'the collaboration socket to close', 15_000);
    await expect(Promise.race([stream.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('still open'), 15_000))])).resolves.toBe('ended');
    // Signing in again is refused while deactivated.
    const again = await signIn(test.app.url, signedUp.email, signedUp.password);
    expect(again.page.url).toMatch(/deactivated/);

    const on = await root.call(adminApi.updateUser, { params: { id: cleoId }, body: { status: 'active' } });
    expect(on.body.status).toBe('active');
    // The token stays revoked; a fresh sign-in works.
    expect(await cleo.call(meApi.get)).toFail('unauthenticated');
    const back = await signIn(test.app.url, signedUp.email, signedUp.password);
    expect((await back.browser.call(meApi.get)).body.user.id).toBe(cleoId);

    const actions = (await root.call(adminApi.audit, { query: {} })).body.items.filter((e) => e.targetId === cleoId).map((e) => e.action);
    expect(actions).toEqual(['user.activated', 'user.deactivated']);
    const deactivated = (await root.call(adminApi.audit, { query: {} })).body.items.find((e) => e.action === 'user.deactivated' && e.targetId === cleoId)!;
    expect(deactivated.data).toMatchObject({ sessions: 1, tokens: 1 });
  });

  it('signs a person out everywhere, their provider session too, leaving their tokens', async () => {
    const dan = await signUp(test.app.url, { name: 'Dan' });
    const danId = (await dan.browser.call(meApi.get)).body.user.id;
    // While the provider's session lasts, signing in again asks for nothing.
    const quick = await dan.browser.navigate('/auth/login?returnTo=%2Faccount');
    expect(new URL(quick.url).pathname).toBe('/account');
    const out = await root.call(adminApi.signOutUser, { params: { id: danId } });
    expect(out.body).toEqual({ revoked: 2 });
    expect(await dan.browser.call(meApi.get)).toFail('unauthenticated');
    // The provider asks for the password again: its own session ended too.
    const next = await dan.browser.navigate('/auth/login?returnTo=%2Faccount');
    expect(formAction(next)).toMatch(/\/idp\/interaction\//);
    expect(next.text).toContain('type="password"');
    expect(await root.call(adminApi.signOutUser, { params: { id: uuidv7() } })).toFail('not_found');
  });

  it('resets a person’s two-step sign-in: app, recovery codes and passkeys; their password alone signs in', async () => {
    // An administrator in a browser: how someone signs in is not changed with a token.
    const rita = await signUp(test.app.url, { name: 'Rita' });
    const ritaId = (await rita.browser.call(meApi.get)).body.user.id;
    await test.app.ctx.db.updateTable('users').set({ is_instance_admin: true }).where('id', '=', ritaId).execute();
    const admin = rita.browser;
    const eve = await signUp(test.app.url, { name: 'Eve' });
    const eveId = (await eve.browser.call(meApi.get)).body.user.id;
    const begun = await eve.browser.call(securityApi.beginTotp);
    await eve.browser.call(securityApi.confirmTotp, { body: { code: totpCode(begun.body.secret) } });
    const device = new PasskeyAuthenticator(test.app.url);
    expect((await addPasskey(eve.browser, device, 'Phone')).status).toBe(201);
    expect((await signIn(test.app.url, eve.email, eve.password)).page.text).toContain('<h1>Two-step sign-in</h1>');

    const reset = await admin.call(adminApi.resetTwoStep, { params: { id: eveId } });
    expect(reset.body).toEqual({ removed: true, passkeys: 1 });
    expect((await eve.browser.call(securityApi.get)).body).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    expect((await eve.browser.call(securityApi.listPasskeys)).body.passkeys).toEqual([]);
    expect((await signIn(test.app.url, eve.email, eve.password)).page.url).toBe(`${test.app.url}/`);
    const browser = new TestBrowser(test.app.url);
    const form = passkeyForm(await browser.navigate('/auth/login'));
    const refused = await browser.navigate(form.action, { form: { response: JSON.stringify(device.signIn(form.options)) } });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('That passkey did not sign you in');
    const audited = (await root.call(adminApi.audit, { query: {} })).body.items.find((e) => e.action === 'user.two_step_reset' && e.targetId === eveId)!;
    expect(audited).toMatchObject({ targetLabel: eve.email, data: { removed: true, passkeys: 1 } });
    expect(mailsTo(test.app.dataDir, eve.email).at(-1)!.subject).toBe('Your Cabinet two-step sign-in was reset');

    // Again, nothing is left to remove; an unknown person is not found; a hosted provider's account is the provider's.
    expect((await admin.call(adminApi.resetTwoStep, { params: { id: eveId } })).body).toEqual({ removed: false, passkeys: 0 });
    expect(await admin.call(adminApi.resetTwoStep, { params: { id: uuidv7() } })).toFail('not_found');
    // From a signed-in browser, not a token; and not one's own.
    expect(await root.call(adminApi.resetTwoStep, { params: { id: eveId } })).toFail('forbidden');
    expect(await admin.call(adminApi.resetTwoStep, { params: { id: ritaId } })).toFail('forbidden');
    await test.app.ctx.db.updateTable('users').set({ issuer: 'https://sso.example.com' }).where('id', '=', eveId).execute();
    expect(await admin.call(adminApi.resetTwoStep, { params: { id: eveId } })).toFail('forbidden');
  });

  it('never leaves the instance without an administrator', async () => {
    expect(await root.call(adminApi.updateUser, { params: { id: root.id }, body: { status: 'deactivated' } })).toFail('forbidden');
    expect(await root.call(adminApi.updateUser, { params: { id: root.id }, body: { isInstanceAdmin: false } })).toFail('forbidden');
    const other = await test.given.person('Other');
    const made = await root.call(adminApi.updateUser, { params: { id: other.id }, body: { isInstanceAdmin: true } });
    expect(made.body.isInstanceAdmin).toBe(true);
    expect((await other.call(adminApi.overview)).status).toBe(200);
    // The new administrator takes the first's away; then they are the only one, and cannot go.
    expect((await other.call(adminApi.updateUser, { params: { id: root.id }, body: { isInstanceAdmin: false } })).body.isInstanceAdmin).toBe(false);
    expect(await root.call(adminApi.overview)).toFail('forbidden');
    expect(await other.call(adminApi.updateUser, { params: { id: other.id }, body: { status: 'deactivated' } })).toFail('forbidden');
    expect((await other.call(adminApi.updateUser, { params: { id: root.id }, body: { isInstanceAdmin: true } })).body.isInstanceAdmin).toBe(true);
    // Two administrators taking each other's administration away at the same moment: one goes ahead, one is refused.
    const both = await Promise.all([
      root.call(adminApi.updateUser, { params: { id: other.id }, body: { isInstanceAdmin: false } }),
      other.call(adminApi.updateUser, { params: { id: root.id }, body: { isInstanceAdmin: false } }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 403]);
    const left = await test.app.ctx.db.selectFrom('users').select('id').where('is_instance_admin', '=', true).where('id', 'in', [root.id, other.id]).execute();
    expect(left).toHaveLength(1);
    if (left[0]!.id !== root.id) await test.app.ctx.db.updateTable('users').set({ is_instance_admin: true }).where('id', '=', root.id).execute();
    expect(await root.call(adminApi.updateUser, { params: { id: root.id }, body: {} })).toFail('invalid_input');
  });

  it('lists people with their workspaces and what they own, a page at a time', async () => {
    const eve = await test.given.person('Eve Pager');
    await test.given.upload(eve, eve.workspace.homeId, 'e.bin', new Uint8Array(2048));
    const found = await root.call(adminApi.users, { query: { q: 'eve pager' } });
    expect(found.body.items).toHaveLength(1);
    expect(found.body.items[0]).toMatchObject({ id: eve.id, status: 'active', isInstanceAdmin: false, ownedBytes: 2048 });
    expect(found.body.items[0]!.workspaces).toEqual([expect.objectContaining({ id: eve.workspace.id, role: 'owner' })]);
    // Every person once, page after page.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await root.call(adminApi.users, { query: { limit: 2, ...(cursor ? { cursor } : {}) } });
      seen.push(...page.body.items.map((u) => u.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(eve.id);
    expect(seen.length).toBe((await root.call(adminApi.overview)).body.usage.people);
    // Wildcards are letters.
    expect((await root.call(adminApi.users, { query: { q: '%' } })).body.items).toEqual([]);
  });

  it('lists failed jobs with their error, retries one once, discards another', async () => {
    const retried = await failedJob('blob.delete', 'storage answered 500');
    const discarded = await failedJob('upload.discard', 'bucket gone');
    const jobs = await root.call(adminApi.jobs);
    expect(jobs.body.failed.map((j) => j.id)).toEqual(expect.arrayContaining([retried, discarded]));
    expect(jobs.body.failed.find((j) => j.id === retried)).toMatchObject({ kind: 'blob.delete', lastError: 'storage answered 500', attempts: 3 });
    expect(jobs.body.counts).toEqual(expect.arrayContaining([{ kind: 'blob.delete', state: 'failed', count: expect.any(Number) }]));

    expect((await root.call(adminApi.retryJob, { params: { id: retried } })).status).toBe(204);
    const row = await test.app.ctx.db.selectFrom('jobs').selectAll().where('id', '=', retried).executeTakeFirst();
    // Run once more (its key names no bytes, so the runner may already have finished it).
    if (row) expect(row.attempts).toBeLessThanOrEqual(row.max_attempts);
    expect(await root.call(adminApi.retryJob, { params: { id: uuidv7() } })).toFail('not_found');

    // A job on its last attempt, held by a runner, is running: neither listed as failed nor retried or discarded.
    const running = await failedJob('blob.delete', 'an earlier try');
    await test.app.ctx.db
      .updateTable('jobs')
      .set({ locked_until: new Date(Date.now() + 60_000) })
      .where('id', '=', running)
      .execute();
    expect((await root.call(adminApi.jobs)).body.failed.map((j) => j.id)).not.toContain(running);
    expect(await root.call(adminApi.retryJob, { params: { id: running } })).toFail('not_found');
    expect(await root.call(adminApi.discardJob, { params: { id: running } })).toFail('not_found');
    await test.app.ctx.db.deleteFrom('jobs').where('id', '=', running).execute();

    expect((await root.call(adminApi.discardJob, { params: { id: discarded } })).status).toBe(204);
    expect(await root.call(adminApi.discardJob, { params: { id: discarded } })).toFail('not_found');
    const after = await root.call(adminApi.jobs);
    expect(after.body.failed.map((j) => j.id)).not.toContain(discarded);
    const audit = (await root.call(adminApi.audit, { query: { limit: 5 } })).body.items.map((e) => [e.action, e.targetLabel]);
    expect(audit).toEqual(
      expect.arrayContaining([
        ['job.discarded', 'upload.discard'],
        ['job.retried', 'blob.delete'],
      ]),
    );
  });
});
