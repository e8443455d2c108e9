import { meApi, securityApi, tokensApi } from '@cabinet/contracts';
import { PASSKEY_LIMIT, totpCode } from '@cabinet/idp';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { deriveKey, decrypt } from '../../lib/crypto.ts';
import { GOOD_PASSWORD, mailsTo, signIn, signUp, TestBrowser } from '../../testing/browser.ts';
import { addPasskey, PasskeyAuthenticator, passkeyForm, passkeyOptions } from '../../testing/passkey-authenticator.ts';
import { callingRoutes, withToken } from '../../testing/route-call.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { runInApp } from '../../testing/cabinet-command.ts';

const test = useTestApp({ IDP_SIGNIN_ATTEMPTS_PER_MINUTE: '1000' });
const alertText = (text: string) => /role="alert">([^<]*)/.exec(text)?.[1];

/** The `amr` of the ID token Cabinet keeps for the browser's session. */
async function amrOf(browser: TestBrowser): Promise<unknown> {
  const me = await browser.call(meApi.get);
  const session = await test.app.ctx.db.selectFrom('sessions').select('id_token_sealed').where('id', '=', me.body.sessionId!).executeTakeFirstOrThrow();
  return decodeJwt(decrypt(deriveKey(test.app.ctx.env.SESSION_SECRET, 'provider-tokens'), session.id_token_sealed!)).amr;
}

/** A person with a passkey on a device of theirs. */
async function withPasskey(url = test.app.url, device = new PasskeyAuthenticator(url)) {
  const person = await signUp(url);
  const added = await addPasskey(person.browser, device);
  expect(added.status).toBe(201);
  return { ...person, device, passkey: added.body };
}

/** Opens the sign-in page in a new browser and answers its passkey challenge with the device. */
async function signInWithPasskey(device: PasskeyAuthenticator, ceremony: Parameters<PasskeyAuthenticator['signIn']>[1] = {}) {
  const browser = new TestBrowser(test.app.url);
  const page = await browser.navigate('/auth/login');
  const form = passkeyForm(page);
  const done = await browser.navigate(form.action, { form: { response: JSON.stringify(device.signIn(form.options, ceremony)) } });
  return { browser, page: done };
}

