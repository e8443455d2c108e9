import { meApi, securityApi, sessionsApi, tokensApi } from '@cabinet/contracts';
import { expect, it } from 'vitest';
import { GOOD_PASSWORD, mailsTo, signIn, signUp } from '../../testing/browser.ts';
import { callingRoutes, invalidFields, withToken } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000' });
const NEW_PASSWORD = 'a-brand-new-passphrase-7';

it('changes the password after the current one, ends every other session with Cabinet and the provider, and tells the address', async () => {
  const { browser, email } = await signUp(test.app.url);
  const other = await signIn(test.app.url, email, GOOD_PASSWORD);
  const change = await browser.call(securityApi.changePassword, { body: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } });
  expect(change.status).toBe(204);

  expect((await browser.call(meApi.get)).status).toBe(200);
  expect((await browser.call(sessionsApi.list)).body.items).toHaveLength(1);
  expect((await other.browser.call(meApi.get)).status).toBe(401);
  // The provider's sessions ended too: signing in again asks for the password, and only the new one works.
  expect((await other.browser.navigate('/auth/login')).text).toContain('<h1>Sign in</h1>');
  expect((await signIn(test.app.url, email, GOOD_PASSWORD)).page.status).toBe(401);
  expect((await (await signIn(test.app.url, email, NEW_PASSWORD)).browser.call(meApi.get)).status).toBe(200);

  expect(mailsTo(test.app.dataDir, email).map((m) => m.subject)).toContain('Your Cabinet password was changed');
});

it('refuses a wrong current password, counting it towards the lock, and a new one the policy refuses', async () => {
  const { browser, email } = await signUp(test.app.url);
  const wrong = await browser.call(securityApi.changePassword, { body: { currentPassword: 'not-my-password-at-all', newPassword: NEW_PASSWORD } });
  expect(wrong).toFail('invalid_input');
  expect(invalidFields(wrong)).toEqual([
    { path: 'currentPassword', message: 'That is not your current password. After several wrong attempts your account is locked for a while.' },
  ]);
  const weak = await browser.call(securityApi.changePassword, { body: { currentPassword: GOOD_PASSWORD, newPassword: 'short' } });
  expect(invalidFields(weak)).toEqual([{ path: 'newPassword', message: 'Password must be at least 12 characters' }]);
  for (let i = 0; i < 5; i++) await browser.call(securityApi.changePassword, { body: { currentPassword: `wrong-${i}`, newPassword: NEW_PASSWORD } });
  // Locked: the right password is refused too, here and at sign-in.
  expect(await browser.call(securityApi.changePassword, { body: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } })).toFail('invalid_input');
  expect((await signIn(test.app.url, email, GOOD_PASSWORD)).page.status).toBe(401);
});

it('is changed from a signed-in browser only', async () => {
  const { browser } = await signUp(test.app.url);
  const token = await browser.call(tokensApi.create, { body: { name: 'script', scopes: ['read', 'write'] } });
  const script = callingRoutes(withToken(test.app.url, token.body.token));
  expect(await script.call(securityApi.changePassword, { body: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } })).toFail('forbidden');
});
