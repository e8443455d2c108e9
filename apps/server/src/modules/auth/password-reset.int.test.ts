import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formAction, GOOD_PASSWORD, signIn, signUp, TestBrowser } from '../../testing/browser.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function lastMailTo(email: string): { subject: string; text: string } {
  const dir = path.join(t.dataDir, 'outbox');
  const mails = readdirSync(dir).sort().map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
  return mails.filter((m) => m.to === email).at(-1);
}

it('resets a forgotten password through a mailed link, once, and unlocks the account', async () => {
  const { email } = await signUp(t.url);
  for (let i = 0; i < 5; i++) await signIn(t.url, email, `wrong-password-${i}`);

  const browser = new TestBrowser(t.url);
  const signInPage = await browser.navigate('/auth/login');
  const forgot = await browser.navigate(signInPage.text.match(/href="([^"]*\/forgot[^"]*)"/)![1]!.replace(/&amp;/g, '&'));
  const sent = await browser.navigate(formAction(forgot), { form: { email } });
  expect(sent.text).toContain('If an account exists for that address');

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
  expect((await signIn(t.url, email, GOOD_PASSWORD)).page.text).toContain('Wrong email or password.');
  const ok = await signIn(t.url, email, 'a-brand-new-passphrase-7');
  expect((await ok.browser.api('GET', '/api/v1/me')).status).toBe(200);
});

it('answers the same for an unknown address and sends nothing', async () => {
  const browser = new TestBrowser(t.url);
  const forgot = await browser.navigate('/idp/forgot');
  const sent = await browser.navigate(formAction(forgot), { form: { email: 'nobody-here@example.com' } });
  expect(sent.text).toContain('If an account exists for that address');
  expect(lastMailTo('nobody-here@example.com')).toBeUndefined();
});

it('shows the dev outbox to the operator on a local installation', async () => {
  const { email } = await signUp(t.url);
  const browser = new TestBrowser(t.url);
  const forgot = await browser.navigate('/idp/forgot');
  await browser.navigate(formAction(forgot), { form: { email } });
  const outbox = await browser.navigate('/idp/dev/outbox');
  expect(outbox.status).toBe(200);
  expect(outbox.text).toContain(`To ${email}`);
});