describe('passkeys under Account → Security', () => {
  it('adds a passkey made from the options, lists, renames and removes it', async () => {
    const { browser, email } = await signUp(test.app.url);
    expect((await browser.call(securityApi.listPasskeys)).body).toEqual({ passkeys: [] });
    const options = await passkeyOptions(browser);
    const creation = options.body.options as { rp: { id: string; name: string }; user: { name: string }; authenticatorSelection: Record<string, string> };
    expect(creation.rp).toEqual({ id: '127.0.0.1', name: 'Cabinet' });
    expect(creation.user.name).toBe(email);
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });

    const device = new PasskeyAuthenticator(test.app.url, { multiDevice: true });
    const added = await browser.call(securityApi.addPasskey, { body: { name: '  Phone  ', response: device.register(options.body.options) } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'Phone', synced: true, lastUsedAt: null });
    // The options are taken once: the same answer again adds nothing.
    const again = await browser.call(securityApi.addPasskey, { body: { name: 'Again', response: device.register(options.body.options) } });
    expect(again).toFail('invalid_input');
    expect(again.error?.details).toEqual({ fields: [{ path: 'response', message: expect.stringMatching(/^The passkey could not be checked/) }] });
    // The next options exclude it, so the same device does not make a second one.
    const next = await passkeyOptions(browser);
    expect((next.body.options as { excludeCredentials: { id: string }[] }).excludeCredentials.map((c) => c.id)).toEqual([
      device.credentials[0]!.id.toString('base64url'),
    ]);

    const renamed = await browser.call(securityApi.renamePasskey, { params: { id: added.body.id }, body: { name: 'Work phone' } });
    expect(renamed.body.name).toBe('Work phone');
    expect(await browser.call(securityApi.renamePasskey, { params: { id: added.body.id }, body: { name: ' ' } })).toFail('invalid_input');
    expect((await browser.call(securityApi.listPasskeys)).body.passkeys.map((p) => p.name)).toEqual(['Work phone']);

    expect((await browser.call(securityApi.removePasskey, { params: { id: added.body.id } })).status).toBe(204);
    expect(await browser.call(securityApi.removePasskey, { params: { id: added.body.id } })).toFail('not_found');
    expect((await browser.call(securityApi.listPasskeys)).body).toEqual({ passkeys: [] });
    // The address is told of each, so that a passkey its owner did not add does not go unnoticed.
    expect(mailsTo(test.app.dataDir, email).map((m) => [m.subject, /“([^”]+)”/.exec(m.text)?.[1]])).toEqual([
      ['Confirm your email address for Cabinet', undefined],
      ['A passkey was added to your Cabinet account', 'Phone'],
      ['A passkey was removed from your Cabinet account', 'Work phone'],
    ]);
    // Removed, it signs in no more.
    const refused = await signInWithPasskey(device);
    expect(refused.page.status).toBe(401);
    expect(alertText(refused.page.text)).toMatch(/^That passkey did not sign you in/);
  });

  it('refuses a passkey made on another site, or without its owner checked by the device', async () => {
    const { browser } = await signUp(test.app.url);
    const device = new PasskeyAuthenticator(test.app.url);
    for (const ceremony of [{ origin: 'https://cabinet.example.evil' }, { origin: 'http://127.0.0.1:1' }, { userVerified: false }]) {
      const options = await passkeyOptions(browser);
      expect(await browser.call(securityApi.addPasskey, { body: { name: 'x', response: device.register(options.body.options, ceremony) } })).toFail(
        'invalid_input',
      );
    }
    // Answers that are no passkey at all.
    for (const response of [{}, { id: 'x', response: {} }, { id: 1, type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: '' } }]) {
      await passkeyOptions(browser);
      expect(await browser.call(securityApi.addPasskey, { body: { name: 'x', response } })).toFail('invalid_input');
    }
    expect((await browser.call(securityApi.listPasskeys)).body.passkeys).toEqual([]);
  });

  it('asks for the password before a passkey is made, and takes a one-line name', async () => {
    const { browser } = await signUp(test.app.url);
    const wrong = await passkeyOptions(browser, 'not-the-password-at-all');
    expect(wrong).toFail('invalid_input');
    expect(wrong.error?.details).toEqual({ fields: [{ path: 'currentPassword', message: expect.stringMatching(/^That is not your current password\./) }] });
    expect(await browser.call(securityApi.passkeyOptions, { body: { currentPassword: '' } })).toFail('invalid_input');
    // No options were given, so there is nothing to answer.
    const device = new PasskeyAuthenticator(test.app.url);
    const unasked = device.register({ challenge: 'AAAA', user: { id: 'AAAA' } });
    expect(await browser.call(securityApi.addPasskey, { body: { name: 'x', response: unasked } })).toFail('invalid_input');
    // Options made for another account are not this account's.
    const other = await signUp(test.app.url);
    const theirs = await passkeyOptions(other.browser);
    expect(await browser.call(securityApi.addPasskey, { body: { name: 'x', response: device.register(theirs.body.options) } })).toFail('invalid_input');

    const options = await passkeyOptions(browser);
    for (const name of ['Two\nlines', 'Tab\there', ' '])
      expect(await browser.call(securityApi.addPasskey, { body: { name, response: device.register(options.body.options) } })).toFail('invalid_input');
    // Transports a browser reports that WebAuthn does not name are not kept.
    const odd = device.register(options.body.options);
    (odd.response as Record<string, unknown>).transports = ['usb', 'carrier-pigeon', { x: 1 }, ['nfc'], 'usb'];
    expect((await browser.call(securityApi.addPasskey, { body: { name: 'Key', response: odd } })).status).toBe(201);
    const stored = await test.app.ctx.database.sql.query<{ transports: string[] }>('SELECT transports FROM idp_passkeys WHERE credential_id = $1', [odd.id]);
    expect(stored[0]!.transports).toEqual(['usb']);
    const plain = await passkeyOptions(browser);
    const single = device.register(plain.body.options);
    (single.response as Record<string, unknown>).transports = 'internal';
    expect((await browser.call(securityApi.addPasskey, { body: { name: 'Key 2', response: single } })).status).toBe(201);
  });

  it('is changed from a signed-in browser only, for accounts of the embedded provider, and up to the limit', async () => {
    const { browser, passkey } = await withPasskey();
    const token = await browser.call(tokensApi.create, { body: { name: 'script', scopes: ['read', 'write'] } });
    const script = callingRoutes(withToken(test.app.url, token.body.token));
    expect(await script.call(securityApi.passkeyOptions, { body: { currentPassword: GOOD_PASSWORD } })).toFail('forbidden');
    expect(await script.call(securityApi.removePasskey, { params: { id: passkey.id } })).toFail('forbidden');
    expect(await new TestBrowser(test.app.url).call(securityApi.listPasskeys)).toFail('unauthenticated');
    // Someone else's passkey is not found by id.
    const other = await signUp(test.app.url);
    expect(await other.browser.call(securityApi.removePasskey, { params: { id: passkey.id } })).toFail('not_found');
    expect(await other.browser.call(securityApi.renamePasskey, { params: { id: passkey.id }, body: { name: 'mine' } })).toFail('not_found');

    const device = new PasskeyAuthenticator(test.app.url);
    for (let i = 1; i < PASSKEY_LIMIT; i++) expect((await addPasskey(browser, device, `Key ${i}`)).status).toBe(201);
    const over = await passkeyOptions(browser);
    expect(over).toFail('forbidden');
    expect(over.error?.message).toBe(`An account has at most ${PASSKEY_LIMIT} passkeys. Remove one you no longer use to add another.`);
  });
});

