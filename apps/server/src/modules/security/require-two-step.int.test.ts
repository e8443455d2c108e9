import { meApi, securityApi } from '@cabinet/contracts';
import { AccountStore, totpCode, TwoStepStore } from '@cabinet/idp';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { deriveKey, decrypt } from '../../lib/crypto.ts';
import { formAction, GOOD_PASSWORD, hiddenFields, signIn, signUp, signUpWithPassword, TestBrowser, uniqueEmail, type Page } from '../../testing/browser.ts';
import { addPasskey, PasskeyAuthenticator, passkeyForm } from '../../testing/passkey-authenticator.ts';
import { useTestAppWithProvider } from '../../testing/standalone-idp.ts';
import { useTestApp, type TestApp } from '../../testing/test-app.ts';

const STEP_MS = 30_000;
const alertText = (page: Page) => /role="alert">([^<]*)/.exec(page.text)?.[1];

async function amrOf(app: TestApp, browser: TestBrowser): Promise<unknown> {
  const me = await browser.call(meApi.get);
  const session = await app.ctx.db.selectFrom('sessions').select('id_token_sealed').where('id', '=', me.body.sessionId!).executeTakeFirstOrThrow();
  return decodeJwt(decrypt(deriveKey(app.ctx.env.SESSION_SECRET, 'provider-tokens'), session.id_token_sealed!)).amr;
}

describe('REQUIRE_TWO_STEP with the embedded provider', () => {
  const test = useTestApp({ REQUIRE_TWO_STEP: 'true', IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000' });

  it('sets up an authenticator app on the way in, shows the recovery codes once, then signs in with both steps', async () => {
    // Signing up: the confirmed address leads to setting up an app, not into Cabinet.
    const { browser, email, page } = await signUp(test.app.url);
    expect(page.url).toMatch(/\/idp\/interaction\/[^/]+\/two-step$/);
    expect(page.text).toContain('<h1>Set up two-step sign-in</h1>');
    expect(page.text).toContain('aria-label="QR code to scan with your authenticator app"><svg');
    expect((await browser.call(meApi.get)).status).toBe(401);
    const key = /aria-label="Secret key">([A-Z2-7]+)</.exec(page.text)![1]!;
    // The page shown again keeps the same key until it is confirmed.
    expect((await browser.navigate(page.url)).text).toContain(`aria-label="Secret key">${key}<`);

    const wrong = await browser.navigate(formAction(page), { form: { code: totpCode(key, Date.now() + 5 * STEP_MS) } });
    expect(wrong.status).toBe(400);
    expect(alertText(wrong)).toBe('That code is not right. Enter the 6-digit code your app shows now.');
    const codes = await browser.navigate(formAction(page), { form: { code: totpCode(key) } });
    expect(codes.text).toContain('<h1>Your recovery codes</h1>');
    const recoveryCodes = [...codes.text.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]);
    expect(recoveryCodes).toHaveLength(10);
    const done = await browser.navigate(formAction(codes), { form: hiddenFields(codes) });
    expect(done.url).toBe(`${test.app.url}/`);
    expect(await amrOf(test.app, browser)).toEqual(['pwd', 'otp']);
    expect((await browser.call(securityApi.get)).body).toEqual({ available: true, totp: true, recoveryCodesLeft: 10, required: true });
    // The page of recovery codes goes on once.
    expect((await new TestBrowser(test.app.url).navigate(formAction(codes), { form: {} })).text).not.toContain('Your recovery codes');

    const again = await signIn(test.app.url, email, GOOD_PASSWORD);
    expect(again.page.text).toContain('<h1>Two-step sign-in</h1>');
    await again.browser.navigate(formAction(again.page), { form: { code: totpCode(key, Date.now() + STEP_MS) } });
    expect(await amrOf(test.app, again.browser)).toEqual(['pwd', 'otp']);
  });

  it('asks again for an app at the next sign-in once Account → Security turned it off', async () => {
    const store = new TwoStepStore(test.app.ctx.database.sql, deriveKey(test.app.ctx.env.SESSION_SECRET, 'idp-two-step'));
    const { browser, page } = await signUp(test.app.url);
    const key = /aria-label="Secret key">([A-Z2-7]+)</.exec(page.text)![1]!;
    const codes = await browser.navigate(formAction(page), { form: { code: totpCode(key) } });
    await browser.navigate(formAction(codes), { form: {} });
    expect((await browser.call(securityApi.remove)).status).toBe(204);
    const me = await browser.call(meApi.get);
    const user = await test.app.ctx.db.selectFrom('users').select('subject').where('id', '=', me.body.user.id).executeTakeFirstOrThrow();
    expect(await store.status(user.subject)).toEqual({ totp: false, recoveryCodesLeft: 0 });
    const again = await signIn(test.app.url, me.body.user.email, GOOD_PASSWORD);
    expect(again.page.text).toContain('<h1>Set up two-step sign-in</h1>');
  });

  it('takes a passkey alone, or after the password in place of an app', async () => {
    const { browser, email, page } = await signUp(test.app.url);
    const key = /aria-label="Secret key">([A-Z2-7]+)</.exec(page.text)![1]!;
    await browser.navigate(formAction(page), { form: { code: totpCode(key) } }).then((codes) => browser.navigate(formAction(codes), { form: {} }));
    const device = new PasskeyAuthenticator(test.app.url);
    expect((await addPasskey(browser, device)).status).toBe(201);

    const alone = new TestBrowser(test.app.url);
    const form = passkeyForm(await alone.navigate('/auth/login'));
    expect((await alone.navigate(form.action, { form: { response: JSON.stringify(device.signIn(form.options)) } })).url).toBe(`${test.app.url}/`);
    expect(await amrOf(test.app, alone)).toEqual(['hwk', 'mfa']);

    // With the app turned off, the second step after the password is the passkey, not setting up another app.
    expect((await browser.call(securityApi.remove)).status).toBe(204);
    const again = await signIn(test.app.url, email, GOOD_PASSWORD);
    expect(again.page.text).toContain('<h1>Two-step sign-in</h1>');
    expect(again.page.text).not.toContain('name="code"');
    const step = passkeyForm(again.page);
    expect((await again.browser.navigate(step.action, { form: { response: JSON.stringify(device.signIn(step.options)) } })).url).toBe(`${test.app.url}/`);
    expect(await amrOf(test.app, again.browser)).toEqual(['pwd', 'hwk']);

    // Without the passkey's device at hand, an app can be set up instead, the wrong code said on the same page.
    const third = await signIn(test.app.url, email, GOOD_PASSWORD);
    const instead = /href="([^"]+)">Set up an authenticator app instead</.exec(third.page.text)![1]!.replace(/&amp;/g, '&');
    const setUp = await third.browser.navigate(new URL(instead, third.page.url).href);
    expect(setUp.text).toContain('<h1>Set up two-step sign-in</h1>');
    const secret = /aria-label="Secret key">([A-Z2-7]+)</.exec(setUp.text)![1]!;
    const wrong = await third.browser.navigate(formAction(setUp), { form: { code: totpCode(secret, Date.now() + 5 * STEP_MS) } });
    expect(wrong.text).toContain('<h1>Set up two-step sign-in</h1>');
    expect(alertText(wrong)).toBe('That code is not right. Enter the 6-digit code your app shows now.');
    const codes = await third.browser.navigate(formAction(wrong), { form: { code: totpCode(secret) } });
    expect((await third.browser.navigate(formAction(codes), { form: {} })).url).toBe(`${test.app.url}/`);
    expect(await amrOf(test.app, third.browser)).toEqual(['pwd', 'otp']);
  });
});

