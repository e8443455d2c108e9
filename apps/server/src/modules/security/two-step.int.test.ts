import { meApi, tokensApi, securityApi } from '@cabinet/contracts';
import { totpCode } from '@cabinet/idp';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { deriveKey, decrypt } from '../../lib/crypto.ts';
import { formAction, mailsTo, signIn, signUp, TestBrowser } from '../../testing/browser.ts';
import { callingRoutes, withToken } from '../../testing/route-call.ts';
import { startTestApp, useTestApp } from '../../testing/test-app.ts';
import { runInApp } from '../../testing/cabinet-command.ts';

const test = useTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000' });
const alertText = (text: string) => /role="alert">([^<]*)/.exec(text)?.[1];
const STEP_MS = 30_000;

/** A person with an authenticator app set up: its secret, the recovery codes, and the browser that set it up. */
async function withTotp(url = test.app.url) {
  const person = await signUp(url);
  const begun = await person.browser.call(securityApi.beginTotp);
  expect(begun.status).toBe(200);
  const { secret } = begun.body;
  const confirmed = await person.browser.call(securityApi.confirmTotp, { body: { code: totpCode(secret) } });
  expect(confirmed.status).toBe(200);
  return { ...person, secret, recoveryCodes: confirmed.body.recoveryCodes };
}

/** The `amr` of the ID token Cabinet keeps for the browser's session. */
async function amrOf(browser: TestBrowser): Promise<unknown> {
  const me = await browser.call(meApi.get);
  const session = await test.app.ctx.db.selectFrom('sessions').select('id_token_sealed').where('id', '=', me.body.sessionId!).executeTakeFirstOrThrow();
  return decodeJwt(decrypt(deriveKey(test.app.ctx.env.SESSION_SECRET, 'provider-tokens'), session.id_token_sealed!)).amr;
}

