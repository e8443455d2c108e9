import { authApi, meApi, sessionsApi, tokensApi, workspacesApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import {
  formAction,
  GOOD_PASSWORD,
  hiddenFields,
  mailedLink,
  signIn,
  signUp,
  signUpWithPassword,
  TestBrowser,
  uniqueEmail,
  type Page,
} from '../../testing/browser.ts';
import { callingRoutes, withToken } from '../../testing/route-call.ts';
import { startTestApp, useTestApp } from '../../testing/test-app.ts';

// Many sign-ins from one address in a minute; the limit itself is tested on an app of its own.
const test = useTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000' });
const alertText = (page: Page) => /role="alert">([^<]*)/.exec(page.text)?.[1];

describe('signing in through the embedded provider', () => {
  it('signs up a new person, makes the first one instance admin, and gives them a workspace', async () => {
    const { browser, email, page } = await signUp(test.app.url, { name: 'Ada Lovelace', returnTo: '/account' });
    expect(page.url).toBe(`${test.app.url}/account`);
    const me = await browser.call(meApi.get);
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email, name: 'Ada Lovelace', isInstanceAdmin: true });
    expect(me.body.via).toBe('session');
    const workspaces = await browser.call(workspacesApi.list);
    expect(workspaces.body.items).toHaveLength(1);
    const mine = workspaces.body.items[0]!;
    expect(mine).toMatchObject({ name: "Ada's workspace", role: 'owner', quotaBytes: null, usedBytes: 0 });
    expect(mine.rootId).not.toBe(mine.homeId);

    const second = await signUp(test.app.url, { name: 'Grace Hopper' });
    const secondMe = await second.browser.call(meApi.get);
    expect(secondMe.body.user.isInstanceAdmin).toBe(false);
    const theirs = await second.browser.call(workspacesApi.list);
    expect(theirs.body.items).toHaveLength(1);
    expect(theirs.body.items[0]!.id).not.toBe(mine.id);
    expect(await second.browser.call(workspacesApi.get, { params: { ws: mine.id } })).toFail('not_found');
  });

  it('signs an existing person in again as the same user', async () => {
    const first = await signUp(test.app.url);
    const again = await signIn(test.app.url, first.email, first.password, '/w/x');
    expect(again.page.url).toBe(`${test.app.url}/w/x`);
    const a = await first.browser.call(meApi.get);
    const b = await again.browser.call(meApi.get);
    expect(b.body.user.id).toBe(a.body.user.id);
  });

  it('comes back to this site whatever returnTo says, and never fails after making the session', async () => {
    const { email, password } = await signUp(test.app.url);
    for (const returnTo of ['/\t/evil.example/', '/\\evil.example', '/.//evil.example/', '/a/..//evil.example/', '/x\nSet-Cookie: a=b', '/%0A']) {
      const { browser, page } = await signIn(test.app.url, email, password, returnTo);
      expect(page.status, JSON.stringify(returnTo)).toBe(200);
      expect(new URL(page.url).origin).toBe(test.app.url);
      expect((await browser.call(meApi.get)).status).toBe(200);
    }
  });

  it('says clearly when the password is wrong and creates no session', async () => {
    const { email } = await signUp(test.app.url);
    const { browser, page } = await signIn(test.app.url, email, 'not-the-password-at-all');
    expect(page.status).toBe(401);
    expect(page.text).toContain('Wrong email or password.');
    expect((await browser.call(meApi.get)).status).toBe(401);
  });

  it('refuses a password that breaks the policy and names the rule', async () => {
    const browser = new TestBrowser(test.app.url);
    const signInPage = await browser.navigate('/auth/login');
    const page = await browser.navigate(signInPage.url + '/signup');
    const short = await browser.navigate(formAction(page), { form: { name: 'Short', email: uniqueEmail(), password: 'abc123' } });
    expect(short.status).toBe(400);
    expect(short.text).toContain('Password must be at least 12 characters');
    const common = await browser.navigate(formAction(page), { form: { name: 'Common', email: uniqueEmail(), password: 'password1234' } });
    expect(common.text).toContain('Password is too common');
  });

  it('locks an account after five failures, even against the right password, and says no more than for any failure', async () => {
    const { email } = await signUp(test.app.url);
    for (let i = 0; i < 5; i++) await signIn(test.app.url, email, `wrong-password-${i}`);
    const locked = (await signIn(test.app.url, email, GOOD_PASSWORD)).page;
    const unknown = (await signIn(test.app.url, uniqueEmail('nobody'), GOOD_PASSWORD)).page;
    expect(locked.status).toBe(401);
    expect(alertText(locked)).toBe(alertText(unknown));
    expect(alertText(locked)).toContain('Wrong email or password.');
  });

  it('opens the sign-up form when asked, and fills in the address hinted in either form', async () => {
    const browser = new TestBrowser(test.app.url);
    const start = await browser.navigate('/auth/login?returnTo=%2Finvite%2Fx&signup=1&loginHint=ann.b%2Bc%40example.com', { maxRedirects: 0 });
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('screen')).toBe('signup');
    expect(authorize.searchParams.get('login_hint')).toBe('ann.b+c@example.com');
    const signUpPage = await browser.navigate(authorize.href);
    expect(signUpPage.url).toMatch(/\/idp\/interaction\/[^/]+$/);
    expect(signUpPage.text).toContain('<h1>Create an account</h1>');
    expect(signUpPage.text).toMatch(/id="email"[^>]*value="ann.b\+c@example.com"/);
    // Its "Sign in" link opens the sign-in form (not the sign-up form again), the address filled in there too.
    const signInLink = /href="([^"]+\/login)"/.exec(signUpPage.text)![1]!;
    const signInPage = await browser.navigate(signInLink);
    expect(signInPage.text).toContain('<h1>Sign in</h1>');
    expect(signInPage.text).toMatch(/id="email"[^>]*value="ann.b\+c@example.com"/);

    // Without `signup=1` the sign-in form comes first; a hint that is not an address is left out.
    const plain = await browser.navigate('/auth/login?loginHint=not%20an%20address', { maxRedirects: 0 });
    const plainUrl = new URL(plain.headers.get('location')!);
    expect(plainUrl.searchParams.has('screen')).toBe(false);
    expect(plainUrl.searchParams.has('login_hint')).toBe(false);
    const page = await browser.navigate(plainUrl.href);
    expect(page.text).toContain('<h1>Sign in</h1>');
    expect(page.text).not.toMatch(/id="email"[^>]*value=/);
  });

  it('sends a link to confirm the address, which the claim then carries into Cabinet', async () => {
    const { browser } = await signUp(test.app.url);
    expect((await browser.call(meApi.get)).body.user.emailVerified).toBe(true);
  });

  it('lets a person sign in before confirming, and confirm later from another browser with their password', async () => {
    const browser = new TestBrowser(test.app.url);
    const email = uniqueEmail();
    const login = await browser.navigate('/auth/login');
    await signUpWithPassword(browser, login.url, { name: 'Later', email, password: GOOD_PASSWORD });
    expect((await browser.call(meApi.get)).body.user.emailVerified).toBe(false);

    const elsewhere = new TestBrowser(test.app.url);
    const confirm = await elsewhere.navigate(await mailedLink(test.app.url, email, 'verify'));
    expect(confirm.text).toContain('Confirm your email');
    expect((await elsewhere.navigate(formAction(confirm), { form: { password: 'not-the-password-at-all' } })).status).toBe(401);
    const done = await elsewhere.navigate(formAction(confirm), { form: { password: GOOD_PASSWORD } });
    expect(done.text).toContain('Email confirmed');
    expect((await elsewhere.navigate(await mailedLink(test.app.url, email, 'verify'))).status).toBe(410);

    // The next sign-in brings the verified claim.
    const again = await signIn(test.app.url, email, GOOD_PASSWORD);
    expect((await again.browser.call(meApi.get)).body.user.emailVerified).toBe(true);
  });

  it('answers a sign-up with a taken address as it answers a new one, and mails the owner instead', async () => {
    const owner = await signUp(test.app.url, { name: 'Owner' });
    const attempt = async (email: string) => {
      const browser = new TestBrowser(test.app.url);
      const login = await browser.navigate('/auth/login');
      const form = await browser.navigate(`${login.url}/signup`);
      const page = await browser.navigate(formAction(form), { form: { name: 'Someone', email, password: 'another-good-passphrase-9' } });
      return { status: page.status, text: page.text.replaceAll(email, 'EMAIL').replace(/interaction\/[^/"]+/g, 'interaction/UID') };
    };
    const fresh = await attempt(uniqueEmail());
    const taken = await attempt(owner.email);
    expect(taken).toEqual(fresh);
    expect(taken.text).toContain('Check your email');
    const outbox = await new TestBrowser(test.app.url).navigate('/idp/dev/outbox');
    expect(outbox.text).toContain('You already have a Cabinet account');
    // The address still has its one account, with the owner's password.
    expect((await signIn(test.app.url, owner.email, 'another-good-passphrase-9')).page.status).toBe(401);
    expect((await (await signIn(test.app.url, owner.email, owner.password)).browser.call(meApi.get)).body.user.name).toBe('Owner');
  });

  it('limits sign-ups and resent links per network address', async () => {
    const strict = await startTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '2' });
    try {
      const browser = new TestBrowser(strict.url);
      const login = await browser.navigate('/auth/login');
      const form = await browser.navigate(`${login.url}/signup`);
      const email = uniqueEmail();
      const first = await browser.navigate(formAction(form), { form: { name: 'One', email, password: GOOD_PASSWORD } });
      expect(first.text).toContain('Check your email');
      const resent = await browser.navigate(formAction(first), { form: hiddenFields(first) });
      expect(resent.text).toContain('We sent the link to');
      const third = await browser.navigate(formAction(form), { form: { name: 'Three', email: uniqueEmail(), password: GOOD_PASSWORD } });
      expect(third.status).toBe(429);
      expect(third.text).toContain('Too many sign-ups');
    } finally {
      await strict.close();
    }
  });

  it('counts the sign-in tries of an IPv6 network (/64) together, not each of its addresses', async () => {
    const strict = await startTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '2', TRUST_PROXY: '1' });
    try {
      const tryFrom = async (address: string) => {
        const browser = new TestBrowser(strict.url);
        const login = await browser.navigate('/auth/login');
        const page = await browser.navigate(formAction(login), {
          form: { email: uniqueEmail(), password: 'not-the-password-1' },
          headers: { 'x-forwarded-for': address },
        });
        return page.status;
      };
      expect(await tryFrom('2001:db8:1:2::1')).toBe(401);
      expect(await tryFrom('2001:db8:1:2:aaaa::2')).toBe(401);
      expect(await tryFrom('2001:db8:1:2:ffff:ffff:ffff:3')).toBe(429);
      // Another network is counted on its own.
      expect(await tryFrom('2001:db8:1:3::1')).toBe(401);
    } finally {
      await strict.close();
    }
  });

  it('refuses a tampered or replayed state without creating a session', async () => {
    const browser = new TestBrowser(test.app.url);
    const page = await browser.navigate('/auth/login?returnTo=/account');
    const email = uniqueEmail();
    // Stop at the callback to replay it.
    let res = await signUpWithPassword(browser, page.url, { name: 'Replay', email, password: GOOD_PASSWORD }, { maxRedirects: 0 });
    while (!res.headers.get('location')?.includes('/auth/callback')) {
      res = await browser.navigate(res.headers.get('location')!, { maxRedirects: 0 });
    }
    const callback = new URL(res.headers.get('location')!, test.app.url);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'forged-state');
    const refused = await browser.navigate(tampered.href);
    expect(refused.url).toBe(`${test.app.url}/signin?error=state_mismatch`);
    expect((await browser.call(meApi.get)).status).toBe(401);

    const stateCookie = browser.cookies.get('cabinet_auth_state');
    expect(stateCookie).toBeUndefined();
    // The genuine callback after the tampered one no longer carries its browser binding.
    const genuine = await browser.navigate(callback.href);
    expect(genuine.url).toBe(`${test.app.url}/signin?error=state_mismatch`);
  });

  it('refuses an ID token whose nonce does not match', async () => {
    const browser = new TestBrowser(test.app.url);
    const page = await browser.navigate('/auth/login');
    await test.app.ctx.db.updateTable('auth_requests').set({ nonce: 'some-other-nonce' }).execute();
    const done = await signUpWithPassword(browser, page.url, { name: 'Nonce', email: uniqueEmail(), password: GOOD_PASSWORD });
    expect(done.url).toBe(`${test.app.url}/signin?error=sign_in_failed`);
    expect((await browser.call(meApi.get)).status).toBe(401);
  });

  it('signs out of Cabinet and of the provider', async () => {
    const { browser, email } = await signUp(test.app.url);
    const out = await browser.call(authApi.signOut);
    expect(out.status).toBe(200);
    expect(out.body.redirectUrl).toContain('/idp/session/end');
    expect((await browser.call(meApi.get)).status).toBe(401);
    const end = await browser.navigate(out.body.redirectUrl);
    expect(end.text).toContain('Signing out');
    // What the page's script does at once: submit the provider's form.
    const back = await browser.navigate(formAction(end), { form: hiddenFields(end) });
    expect(back.url).toBe(`${test.app.url}/signin`);
    // The provider's session is over too: signing in asks for the password again.
    const again = await browser.navigate('/auth/login');
    expect(again.text).toContain('Sign in');
    expect(again.url).toContain('/idp/interaction/');
    expect(email).toBeTruthy();
  });
});

