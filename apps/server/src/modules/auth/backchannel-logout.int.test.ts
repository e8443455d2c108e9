import { eventsApi, meApi, urlOf, workspacesApi } from '@cabinet/contracts';
import { newRsaJwk } from '@cabinet/idp';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formAction, GOOD_PASSWORD, hiddenFields, signIn, signUpWithPassword, TestBrowser, uniqueEmail } from '../../testing/browser.ts';
import { useTestAppWithProvider } from '../../testing/standalone-idp.ts';

const LOGOUT_EVENT = { 'http://schemas.openid.net/event/backchannel-logout': {} };

describe('back-channel logout from a hosted provider', () => {
  const { test, idp } = useTestAppWithProvider();

  /** A new person signed in through the provider, and a second browser of theirs (a second provider session). */
  async function personWithTwoBrowsers() {
    const email = uniqueEmail('backchannel');
    const first = new TestBrowser(test.app.url);
    const start = await first.navigate('/auth/login');
    await signUpWithPassword(first, start.url, { name: 'Two Browsers', email, password: GOOD_PASSWORD });
    const { browser: second } = await signIn(test.app.url, email, GOOD_PASSWORD);
    const me = await first.call(meApi.get);
    expect(me.status).toBe(200);
    expect((await second.call(meApi.get)).status).toBe(200);
    const user = await test.app.ctx.db.selectFrom('users').select(['id', 'subject']).where('id', '=', me.body.user.id).executeTakeFirstOrThrow();
    return { first, second, user };
  }

  async function signedIn(browser: TestBrowser) {
    return (await browser.call(meApi.get)).status === 200;
  }

  async function providerSids(userId: string) {
    const rows = await test.app.ctx.db.selectFrom('sessions').select('provider_sid').where('user_id', '=', userId).orderBy('created_at').execute();
    return rows.map((r) => r.provider_sid);
  }

  /** A logout token signed with the provider's own key, with `claims` over the valid ones (undefined drops a claim). */
  async function logoutToken(claims: Record<string, unknown>, key?: { jwk: Record<string, unknown> }) {
    const jwk = key?.jwk ?? (await idp.signingKey());
    const payload: JWTPayload = {
      iss: idp.issuer,
      aud: idp.clientId,
      iat: Math.floor(Date.now() / 1000),
      jti: randomUUID(),
      events: LOGOUT_EVENT,
      ...claims,
    };
    for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: String(jwk.kid), typ: 'logout+jwt' }).sign(await importJWK(jwk as never, 'RS256'));
  }

  function send(body: string, contentType = 'application/x-www-form-urlencoded') {
    return fetch(`${test.app.url}/auth/backchannel-logout`, { method: 'POST', headers: { 'content-type': contentType }, body });
  }
  const sendToken = (token: string) => send(new URLSearchParams({ logout_token: token }).toString());

  it('ends the session signed in through the provider session that ended there, and no other', async () => {
    const { first, second, user } = await personWithTwoBrowsers();
    const other = await personWithTwoBrowsers();
    const [firstSid, secondSid] = await providerSids(user.id);
    expect(firstSid).toBeTruthy();
    expect(secondSid).toBeTruthy();
    expect(firstSid).not.toBe(secondSid);

    // The person signs out at the provider itself, in the first browser: the provider tells Cabinet, before it answers.
    const confirm = await first.navigate(`${idp.issuer}/session/end?client_id=${idp.clientId}`);
    const done = await first.navigate(formAction(confirm), { form: { ...hiddenFields(confirm), logout: 'yes' } });
    expect(done.status).toBe(200);

    expect(await signedIn(first)).toBe(false);
    expect(await signedIn(second)).toBe(true);
    expect(await signedIn(other.first)).toBe(true);
    expect(await signedIn(other.second)).toBe(true);
  });

  it('with a subject and no session id, ends every session of that person from the provider', async () => {
    const { first, second, user } = await personWithTwoBrowsers();
    const other = await personWithTwoBrowsers();
    const res = await sendToken(await logoutToken({ sub: user.subject }));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await signedIn(first)).toBe(false);
    expect(await signedIn(second)).toBe(false);
    expect(await signedIn(other.first)).toBe(true);
    const ended = await test.app.ctx.db
      .selectFrom('activity_events')
      .select(['actor_kind', 'data'])
      .where('actor_user_id', '=', user.id)
      .where('action', '=', 'session.ended')
      .execute();
    expect(ended[0]).toMatchObject({ actor_kind: 'system', data: { by: 'provider' } });
  });

  it('with a session id and a subject, ends only the session matching both', async () => {
    const { first, second, user } = await personWithTwoBrowsers();
    const other = await personWithTwoBrowsers();
    const [, secondSid] = await providerSids(user.id);
    const [otherSid] = await providerSids(other.user.id);
    // Another person's session id with this person's subject names no session.
    expect((await sendToken(await logoutToken({ sub: user.subject, sid: otherSid }))).status).toBe(200);
    expect(await signedIn(other.first)).toBe(true);
    expect((await sendToken(await logoutToken({ sub: user.subject, sid: secondSid }))).status).toBe(200);
    expect(await signedIn(first)).toBe(true);
    expect(await signedIn(second)).toBe(false);
  });

  it('refuses a token that is not a valid logout token for Cabinet, and ends nothing', async () => {
    const { first, second, user } = await personWithTwoBrowsers();
    const [sid] = await providerSids(user.id);
    const real = await idp.signingKey();
    // Another key under the provider's key id: the signature does not verify against the provider's published key.
    const forged = { jwk: { ...newRsaJwk(), kid: real.kid } };
    const now = Math.floor(Date.now() / 1000);
    const refused: [string, string | Promise<string>][] = [
      ['a forged signature', logoutToken({ sid }, forged)],
      ['another audience', logoutToken({ sid, aud: 'another-client' })],
      ['another issuer', logoutToken({ sid, iss: 'http://127.0.0.1:1/idp' })],
      ['no logout event', logoutToken({ sid, events: undefined })],
      ['another event', logoutToken({ sid, events: { 'http://schemas.openid.net/event/other': {} } })],
      ['a nonce', logoutToken({ sid, nonce: 'n-0S6_WzA2Mj' })],
      ['neither sid nor sub', logoutToken({})],
      ['no jti', logoutToken({ sid, jti: undefined })],
      ['no iat', logoutToken({ sid, iat: undefined })],
      ['an old iat', logoutToken({ sid, iat: now - 3600 })],
      ['an iat in the future', logoutToken({ sid, iat: now + 3600 })],
      ['no JWT at all', 'not.a.jwt'],
    ];
    for (const [what, token] of refused) {
      const res = await sendToken(await token);
      expect(res.status, what).toBe(400);
      expect(await res.json(), what).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
    }
    for (const [what, res] of [
      ['no logout_token', await send('')],
      ['two logout_tokens', await send(`logout_token=a&logout_token=b`)],
      ['JSON instead of a form', await send(JSON.stringify({ logout_token: await logoutToken({ sid }) }), 'application/json')],
    ] as const) {
      expect(res.status, what).toBe(400);
      expect(res.headers.get('content-type'), what).toMatch(/json/);
    }
    expect(await signedIn(first)).toBe(true);
    expect(await signedIn(second)).toBe(true);
  });

  it('closes the live stream of a session it ends, as any ended session’s', async () => {
    const { first, user } = await personWithTwoBrowsers();
    const workspace = (await first.call(workspacesApi.list)).body.items[0]!;
    const stream = await fetch(`${test.app.url}${urlOf(eventsApi.stream, { ws: workspace.id })}`, { headers: { cookie: first.cookieHeader() } });
    expect(stream.status).toBe(200);
    const ended = stream.text().then(() => 'ended');
    const openFor = (ms: number) => Promise.race([ended, new Promise((r) => setTimeout(() => r('still open'), ms))]);
    await expect(openFor(500)).resolves.toBe('still open');
    expect((await sendToken(await logoutToken({ sub: user.subject }))).status).toBe(200);
    await expect(openFor(15_000)).resolves.toBe('ended');
  });

  it('refuses a token sent a second time, or twice at once', async () => {
    const { first } = await personWithTwoBrowsers();
    const token = await logoutToken({ sid: 'a-provider-session-cabinet-never-saw' });
    expect((await sendToken(token)).status).toBe(200);
    const again = await sendToken(token);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_request' });
    const together = await logoutToken({ sid: 'another-provider-session-cabinet-never-saw' });
    const answers = await Promise.all([sendToken(together), sendToken(together)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await signedIn(first)).toBe(true);
  });

  it('forgets the tokens it took once they are too old to be taken anyway', async () => {
    const { db } = test.app.ctx;
    await db
      .insertInto('logout_tokens')
      .values({ jti: 'long-ago', expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await sendToken(await logoutToken({ sid: 'a-session-long-gone' }))).status).toBe(200);
    const kept = await db.selectFrom('logout_tokens').select(['jti', 'expires_at']).execute();
    expect(kept.map((t) => t.jti)).not.toContain('long-ago');
    for (const token of kept) expect(token.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + 6 * 60_000);
  });
});