describe('setting up an authenticator app under Account → Security', () => {
  it('shows a secret and its QR code, confirms it with a code, and answers ten recovery codes once', async () => {
    const { browser, email } = await signUp(test.app.url);
    expect((await browser.call(securityApi.get)).body).toEqual({ available: true, totp: false, recoveryCodesLeft: 0, required: false });
    const begun = await browser.call(securityApi.beginTotp);
    expect(begun.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(begun.body.uri).toBe(
      `otpauth://totp/Cabinet:${encodeURIComponent(email)}?issuer=Cabinet&secret=${begun.body.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(begun.body.qrSvg).toMatch(/^<svg [^>]*viewBox/);
    // Until confirmed, nothing is asked at sign-in; a wrong code confirms nothing.
    expect((await browser.call(securityApi.get)).body.totp).toBe(false);
    const wrong = await browser.call(securityApi.confirmTotp, { body: { code: '000000' === totpCode(begun.body.secret) ? '111111' : '000000' } });
    expect(wrong).toFail('invalid_input');
    expect(wrong.error?.details).toEqual({ fields: [{ path: 'code', message: 'That code is not right. Enter the code your app shows now.' }] });

    const confirmed = await browser.call(securityApi.confirmTotp, { body: { code: totpCode(begun.body.secret) } });
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await browser.call(securityApi.get)).body).toEqual({ available: true, totp: true, recoveryCodesLeft: 10, required: false });

    // The secret is never shown again, and a second app is not set up over the first.
    expect(await browser.call(securityApi.beginTotp)).toFail('forbidden');
    const stored = await test.app.ctx.database.sql.query<{ secret_sealed: string }>('SELECT secret_sealed FROM idp_totp');
    expect(stored.map((r) => r.secret_sealed).join()).not.toContain(begun.body.secret);
    const codes = await test.app.ctx.database.sql.query<{ code_hash: string }>('SELECT code_hash FROM idp_recovery_codes');
    expect(codes.map((r) => r.code_hash).join()).not.toContain(confirmed.body.recoveryCodes[0]!.replace('-', ''));
  });

  it('is changed from a signed-in browser only, not with an API token', async () => {
    const { browser } = await signUp(test.app.url);
    const token = await browser.call(tokensApi.create, { body: { name: 'script', scopes: ['read', 'write'] } });
    const script = callingRoutes(withToken(test.app.url, token.body.token));
    expect(await script.call(securityApi.beginTotp)).toFail('forbidden');
    expect(await script.call(securityApi.remove)).toFail('forbidden');
    expect(await new TestBrowser(test.app.url).call(securityApi.get)).toFail('unauthenticated');
  });

  it('replaces the recovery codes, and turns two-step sign-in off', async () => {
    const { browser, email, password, recoveryCodes } = await withTotp();
    const fresh = await browser.call(securityApi.regenerateRecoveryCodes);
    expect(fresh.body.recoveryCodes).toHaveLength(10);
    expect(fresh.body.recoveryCodes).not.toContain(recoveryCodes[0]);
    expect((await browser.call(securityApi.remove)).status).toBe(204);
    expect((await browser.call(securityApi.get)).body).toEqual({ available: true, totp: false, recoveryCodesLeft: 0, required: false });
    expect(await browser.call(securityApi.regenerateRecoveryCodes)).toFail('forbidden');
    const again = await signIn(test.app.url, email, password);
    expect((await again.browser.call(meApi.get)).status).toBe(200);
    expect(await amrOf(again.browser)).toEqual(['pwd']);
    // Each change is told to the address.
    expect(mailsTo(test.app.dataDir, email).map((m) => m.subject)).toEqual([
      'Confirm your email address for Cabinet',
      'Two-step sign-in is on for your Cabinet account',
      'New recovery codes for your Cabinet account',
      'Two-step sign-in is off for your Cabinet account',
    ]);
  });
});

describe('signing in with two steps at the embedded provider', () => {
  it('asks for the code after the password, and the ID token says both were used', async () => {
    const { email, password, secret } = await withTotp();
    const { browser, page } = await signIn(test.app.url, email, password);
    expect(page.url).toMatch(/\/idp\/interaction\/[^/]+\/two-step$/);
    expect(page.text).toContain('<h1>Two-step sign-in</h1>');
    expect((await browser.call(meApi.get)).status).toBe(401);
    // The code of the next time step: the one taken at set-up is not taken twice.
    const done = await browser.navigate(formAction(page), { form: { code: totpCode(secret, Date.now() + STEP_MS) } });
    expect(done.url).toBe(`${test.app.url}/`);
    expect((await browser.call(meApi.get)).status).toBe(200);
    expect(await amrOf(browser)).toEqual(['pwd', 'otp']);
  });

  it('refuses a code used already, a wrong code and a code from another time', async () => {
    const { email, password, secret } = await withTotp();
    const first = await signIn(test.app.url, email, password);
    const code = totpCode(secret, Date.now() + STEP_MS);
    await first.browser.navigate(formAction(first.page), { form: { code } });
    expect((await first.browser.call(meApi.get)).status).toBe(200);

    const second = await signIn(test.app.url, email, password);
    for (const refused of [code, totpCode(secret, Date.now() - 3 * STEP_MS), totpCode(secret, Date.now() + 3 * STEP_MS), 'abc', '']) {
      const page = await second.browser.navigate(formAction(second.page), { form: { code: refused } });
      expect(page.status, refused).toBe(refused ? 401 : 400);
      expect(alertText(page.text), refused).toMatch(refused ? /^That code is not right, or was used already\./ : /^Enter the code/);
    }
    expect((await second.browser.call(meApi.get)).status).toBe(401);
  });

  it('takes each recovery code once in place of the code', async () => {
    const { email, password, recoveryCodes, browser: setUpBrowser } = await withTotp();
    const first = await signIn(test.app.url, email, password);
    // Typed with capitals and spaces, as read from paper.
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replace('-', ' ')} `;
    await first.browser.navigate(formAction(first.page), { form: { code: typed } });
    expect((await first.browser.call(meApi.get)).status).toBe(200);
    expect(await amrOf(first.browser)).toEqual(['pwd', 'otp']);
    expect((await setUpBrowser.call(securityApi.get)).body.recoveryCodesLeft).toBe(9);

    const second = await signIn(test.app.url, email, password);
    const refused = await second.browser.navigate(formAction(second.page), { form: { code: recoveryCodes[3]! } });
    expect(refused.status).toBe(401);
    const other = await second.browser.navigate(formAction(second.page), { form: { code: recoveryCodes[4]! } });
    expect(other.url).toBe(`${test.app.url}/`);
  });

  it('does not skip the code when the sign-in page is asked again or the step is posted without a password', async () => {
    const { email, password } = await withTotp();
    const { browser, page } = await signIn(test.app.url, email, password);
    // A browser that never gave the password for this sign-in is sent back to the password.
    const stranger = new TestBrowser(test.app.url);
    const start = await stranger.navigate('/auth/login');
    const elsewhere = await stranger.navigate(start.url + '/two-step', { form: { code: '123456' } });
    expect(elsewhere.text).toContain('<h1>Sign in</h1>');
    expect((await browser.call(meApi.get)).status).toBe(401);
    expect((await browser.navigate(page.url)).text).toContain('<h1>Two-step sign-in</h1>');
  });

  it('lets the password alone finish a sign-in whose app was turned off while its code was awaited', async () => {
    const { email, password, browser: setUpBrowser } = await withTotp();
    const { browser, page } = await signIn(test.app.url, email, password);
    expect((await setUpBrowser.call(securityApi.remove)).status).toBe(204);
    const done = await browser.navigate(formAction(page), { form: { code: '' } });
    expect(done.url).toBe(`${test.app.url}/`);
    expect(await amrOf(browser)).toEqual(['pwd']);
  });

  it('locks the account after five wrong codes, as after five wrong passwords', async () => {
    const { email, password, secret } = await withTotp();
    const { browser, page } = await signIn(test.app.url, email, password);
    for (let i = 0; i < 5; i++) await browser.navigate(formAction(page), { form: { code: i % 2 ? 'aaaaa-aaaaa' : '999999' } });
    const locked = await browser.navigate(formAction(page), { form: { code: totpCode(secret, Date.now() + STEP_MS) } });
    expect(locked.status).toBe(401);
    expect((await browser.call(meApi.get)).status).toBe(401);
    // The right password alone does not unlock it either.
    expect((await signIn(test.app.url, email, password)).page.status).toBe(401);
  });

  it('counts codes against the per-address limit of sign-in attempts', async () => {
    const strict = await startTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '3' });
    try {
      const { email, password } = await withTotp(strict.url);
      const { browser, page } = await signIn(strict.url, email, password);
      expect((await browser.navigate(formAction(page), { form: { code: '999999' } })).status).toBe(401);
      expect((await browser.navigate(formAction(page), { form: { code: '999998' } })).status).toBe(401);
      const limited = await browser.navigate(formAction(page), { form: { code: '999997' } });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(alertText(limited.text)).toMatch(/^Too many sign-in attempts from your network/);
    } finally {
      await strict.close();
    }
  });
});

describe('cabinet user reset-two-step', () => {
  const reset = (email: string) => runInApp(test.app.ctx, 'user reset-two-step', { email });

  it('turns off the second step of someone who lost every factor, so their password alone signs in', async () => {
    const { email, password, browser } = await withTotp();
    const done = await reset(email.toUpperCase());
    expect(done.code, done.err).toBe(0);
    expect(done.out).toBe(`Two-step sign-in of ${email} is off: they sign in with their password alone, and can set it up again under Account → Security.\n`);
    expect((await browser.call(securityApi.get)).body).toEqual({ available: true, totp: false, recoveryCodesLeft: 0, required: false });
    const again = await signIn(test.app.url, email, password);
    expect((await again.browser.call(meApi.get)).status).toBe(200);

    const twice = await reset(email);
    expect(twice.out).toBe(`${email} had no two-step sign-in: nothing changed.\n`);
    const nobody = await reset('nobody-at-all@example.com');
    expect(nobody.code).toBe(1);
    expect(nobody.err).toContain('No account of the embedded identity provider has the email nobody-at-all@example.com.');
  });
});