describe('sessions', () => {
  it('answers unauthenticated to a forged cookie and session_expired to an expired one', async () => {
    const forged = new TestBrowser(test.app.url);
    forged.cookies.set('cabinet_session', 'forged');
    expect(await forged.call(meApi.get)).toFail('unauthenticated');

    const { browser } = await signUp(test.app.url);
    const me = await browser.call(meApi.get);
    await test.app.ctx.db
      .updateTable('sessions')
      .set({ last_used_at: new Date(Date.now() - 15 * 24 * 3600 * 1000) })
      .where('id', '=', me.body.sessionId)
      .execute();
    expect(await browser.call(meApi.get)).toFail('session_expired');
  });

  it('lists sessions and signs out the others', async () => {
    const { browser, email, password } = await signUp(test.app.url);
    const other = await signIn(test.app.url, email, password);
    const list = await browser.call(sessionsApi.list);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items.filter((s) => s.current)).toHaveLength(1);
    const revoked = await browser.call(sessionsApi.endOthers);
    expect(revoked.body.revoked).toBe(1);
    expect((await other.browser.call(meApi.get)).status).toBe(401);
    expect((await browser.call(meApi.get)).status).toBe(200);
  });

  it('refuses a state-changing call without the CSRF header or from a foreign origin', async () => {
    const { browser } = await signUp(test.app.url);
    const noHeader = await browser.call(tokensApi.create, { body: { name: 'x' } }, { headers: { 'x-csrf-token': '' } });
    expect(noHeader).toFail('forbidden');
    const foreign = await browser.call(tokensApi.create, { body: { name: 'x' } }, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    const ok = await browser.call(tokensApi.create, { body: { name: 'x' } });
    expect(ok.status).toBe(201);
  });

  it('ends every session and token of a deactivated user', async () => {
    const { browser } = await signUp(test.app.url);
    const token = (await browser.call(tokensApi.create, { body: { name: 'script' } })).body.token;
    const me = await browser.call(meApi.get);
    await test.app.ctx.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', me.body.user.id).execute();
    expect(await browser.call(meApi.get)).toFail('unauthenticated');
    const bearer = await callingRoutes(withToken(test.app.url, token)).call(meApi.get);
    expect(bearer.status).toBe(401);
  });
});

describe('the provider pages and the API docs', () => {
  const expectHardened = (headers: Headers, what: string) => {
    expect(headers.get('content-security-policy'), what).toMatch(/frame-ancestors 'none'/);
    expect(headers.get('content-security-policy'), what).toMatch(/default-src '(none|self)'/);
    expect(headers.get('x-frame-options'), what).toBe('DENY');
    expect(headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(headers.get('referrer-policy'), what).toBeTruthy();
  };

  it('refuse framing and sniffing and allow no foreign content, hijacked answers of the provider included', async () => {
    const browser = new TestBrowser(test.app.url);
    const signInPage = await browser.navigate('/auth/login');
    expectHardened(signInPage.headers, 'sign-in page');
    expectHardened((await browser.navigate(`${signInPage.url}/signup`)).headers, 'sign-up page');
    expectHardened((await browser.navigate('/idp/forgot')).headers, 'forgot page');
    expectHardened((await browser.navigate('/idp/auth?client_id=nobody')).headers, 'provider error page');
    expectHardened((await browser.navigate('/api/docs')).headers, 'API docs');
    expectHardened((await browser.navigate('/api/docs/static/index.html')).headers, 'API docs page');
  });
});
