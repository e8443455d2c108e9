import { meApi } from '@cabinet/contracts';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { formAction, GOOD_PASSWORD, mailedLink, mailsTo, signIn, signUp, signUpWithPassword, TestBrowser, uniqueEmail } from '../../testing/browser.ts';
import { startTestApp, useTestApp } from '../../testing/test-app.ts';

const test = useTestApp();

const lastMailTo = (email: string) => mailsTo(test.app.dataDir, email).at(-1)!;

it('resets a forgotten password through a mailed link, once, and unlocks the account', async () => {
  const { email } = await signUp(test.app.url);
  for (let i = 0; i < 5; i++) await signIn(test.app.url, email, `wrong-password-${i}`);

  const browser = new TestBrowser(test.app.url);
  const signInPage = await browser.navigate('/auth/login');
  const forgot = await browser.navigate(signInPage.text.match(/href="([^"]*\/forgot[^"]*)"/)![1]!.replace(/&amp;/g, '&'));
  const sent = await browser.navigate(formAction(forgot), { form: { email } });
  expect(sent.text).toContain('If an account exists for that address');
  // No mail server here: a person on this machine is told where the mail waits.
  expect(sent.text).toContain('the message waits in its <a href="/idp/dev/outbox">outbox</a>');

  const mail = lastMailTo(email);
  expect(mail.subject).toBe('Reset your Cabinet password');
  const link = /(http\S+\/idp\/reset\/\S+)/.exec(mail.text)![1]!;
  const resetPage = await browser.navigate(link);
  const weak = await browser.navigate(formAction(resetPage), { form: { password: 'short' } });
  expect(weak.text).toContain('Password must be at least 12 characters');
  const done = await browser.navigate(formAction(resetPage), { form: { password: 'a-brand-new-passphrase-7' } });
  expect(done.text).toContain('Password changed');

  const again = await browser.navigate(link);
  expect(again.status).toBe(410);
  expect((await signIn(test.app.url, email, GOOD_PASSWORD)).page.text).toContain('Wrong email or password.');
  const ok = await signIn(test.app.url, email, 'a-brand-new-passphrase-7');
  expect((await ok.browser.call(meApi.get)).status).toBe(200);
});

it('ends every session of the account, with Cabinet and with the provider, when its password is reset', async () => {
  const first = await signUp(test.app.url);
  const second = await signIn(test.app.url, first.email, first.password);
  const user = await test.app.ctx.db.selectFrom('users').selectAll().where('email', '=', first.email).executeTakeFirstOrThrow();
  const providerState = () =>
    test.app.ctx.database.sql.query<{ kind: string }>(`SELECT kind FROM idp_payloads WHERE payload->>'accountId' = $1`, [user.subject]);
  expect((await providerState()).map((r) => r.kind)).toEqual(expect.arrayContaining(['Session', 'Grant']));

  const forgot = await new TestBrowser(test.app.url).navigate('/idp/forgot');
  await new TestBrowser(test.app.url).navigate(formAction(forgot), { form: { email: first.email } });
  const resetBrowser = new TestBrowser(test.app.url);
  const resetPage = await resetBrowser.navigate(await mailedLink(test.app.url, first.email, 'reset'));
  expect((await resetBrowser.navigate(formAction(resetPage), { form: { password: 'a-brand-new-passphrase-7' } })).text).toContain('Password changed');

  for (const browser of [first.browser, second.browser]) expect((await browser.call(meApi.get)).status).toBe(401);
  expect(await providerState()).toEqual([]);
  // The provider no longer knows the browser: signing in asks for the (new) password.
  const again = await first.browser.navigate('/auth/login');
  expect(again.url).toContain('/idp/interaction/');
  expect(again.text).toContain('Sign in');
});

it('answers the same for an unknown address and sends nothing', async () => {
  const browser = new TestBrowser(test.app.url);
  const forgot = await browser.navigate('/idp/forgot');
  const sent = await browser.navigate(formAction(forgot), { form: { email: 'nobody-here@example.com' } });
  expect(sent.text).toContain('If an account exists for that address');
  expect(lastMailTo('nobody-here@example.com')).toBeUndefined();
});