describe('REQUIRE_TWO_STEP with a hosted provider', () => {
  const { test, idp } = useTestAppWithProvider({ REQUIRE_TWO_STEP: 'true' });

  it('refuses a session when the provider reports no second factor, and signs in afresh once it does', async () => {
    const browser = new TestBrowser(test.app.url);
    const start = await browser.navigate('/auth/login?returnTo=/account');
    const email = uniqueEmail('hosted');
    const refused = await signUpWithPassword(browser, start.url, { name: 'Hosted Person', email, password: GOOD_PASSWORD });
    expect(refused.url).toBe(`${test.app.url}/signin?error=two_step_required`);
    expect((await browser.call(meApi.get)).status).toBe(401);
    expect(await test.app.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();

    // Without `fresh`, the provider's session (password only) would answer again; with it, the provider asks afresh.
    const fresh = await browser.navigate('/auth/login?returnTo=/account&fresh=1', { maxRedirects: 0 });
    expect(new URL(fresh.headers.get('location')!).searchParams.get('prompt')).toBe('login');

    // The person turns on two-step sign-in at the provider, then signs in again.
    const account = (await new AccountStore(idp.sql, { failures: 5, minutes: 15 }).findByEmail(email))!;
    const store = new TwoStepStore(idp.sql, idp.twoStepKey);
    const { secret } = (await store.beginTotp(account.id, email))!;
    await store.confirmTotp(account.id, totpCode(secret));
    const form = await browser.navigate(fresh.headers.get('location')!);
    expect(form.text).toContain('<h1>Sign in</h1>');
    const step = await browser.navigate(formAction(form), { form: { email, password: GOOD_PASSWORD } });
    const done = await browser.navigate(formAction(step), { form: { code: totpCode(secret, Date.now() + STEP_MS) } });
    expect(done.url).toBe(`${test.app.url}/account`);
    expect(await amrOf(test.app, browser)).toEqual(['pwd', 'otp']);
  });
});