describe('signing in with a passkey at the embedded provider', () => {
  it('signs in with the passkey alone, and the ID token says a key its device unlocked was used', async () => {
    const { device, browser: setUp } = await withPasskey();
    const { browser, page } = await signInWithPasskey(device);
    expect(page.url).toBe(`${test.app.url}/`);
    expect((await browser.call(meApi.get)).status).toBe(200);
    expect(await amrOf(browser)).toEqual(['hwk', 'mfa']);
    const [listed] = (await setUp.call(securityApi.listPasskeys)).body.passkeys;
    expect(listed!.lastUsedAt).not.toBeNull();

    const synced = await withPasskey(test.app.url, new PasskeyAuthenticator(test.app.url, { multiDevice: true }));
    const second = await signInWithPasskey(synced.device);
    expect(await amrOf(second.browser)).toEqual(['swk', 'mfa']);
  });

  it('refuses an answer signed for another site, one replayed, one without its owner checked, and a copied key', async () => {
    const { device } = await withPasskey();
    for (const ceremony of [{ origin: 'https://cabinet.example.evil' }, { userVerified: false }]) {
      const refused = await signInWithPasskey(device, ceremony);
      expect(refused.page.status).toBe(401);
      expect((await refused.browser.call(meApi.get)).status).toBe(401);
    }

    // A refused answer takes its challenge too: the right answer to it afterwards finds none.
    const same = new TestBrowser(test.app.url);
    const once = passkeyForm(await same.navigate('/auth/login'));
    expect((await same.navigate(once.action, { form: { response: JSON.stringify(device.signIn(once.options, { userVerified: false })) } })).status).toBe(401);
    expect((await same.navigate(once.action, { form: { response: JSON.stringify(device.signIn(once.options)) } })).status).toBe(401);
    // A challenge past its time is refused.
    const late = new TestBrowser(test.app.url);
    const slow = passkeyForm(await late.navigate('/auth/login'));
    await test.app.ctx.database.sql.query(`UPDATE idp_passkey_challenges SET expires_at = now() - interval '1 second' WHERE challenge = $1`, [
      slow.options.challenge,
    ]);
    expect((await late.navigate(slow.action, { form: { response: JSON.stringify(device.signIn(slow.options)) } })).status).toBe(401);

    // The same answer posted twice: the challenge was taken by the first.
    const browser = new TestBrowser(test.app.url);
    const form = passkeyForm(await browser.navigate('/auth/login'));
    const answer = JSON.stringify(device.signIn(form.options));
    expect((await browser.navigate(form.action, { form: { response: answer } })).url).toBe(`${test.app.url}/`);
    const thief = new TestBrowser(test.app.url);
    const theirs = passkeyForm(await thief.navigate('/auth/login'));
    expect((await thief.navigate(theirs.action, { form: { response: answer } })).status).toBe(401);
    expect((await thief.navigate(theirs.action, { form: { response: 'not json' } })).status).toBe(401);

    // A device that counts signatures: a count that does not go up is a copy of the key.
    const counting = await withPasskey(test.app.url, new PasskeyAuthenticator(test.app.url, { counts: true }));
    expect((await signInWithPasskey(counting.device)).page.url).toBe(`${test.app.url}/`);
    counting.device.credentials[0]!.counter -= 1;
    expect((await signInWithPasskey(counting.device)).page.status).toBe(401);
    // Counters run to 2³²−1: past PostgreSQL's integer, they are still compared as numbers.
    counting.device.credentials[0]!.counter = 3_000_000_000;
    expect((await signInWithPasskey(counting.device)).page.url).toBe(`${test.app.url}/`);
    expect((await signInWithPasskey(counting.device)).page.url).toBe(`${test.app.url}/`);
    counting.device.credentials[0]!.counter = 2_999_999_999;
    expect((await signInWithPasskey(counting.device)).page.status).toBe(401);
  });

  it('is the second step after a password in place of the app’s code, with the account’s passkeys only', async () => {
    const { browser: setUp, email, password, device } = await withPasskey();
    const begun = await setUp.call(securityApi.beginTotp);
    await setUp.call(securityApi.confirmTotp, { body: { code: totpCode(begun.body.secret) } });
    const stranger = await withPasskey();

    const { browser, page } = await signIn(test.app.url, email, password);
    expect(page.text).toContain('<h1>Two-step sign-in</h1>');
    const form = passkeyForm(page);
    expect(form.action).toMatch(/\/two-step\/passkey$/);
    expect((form.options.allowCredentials as { id: string }[]).map((c) => c.id)).toEqual([device.credentials[0]!.id.toString('base64url')]);
    // Another account's passkey is not this account's second step.
    const wrong = await browser.navigate(form.action, {
      form: { response: JSON.stringify(stranger.device.signIn({ ...form.options, allowCredentials: [] })) },
    });
    expect(wrong.status).toBe(401);
    expect(alertText(wrong.text)).toMatch(/^That passkey did not sign you in/);
    const retry = passkeyForm(wrong);
    const done = await browser.navigate(retry.action, { form: { response: JSON.stringify(device.signIn(retry.options)) } });
    expect(done.url).toBe(`${test.app.url}/`);
    expect(await amrOf(browser)).toEqual(['pwd', 'hwk']);
  });

  it('opens a locked account, and its password alone still signs in where it has no app', async () => {
    const { email, password, device } = await withPasskey();
    const plain = await signIn(test.app.url, email, password);
    expect(await amrOf(plain.browser)).toEqual(['pwd']);
    for (let i = 0; i < 5; i++) await signIn(test.app.url, email, 'wrong-password-entirely');
    expect((await signIn(test.app.url, email, password)).page.status).toBe(401);
    expect((await signInWithPasskey(device)).page.url).toBe(`${test.app.url}/`);
    expect((await signIn(test.app.url, email, password)).page.url).toBe(`${test.app.url}/`);
  });
});

describe('cabinet user reset-two-step', () => {
  it('removes the passkeys too', async () => {
    const { email, device, browser } = await withPasskey();
    const io = await runInApp(test.app.ctx, 'user reset-two-step', { email });
    expect(io.code, io.err).toBe(0);
    expect(io.out).toBe(
      `Two-step sign-in of ${email} is off and their passkeys (1) are removed: they sign in with their password alone, and can set it up again under Account → Security.\n`,
    );
    expect((await browser.call(securityApi.listPasskeys)).body.passkeys).toEqual([]);
    expect((await signInWithPasskey(device)).page.status).toBe(401);
  });
});