it('shows the dev outbox to the operator on a local installation', async () => {
  const { email } = await signUp(test.app.url);
  const browser = new TestBrowser(test.app.url);
  const forgot = await browser.navigate('/idp/forgot');
  await browser.navigate(formAction(forgot), { form: { email } });
  const outbox = await browser.navigate('/idp/dev/outbox');
  expect(outbox.status).toBe(200);
  expect(outbox.text).toContain(`To ${email}`);
});

it('keeps the dev outbox from any caller that is not on this machine', async () => {
  const { email } = await signUp(test.app.url);
  const browser = new TestBrowser(test.app.url);
  const forgot = await browser.navigate('/idp/forgot');
  await browser.navigate(formAction(forgot), { form: { email } });
  const remote = await test.app.app.inject({ method: 'GET', url: '/idp/dev/outbox', remoteAddress: '192.0.2.10' });
  expect(remote.statusCode).toBe(404);
  expect(remote.body).not.toContain('/idp/reset/');
  const mapped = await test.app.app.inject({
    method: 'GET',
    url: '/idp/dev/outbox',
    remoteAddress: '::ffff:192.0.2.10',
    headers: { 'x-forwarded-for': '127.0.0.1' },
  });
  expect(mapped.statusCode).toBe(404);
  const local = await test.app.app.inject({ method: 'GET', url: '/idp/dev/outbox', remoteAddress: '::1' });
  expect(local.statusCode).toBe(200);
  expect(local.body).toContain(`To ${email}`);
});

it('has no dev outbox behind a proxy, where every caller looks local', async () => {
  const behindProxy = await startTestApp({ TRUST_PROXY: 'true' });
  try {
    const browser = new TestBrowser(behindProxy.url);
    const email = uniqueEmail();
    const login = await browser.navigate('/auth/login');
    await signUpWithPassword(browser, login.url, { name: 'Proxied', email, password: GOOD_PASSWORD });
    expect(readdirSync(path.join(behindProxy.dataDir, 'outbox'))).not.toEqual([]);
    const outbox = await browser.navigate('/idp/dev/outbox');
    expect(outbox.status).toBe(404);
    expect(outbox.text).not.toContain(email);
  } finally {
    await behindProxy.close();
  }
});

it('confirms the address with the reset, whose link went there: an address left unconfirmed is not stuck for good', async () => {
  const browser = new TestBrowser(test.app.url);
  const email = uniqueEmail();
  const login = await browser.navigate('/auth/login');
  await signUpWithPassword(browser, login.url, { name: 'Never confirmed', email, password: GOOD_PASSWORD });
  expect((await browser.call(meApi.get)).body.user.emailVerified).toBe(false);
  // The confirmation link runs out.
  await test.app.ctx.database.sql.query(
    `UPDATE idp_email_verifications SET expires_at = now() - interval '1 minute' WHERE account_id = (SELECT id FROM idp_accounts WHERE email = $1)`,
    [email],
  );
  const expired = await new TestBrowser(test.app.url).navigate(await mailedLink(test.app.url, email, 'verify'));
  expect(expired.status).toBe(410);
  expect(expired.text).toContain('Forgot password?');

  const forgot = await new TestBrowser(test.app.url).navigate('/idp/forgot');
  await new TestBrowser(test.app.url).navigate(formAction(forgot), { form: { email } });
  const resetBrowser = new TestBrowser(test.app.url);
  const resetPage = await resetBrowser.navigate(await mailedLink(test.app.url, email, 'reset'));
  expect((await resetBrowser.navigate(formAction(resetPage), { form: { password: 'a-brand-new-passphrase-7' } })).text).toContain('Password changed');
  const again = await signIn(test.app.url, email, 'a-brand-new-passphrase-7');
  expect((await again.browser.call(meApi.get)).body.user.emailVerified).toBe(true);
});
