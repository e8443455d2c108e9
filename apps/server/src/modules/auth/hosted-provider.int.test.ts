import { authApi, configApi, meApi, securityApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { GOOD_PASSWORD, signUpWithPassword, TestBrowser, uniqueEmail } from '../../testing/browser.ts';
import { anonymous, callingRoutes } from '../../testing/route-call.ts';
import { freePort, startTestApp } from '../../testing/test-app.ts';
import { startStandaloneIdp, useTestAppWithProvider } from '../../testing/standalone-idp.ts';

describe('a hosted identity provider on another port', () => {
  const { test, idp } = useTestAppWithProvider({ OIDC_PROVIDER_NAME: 'Acme SSO' });

  it('signs in through discovery over HTTP and records the provider as the issuer', async () => {
    const { issuer } = idp;
    const browser = new TestBrowser(test.app.url);
    const page = await browser.navigate('/auth/login?returnTo=/account');
    expect(page.url.startsWith(issuer)).toBe(true);
    const email = uniqueEmail('hosted');
    const done = await signUpWithPassword(browser, page.url, { name: 'Hosted Person', email, password: GOOD_PASSWORD });
    expect(done.url).toBe(`${test.app.url}/account`);
    const me = await browser.call(meApi.get);
    expect(me.body.user).toMatchObject({ email, name: 'Hosted Person' });
    const user = await test.app.ctx.db.selectFrom('users').selectAll().where('id', '=', me.body.user.id).executeTakeFirstOrThrow();
    expect(user.issuer).toBe(issuer);

    // The password, two-step sign-in and passkeys are the provider's: Cabinet says so and changes none of them.
    expect((await browser.call(securityApi.get)).body).toEqual({ available: false, totp: false, recoveryCodesLeft: 0, required: false });
    for (const refused of [
      await browser.call(securityApi.listPasskeys),
      await browser.call(securityApi.passkeyOptions, { body: { currentPassword: GOOD_PASSWORD } }),
      await browser.call(securityApi.beginTotp),
      await browser.call(securityApi.changePassword, { body: { currentPassword: GOOD_PASSWORD, newPassword: 'another-good-passphrase-9' } }),
    ]) {
      expect(refused).toFail('forbidden');
      expect(refused.error?.message).toMatch(/is set with your identity provider, not in Cabinet\.$|are set with your identity provider, not in Cabinet\.$/);
    }

    const out = await browser.call(authApi.signOut);
    expect(out.body.redirectUrl.startsWith(`${issuer}/session/end`)).toBe(true);
  });

  it('names the provider on the sign-in page and serves no embedded provider', async () => {
    const config = await callingRoutes(anonymous(test.app.url)).call(configApi.get);
    expect(config.body).toMatchObject({ providerName: 'Acme SSO', embeddedProvider: false });
    const embedded = await fetch(`${test.app.url}/idp/.well-known/openid-configuration`);
    expect(embedded.status).toBe(404);
  });
});

describe('a provider that is not the configured issuer', () => {
  it('refuses to sign in when discovery answers with another issuer', async () => {
    const port = await freePort();
    // The provider calls itself "localhost" while Cabinet expects "127.0.0.1".
    const idp = await startStandaloneIdp(`http://127.0.0.1:${port}`, { issuerHost: 'localhost' });
    const issuerPort = new URL(idp.issuer).port;
    const t = await startTestApp({
      PORT: String(port),
      OIDC_ISSUER: `http://127.0.0.1:${issuerPort}/idp`,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
    });
    try {
      const browser = new TestBrowser(t.url);
      const page = await browser.navigate('/auth/login');
      expect(page.url).toBe(`${t.url}/signin?error=provider_unreachable`);
      expect(browser.cookies.has('cabinet_session')).toBe(false);
    } finally {
      await t.close();
      await idp.close();
    }
  });
});

describe('an ID token past its expiry', () => {
  it('is refused, and no session is created', async () => {
    const port = await freePort();
    const idp = await startStandaloneIdp(`http://127.0.0.1:${port}`);
    // Cabinet's clock two hours ahead: the freshly issued ID token has already expired for it.
    const t = await startTestApp({
      PORT: String(port),
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_CLOCK_SKEW_SECONDS: String(2 * 3600),
    });
    try {
      const browser = new TestBrowser(t.url);
      const page = await browser.navigate('/auth/login');
      const done = await signUpWithPassword(browser, page.url, { name: 'Late', email: uniqueEmail(), password: GOOD_PASSWORD });
      expect(done.url).toBe(`${t.url}/signin?error=sign_in_failed`);
      expect((await browser.call(meApi.get)).status).toBe(401);
    } finally {
      await t.close();
      await idp.close();
    }
  });
});

describe('the provider on its own', () => {
  it('sends its pages with a content policy that refuses framing', async () => {
    const idp = await startStandaloneIdp('http://127.0.0.1:1');
    try {
      const res = await fetch(`${idp.issuer}/forgot`);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await idp.close();
    }
  });
});
