import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZEmail } from '@cabinet/contracts';
import type { ClientMetadata, Interaction } from 'oidc-provider';
import { AccountStore, type Account, type LockoutPolicy } from './accounts.ts';
import { createMailer, readOutbox, type MailOptions } from './mail.ts';
import {
  CONTENT_SECURITY_POLICY,
  checkEmailPage,
  confirmEmailPage,
  forgotPage,
  messagePage,
  outboxPage,
  recoveryCodesPage,
  resetPage,
  signInPage,
  signUpPage,
  twoStepPage,
  twoStepSetUpPage,
} from './pages.ts';
import { passwordChecker, type PasswordPolicy } from './password-policy.ts';
import { RateLimiter } from './rate-limit.ts';
import { PasskeyStore, relyingPartyOf, type PasskeyMethod } from './passkeys.ts';
import type { SqlClient } from './sql.ts';
import { TwoStepStore } from './two-step.ts';

export { AccountStore, accountAddress } from './accounts.ts';
export { endAccountSessions } from './adapter.ts';
export { ensureSigningKey, newEcKeyPair, newRsaJwk } from './keys.ts';
export { PASSKEY_LIMIT, PasskeyStore, relyingPartyOf, type Passkey, type RelyingParty } from './passkeys.ts';
export { RECOVERY_CODE_COUNT, totpCode, TwoStepStore, type TotpSetUp, type TwoStepStatus } from './two-step.ts';
export { DEFAULT_PASSWORD_POLICY, passwordChecker, type CharacterClass, type PasswordPolicy } from './password-policy.ts';
export type { SqlClient } from './sql.ts';
/** The one way Cabinet sends mail (SMTP, or the dev outbox), for the server's own messages too. */
export { createMailer, readOutbox, type Mail, type Mailer, type MailOptions, type OutboxMessage } from './mail.ts';

export interface IdpOptions {
  /** The issuer URL; its path is where the provider is mounted (e.g. https://cabinet.example.com/idp). */
  issuer: string;
  sql: SqlClient;
  clients: ClientMetadata[];
  /** Secret for the provider's signed cookies. */
  secret: string;
  /** The 32-byte key that seals authenticator apps' secrets (the host's Account → Security calls use the same). */
  twoStepKey: Buffer;
  /** Every sign-in takes a second step: an account without an authenticator app sets one up as it signs in. */
  requireTwoStep?: boolean;
  passwordPolicy: PasswordPolicy;
  lockout: LockoutPolicy;
  signInAttemptsPerMinute: number;
  /** What the per-address limits count by, from the caller's address (the host's rule: an IPv6 address by its /64). */
  rateKey: (address: string) => string;
  mail: MailOptions;
  devOutboxPage: boolean;
  trustProxy: boolean;
  /**
   * Lets the provider call clients on this machine's loopback addresses (back-channel logout), which its protection
   * against server-side request forgery otherwise refuses: for a provider and its clients on one machine (tests).
   */
  callLoopbackClients?: boolean;
  /** Where "back to Cabinet" links go once a password is reset. */
  homeUrl: string;
  /**
   * Called once a password reset has ended the account's sessions with the provider, so the host ends
   * its own sessions of that person too (the account id is the subject of the provider's tokens).
   */
  onPasswordReset?: (accountId: string) => Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export function idpMigrations(): { name: string; sql: string }[] {
  const dir = path.join(here, 'migrations');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(dir, name), 'utf8') }));
}

const isLoopbackAddress = (address: string | undefined) => !!address && (address === '::1' || /^(::ffff:)?127\./.test(address));

const WRONG_PASSWORD = 'Wrong email or password. After several wrong attempts an account is locked for a while: reset your password to unlock it at once.';
const WRONG_CODE =
  'That code is not right, or was used already. Enter the code your app shows now, or an unused recovery code. ' +
  'After several wrong attempts an account is locked for a while.';
const PASSKEY_REFUSED =
  'That passkey did not sign you in: it may have been removed from your account, or this page waited too long. Try again, or use your password.';
const EMAIL = /^[^\s@]+@[^\s@]+$/;
type Form = Record<string, string | undefined>;

/** Mounts the embedded OpenID Connect provider and its sign-in, sign-up and reset pages. */
export async function idpPlugin(app: FastifyInstance, options: IdpOptions): Promise<void> {
  const mount = new URL(options.issuer).pathname.replace(/\/$/, '');
  // The outbox holds reset links: only a caller on this machine may read it, judged by the socket. Behind a
  // proxy every caller arrives from the proxy's address, so there the page does not exist.
  const outboxShown = options.devOutboxPage && !options.trustProxy;
  const accounts = new AccountStore(options.sql, options.lockout);
  const policy = passwordChecker(options.passwordPolicy);
  const limiter = new RateLimiter(options.signInAttemptsPerMinute);
  const twoStep = new TwoStepStore(options.sql, options.twoStepKey);
  const passkeys = new PasskeyStore(options.sql, relyingPartyOf(options.issuer));
  /** Whether signing in to the account takes a second step: it has an app, or the installation requires one of everyone. */
  const needsSecondStep = async (accountId: string) => !!options.requireTwoStep || (await twoStep.required(accountId));
  const mailer = createMailer(options.mail);
  // oidc-provider is loaded where the provider is served: the `cabinet` commands that share this package's accounts, mail and
  // migrations never load it.
  const { createProvider } = await import('./provider.ts');
  const provider = await createProvider({
    issuer: options.issuer,
    sql: options.sql,
    accounts,
    clients: options.clients,
    cookieKeys: [options.secret],
    trustProxy: options.trustProxy,
    requireTwoStep: options.requireTwoStep ?? false,
    callLoopbackClients: options.callLoopbackClients ?? false,
  });
  const callback = provider.callback();
  // A client that could not be told of a sign-out (back-channel logout) keeps its session: say so.
  provider.on('backchannel.error', (_ctx, error: Error, client: { clientId: string }) => {
    app.log.warn({ err: error, clientId: client.clientId }, 'back-channel logout not delivered');
  });

  // Every answer of the provider, the hijacked ones included, refuses framing, sniffing and foreign content.
  app.addHook('onRequest', async (_req, reply) => {
    reply.raw.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.raw.setHeader('x-frame-options', 'DENY');
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    reply.raw.setHeader('referrer-policy', 'same-origin');
  });

  const send = (reply: FastifyReply, body: string, status = 200) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  const expired = (reply: FastifyReply) =>
    send(
      reply,
      messagePage('This sign-in page has expired', 'Go back to Cabinet and start signing in again.', { href: options.homeUrl, label: 'Back to Cabinet' }),
      400,
    );

  async function details(req: FastifyRequest, reply: FastifyReply) {
    try {
      return await provider.interactionDetails(req.raw, reply.raw);
    } catch {
      return undefined;
    }
  }

  /** `amr` (RFC 8176) tells the client how the person proved who they are: a password, and a one-time code when one was asked for. */
  async function finishLogin(req: FastifyRequest, reply: FastifyReply, accountId: string, amr: string[] = ['pwd']) {
    reply.hijack();
    await provider.interactionFinished(req.raw, reply.raw, { login: { accountId, amr } }, { mergeWithLastSubmission: false });
  }

  // The provider reads its own request bodies: this scope leaves the stream untouched.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    scope.all(`${mount}/*`, (req, reply) => {
      reply.hijack();
      const raw = req.raw as typeof req.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(mount.length) || '/';
      void callback(raw, reply.raw);
    });
  });

  await app.register(async (pages) => {
    await pages.register(formbody);
    // Each form has its own address; the interaction's own (where the provider sends the browser) shows the one asked for.
    const signInUrl = (uid: string) => `${mount}/interaction/${uid}/login`;
    const signUpUrl = (uid: string) => `${mount}/interaction/${uid}/signup`;
    const twoStepUrl = (uid: string) => `${mount}/interaction/${uid}/two-step`;
    const forgotUrl = (uid?: string) => `${mount}/forgot${uid ? `?uid=${encodeURIComponent(uid)}` : ''}`;
    /**
     * A passkey's button for this sign-in, with a new challenge: any of the site's passkeys, or (the second step) the
     * account's; none when the account has no passkey.
     */
    const passkeyPrompt = async (uid: string, accountId?: string) => {
      const options = await passkeys.signInOptions(uid, accountId);
      return options && { action: `${mount}/interaction/${uid}/${accountId ? 'two-step/' : ''}passkey`, options: JSON.stringify(options) };
    };
    const renderSignIn = async (uid: string, extra: { email?: string | undefined; errors?: string[]; notice?: string } = {}) =>
      signInPage({ action: signInUrl(uid), signUpUrl: signUpUrl(uid), forgotUrl: forgotUrl(uid), passkey: await passkeyPrompt(uid), ...extra });
    const renderSignUp = (uid: string, extra: Partial<Parameters<typeof signUpPage>[0]> = {}) =>
      signUpPage({ action: signUpUrl(uid), signInUrl: signInUrl(uid), passwordHint: policy.describe(), ...extra });

    /** The address the client asked to fill in (`login_hint`), when it is one; anything else is left out. */
    const hintOf = (interaction: Interaction) => {
      const hint = ZEmail.safeParse(interaction.params.login_hint);
      return hint.success ? hint.data : undefined;
    };
    const showSignIn = async (reply: FastifyReply, interaction: Interaction) =>
      send(reply, await renderSignIn(interaction.uid, { email: hintOf(interaction) }));
    const showSignUp = (reply: FastifyReply, interaction: Interaction) => {
      const email = hintOf(interaction);
      return send(reply, renderSignUp(interaction.uid, email ? { fields: { email: { value: email } } } : {}));
    };

    pages.get<{ Params: { uid: string } }>(`${mount}/interaction/:uid`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      // Cabinet's "Create an account" asks for `screen=signup`: the sign-up form at once, not one link further.
      if (interaction.prompt.name === 'login') return interaction.params.screen === 'signup' ? showSignUp(reply, interaction) : showSignIn(reply, interaction);
      // Anything else (consent) is granted by loadExistingGrant; finishing resumes the flow.
      reply.hijack();
      await provider.interactionFinished(req.raw, reply.raw, {}, { mergeWithLastSubmission: true });
    });

    pages.get<{ Params: { uid: string } }>(`${mount}/interaction/:uid/login`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      return showSignIn(reply, interaction);
    });

    pages.post<{ Params: { uid: string }; Body: Form }>(`${mount}/interaction/:uid/login`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      const email = (req.body?.email ?? '').trim();
      const password = req.body?.password ?? '';
      const wait = limiter.hit(options.rateKey(req.ip));
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(
          reply,
          await renderSignIn(interaction.uid, { email, errors: [`Too many sign-in attempts from your network. Wait ${wait} seconds and try again.`] }),
          429,
        );
      }
      if (!email || !password) return send(reply, await renderSignIn(interaction.uid, { email, errors: ['Enter your email and password.'] }), 400);
      const result = await accounts.signIn(email, password, needsSecondStep);
      if (!result.ok) {
        // The same answer for an unknown address, a wrong password and a locked account.
        return send(reply, await renderSignIn(interaction.uid, { email, errors: [WRONG_PASSWORD] }), 401);
      }
      if (!result.secondStep) return finishLogin(req, reply, result.account.id);
      await twoStep.awaitSecondStep(interaction.uid, result.account.id);
      return reply.redirect(twoStepUrl(interaction.uid), 303);
    });

    /**
     * The second step's page: the code of the account's app (or one of its passkeys instead), or, where every sign-in takes
     * two steps and the account has no app, one of its passkeys, or (asked for with `app`, or having none) setting up an
     * app (the same secret until it is confirmed).
     */
    const renderTwoStep = async (uid: string, accountId: string, errors?: string[], setUpApp = false) => {
      const base = { action: twoStepUrl(uid), cancelUrl: signInUrl(uid), ...(errors ? { errors } : {}) };
      const asksForCode = !options.requireTwoStep || (await twoStep.required(accountId));
      // Read (and a challenge kept) only where the page offers passkeys: not while an app is being set up.
      const passkey = asksForCode || !setUpApp ? await passkeyPrompt(uid, accountId) : undefined;
      if (asksForCode) return twoStepPage({ ...base, passkey });
      if (passkey) return twoStepPage({ ...base, passkey, setUpUrl: `${twoStepUrl(uid)}?app=1` });
      const label = (await accounts.findById(accountId))?.email ?? '';
      const setUp = (await twoStep.pendingTotp(accountId, label)) ?? (await twoStep.beginTotp(accountId, label))!;
      return twoStepSetUpPage({ ...base, action: `${twoStepUrl(uid)}?app=1`, secret: setUp.secret, qrSvg: setUp.qrSvg });
    };

    pages.get<{ Params: { uid: string }; Querystring: { app?: string } }>(`${mount}/interaction/:uid/two-step`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      const accountId = await twoStep.awaited(interaction.uid);
      if (!accountId) return showSignIn(reply, interaction);
      return send(reply, await renderTwoStep(interaction.uid, accountId, undefined, req.query.app === '1'));
    });

    // The recovery codes of an app set up while signing in were shown: the sign-in goes on.
    pages.post<{ Params: { uid: string } }>(`${mount}/interaction/:uid/two-step/continue`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      const accountId = await twoStep.takePassed(interaction.uid);
      if (!accountId) return showSignIn(reply, interaction);
      return finishLogin(req, reply, accountId, ['pwd', 'otp']);
    });

    /**
     * The sign-in whose second step is posted: its interaction, and the account whose password was right for it. A browser
     * that gave no password for it is sent back to the password; second steps count against the same per-address limit
     * as passwords. Undefined once that answer was sent.
     */
    async function awaitingSecondStep(req: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply, setUpApp = false) {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return void (await expired(reply));
      const accountId = await twoStep.awaited(interaction.uid);
      if (!accountId) return void (await showSignIn(reply, interaction));
      const wait = limiter.hit(options.rateKey(req.ip));
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        const tooMany = `Too many sign-in attempts from your network. Wait ${wait} seconds and try again.`;
        return void (await send(reply, await renderTwoStep(interaction.uid, accountId, [tooMany], setUpApp), 429));
      }
      return { interaction, accountId };
    }

    pages.post<{ Params: { uid: string }; Querystring: { app?: string }; Body: Form }>(`${mount}/interaction/:uid/two-step`, async (req, reply) => {
      const setUpApp = req.query.app === '1';
      const step = await awaitingSecondStep(req, reply, setUpApp);
      if (!step) return reply;
      const { interaction, accountId } = step;
      // A wrong code counts towards the account's lock.
      const code = (req.body?.code ?? '').trim();
      if (!(await twoStep.required(accountId))) {
        // The app was removed since the password was given, where nothing requires one: the password alone signs in.
        if (!options.requireTwoStep) {
          await twoStep.endSecondStep(interaction.uid);
          return finishLogin(req, reply, accountId);
        }
        // Setting up an app as the installation requires: a code it shows turns it on, and its recovery codes are shown once.
        const codes = await twoStep.confirmTotp(accountId, code);
        if (!codes)
          return send(
            reply,
            await renderTwoStep(interaction.uid, accountId, ['That code is not right. Enter the 6-digit code your app shows now.'], setUpApp),
            400,
          );
        await twoStep.passSecondStep(interaction.uid);
        return send(reply, recoveryCodesPage({ action: `${twoStepUrl(interaction.uid)}/continue`, codes }));
      }
      if (!code)
        return send(reply, await renderTwoStep(interaction.uid, accountId, ['Enter the code from your authenticator app, or a recovery code.'], setUpApp), 400);
      if (await accounts.isLocked(accountId)) {
        await twoStep.endSecondStep(interaction.uid);
        return send(reply, await renderSignIn(interaction.uid, { errors: [WRONG_PASSWORD] }), 401);
      }
      const used = await twoStep.verify(accountId, code);
      if (!used) {
        await accounts.recordFailure(accountId);
        return send(reply, await renderTwoStep(interaction.uid, accountId, [WRONG_CODE], setUpApp), 401);
      }
      await accounts.clearFailures(accountId);
      await twoStep.endSecondStep(interaction.uid);
      return finishLogin(req, reply, accountId, ['pwd', 'otp']);
    });

    /** The browser's answer to a passkey challenge, as its form posts it (JSON); undefined when it is not one. */
    const passkeyAnswer = (body: Form | undefined) => {
      try {
        const answer: unknown = JSON.parse(body?.response ?? '');
        return answer && typeof answer === 'object' && typeof (answer as { id?: unknown }).id === 'string'
          ? (answer as Parameters<PasskeyStore['signIn']>[1])
          : undefined;
      } catch {
        return undefined;
      }
    };
    /** A passkey's sign-in in the ID token: the kind of key, and `mfa` when it stood alone (the device checked its owner: a second factor). */
    const passkeyAmr = (method: PasskeyMethod, afterPassword: boolean) => (afterPassword ? ['pwd', method] : [method, 'mfa']);

    // A passkey alone signs in: no address, no password. It proves more than a password, so it also clears a lock that wrong
    // passwords set.
    pages.post<{ Params: { uid: string }; Body: Form }>(`${mount}/interaction/:uid/passkey`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      const wait = limiter.hit(options.rateKey(req.ip));
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(
          reply,
          await renderSignIn(interaction.uid, { errors: [`Too many sign-in attempts from your network. Wait ${wait} seconds and try again.`] }),
          429,
        );
      }
      const answer = passkeyAnswer(req.body);
      const passed = answer && (await passkeys.signIn(interaction.uid, answer));
      if (!passed || !(await accounts.findById(passed.accountId))) return send(reply, await renderSignIn(interaction.uid, { errors: [PASSKEY_REFUSED] }), 401);
      await accounts.clearFailures(passed.accountId);
      await twoStep.endSecondStep(interaction.uid);
      return finishLogin(req, reply, passed.accountId, passkeyAmr(passed.method, false));
    });

    // The second step by one of the account's passkeys, in place of the app's code.
    pages.post<{ Params: { uid: string }; Body: Form }>(`${mount}/interaction/:uid/two-step/passkey`, async (req, reply) => {
      const step = await awaitingSecondStep(req, reply);
      if (!step) return reply;
      const { interaction, accountId } = step;
      const answer = passkeyAnswer(req.body);
      const passed = answer && (await passkeys.signIn(interaction.uid, answer, accountId));
      if (!passed) return send(reply, await renderTwoStep(interaction.uid, accountId, [PASSKEY_REFUSED]), 401);
      await accounts.clearFailures(accountId);
      await twoStep.endSecondStep(interaction.uid);
      return finishLogin(req, reply, accountId, passkeyAmr(passed.method, true));
    });

    // With no mail server, a person on this machine is shown where the mail waits.
    const outboxFor = (req: FastifyRequest) => (outboxShown && isLoopbackAddress(req.socket.remoteAddress) ? `${mount}/dev/outbox` : undefined);
    const renderCheckEmail = (req: FastifyRequest, uid: string, email: string, extra: { notice?: string; errors?: string[] } = {}) =>
      checkEmailPage({ email, resendAction: `${mount}/interaction/${uid}/resend`, signInUrl: signInUrl(uid), outboxUrl: outboxFor(req), ...extra });

    async function sendVerification(account: Account, interactionUid: string) {
      const token = await accounts.createVerification(account.id, interactionUid);
      await mailer.send({
        to: account.email,
        subject: 'Confirm your email address for Cabinet',
        text:
          `Hello ${account.name},\n\nTo confirm that this address is yours and finish creating your Cabinet account, open this link within a day:\n\n` +
          `${options.issuer}/interaction/${interactionUid}/verify/${token}\n\nIf you did not create an account, ignore this message.\n`,
      });
    }

    async function sendAlreadyRegistered(email: string) {
      const account = await accounts.findByEmail(email);
      if (!account) return;
      await mailer.send({
        to: account.email,
        subject: 'You already have a Cabinet account',
        text:
          `Hello ${account.name},\n\nSomeone asked to create a Cabinet account with this address, which already has one. ` +
          `If it was you, sign in with your password, or choose a new one here:\n\n${options.issuer}/forgot\n\n` +
          `If it was not you, ignore this message: nothing has changed.\n`,
      });
    }

    pages.get<{ Params: { uid: string } }>(`${mount}/interaction/:uid/signup`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      return showSignUp(reply, interaction);
    });

    pages.post<{ Params: { uid: string }; Body: Form }>(`${mount}/interaction/:uid/signup`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      const name = (req.body?.name ?? '').trim();
      const email = (req.body?.email ?? '').trim();
      const password = req.body?.password ?? '';
      const fields: { name?: { value: string; error?: string }; email?: { value: string; error?: string }; password?: { error?: string } } = {
        name: { value: name },
        email: { value: email },
        password: {},
      };
      if (!name) fields.name!.error = 'Enter your name';
      else if (name.length > 200) fields.name!.error = 'Name must be at most 200 characters';
      if (!EMAIL.test(email) || email.length > 254) fields.email!.error = 'Enter a valid email address';
      const problems = policy.check(password, { email, name });
      if (problems.length) fields.password!.error = problems.join('. ');
      const errors = [fields.name?.error, fields.email?.error, ...problems].filter((e): e is string => !!e);
      if (errors.length) return send(reply, renderSignUp(interaction.uid, { fields, errors }), 400);
      const wait = limiter.hit(`signup:${options.rateKey(req.ip)}`);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(
          reply,
          renderSignUp(interaction.uid, { fields, errors: [`Too many sign-ups from your network. Wait ${wait} seconds and try again.`] }),
          429,
        );
      }
      const account = await accounts.create({ name, email, password });
      if (account) await sendVerification(account, interaction.uid);
      else await sendAlreadyRegistered(email);
      // A taken address answers as a new one does: the page does not tell who has an account.
      return send(reply, renderCheckEmail(req, interaction.uid, email));
    });

    pages.post<{ Params: { uid: string }; Body: Form }>(`${mount}/interaction/:uid/resend`, async (req, reply) => {
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== req.params.uid) return expired(reply);
      const email = (req.body?.email ?? '').trim();
      if (!EMAIL.test(email)) return send(reply, renderSignUp(interaction.uid), 400);
      const wait = limiter.hit(`signup:${options.rateKey(req.ip)}`);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(
          reply,
          renderCheckEmail(req, interaction.uid, email, { errors: [`Too many requests from your network. Wait ${wait} seconds and try again.`] }),
          429,
        );
      }
      const account = await accounts.findByEmail(email);
      if (account && !account.email_verified) await sendVerification(account, interaction.uid);
      else if (account) await sendAlreadyRegistered(email);
      return send(reply, renderCheckEmail(req, interaction.uid, email, { notice: `We sent the link to ${email} again.` }));
    });

    // The link lives under its interaction's path, where the browser that signed up sends the interaction cookie.
    const verifyPath = `${mount}/interaction/:uid/verify/:token`;
    type VerifyParams = { uid: string; token: string };
    const renderConfirm = (params: VerifyParams, email: string, errors?: string[]) =>
      confirmEmailPage({ action: `${mount}/interaction/${encodeURIComponent(params.uid)}/verify/${encodeURIComponent(params.token)}`, email, errors });
    const verifyExpired = (reply: FastifyReply) =>
      send(
        reply,
        messagePage(
          'This link has expired',
          'Links to confirm an address work once, for one day. ' +
            'To confirm the address now, choose a new password with “Forgot password?” on the sign-in page: that link goes to the same address.',
          { href: options.homeUrl, label: 'Back to Cabinet' },
        ),
        410,
      );
    const confirmed = (reply: FastifyReply) =>
      send(reply, messagePage('Email confirmed', 'Your email address is confirmed.', { href: options.homeUrl, label: 'Continue to Cabinet' }));

    // Followed in the browser that signed up, the link confirms the address and finishes signing in.
    // Anywhere else it asks for the password first: whoever chose the password must also own the address.
    pages.get<{ Params: VerifyParams }>(verifyPath, async (req, reply) => {
      const found = await accounts.findVerification(req.params.token);
      if (!found || found.interactionUid !== req.params.uid) return verifyExpired(reply);
      const interaction = await details(req, reply);
      if (!interaction || interaction.uid !== found.interactionUid || interaction.prompt.name !== 'login') {
        return send(reply, renderConfirm(req.params, found.account.email));
      }
      if (!(await accounts.completeVerification(req.params.token))) return verifyExpired(reply);
      // The link proves the address, not the second step: an account that has one still asks for it.
      if (await needsSecondStep(found.account.id)) {
        await twoStep.awaitSecondStep(interaction.uid, found.account.id);
        return reply.redirect(`${mount}/interaction/${interaction.uid}/two-step`, 303);
      }
      return finishLogin(req, reply, found.account.id);
    });

    pages.post<{ Params: VerifyParams; Body: Form }>(verifyPath, async (req, reply) => {
      const found = await accounts.findVerification(req.params.token);
      if (!found || found.interactionUid !== req.params.uid) return verifyExpired(reply);
      const wait = limiter.hit(options.rateKey(req.ip));
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return send(reply, renderConfirm(req.params, found.account.email, [`Too many attempts from your network. Wait ${wait} seconds and try again.`]), 429);
      }
      const result = await accounts.signIn(found.account.email, req.body?.password ?? '');
      if (!result.ok) return send(reply, renderConfirm(req.params, found.account.email, [WRONG_PASSWORD]), 401);
      if (!(await accounts.completeVerification(req.params.token))) return verifyExpired(reply);
      return confirmed(reply);
    });

    pages.get<{ Querystring: { uid?: string } }>(`${mount}/forgot`, async (req, reply) =>
      send(reply, forgotPage({ action: forgotUrl(req.query.uid), backUrl: req.query.uid ? signInUrl(req.query.uid) : undefined })),
    );

    pages.post<{ Querystring: { uid?: string }; Body: Form }>(`${mount}/forgot`, async (req, reply) => {
      const email = (req.body?.email ?? '').trim();
      const backUrl = req.query.uid ? signInUrl(req.query.uid) : undefined;
      if (!EMAIL.test(email))
        return send(reply, forgotPage({ action: forgotUrl(req.query.uid), backUrl, email, errors: ['Enter a valid email address'] }), 400);
      const wait = limiter.hit(`forgot:${options.rateKey(req.ip)}`);
      if (wait > 0)
        return send(
          reply,
          forgotPage({ action: forgotUrl(req.query.uid), backUrl, email, errors: [`Too many requests. Wait ${wait} seconds and try again.`] }),
          429,
        );
      const account = await accounts.findByEmail(email);
      if (account) {
        const token = await accounts.createReset(account.id);
        await mailer.send({
          to: account.email,
          subject: 'Reset your Cabinet password',
          text:
            `Hello ${account.name},\n\nSomeone asked to reset the password of your Cabinet account. ` +
            `To choose a new password, open this link within one hour:\n\n` +
            `${options.issuer}/reset/${token}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
        });
      }
      return send(reply, forgotPage({ action: forgotUrl(req.query.uid), backUrl, email, sent: true, outboxUrl: outboxFor(req) }));
    });

    const renderReset = (token: string, extra: { password?: { error?: string }; errors?: string[] } = {}) =>
      resetPage({ action: `${mount}/reset/${encodeURIComponent(token)}`, passwordHint: policy.describe(), ...extra });
    const resetExpired = (reply: FastifyReply) =>
      send(
        reply,
        messagePage('This reset link has expired', 'Reset links work once, for one hour. Ask for a new one from the sign-in page.', {
          href: options.homeUrl,
          label: 'Back to Cabinet',
        }),
        410,
      );

    pages.get<{ Params: { token: string } }>(`${mount}/reset/:token`, async (req, reply) => {
      if (!(await accounts.findReset(req.params.token))) return resetExpired(reply);
      return send(reply, renderReset(req.params.token));
    });

    pages.post<{ Params: { token: string }; Body: Form }>(`${mount}/reset/:token`, async (req, reply) => {
      const account = await accounts.findReset(req.params.token);
      if (!account) return resetExpired(reply);
      const password = req.body?.password ?? '';
      const problems = policy.check(password, { email: account.email, name: account.name });
      if (problems.length) return send(reply, renderReset(req.params.token, { password: { error: problems.join('. ') }, errors: problems }), 400);
      const accountId = await accounts.completeReset(req.params.token, password);
      if (!accountId) return resetExpired(reply);
      await options.onPasswordReset?.(accountId);
      return send(
        reply,
        messagePage('Password changed', 'Your new password is set. Sign in to Cabinet with it.', { href: options.homeUrl, label: 'Back to Cabinet' }),
      );
    });

    if (outboxShown) {
      pages.get(`${mount}/dev/outbox`, async (req, reply) => {
        if (!isLoopbackAddress(req.socket.remoteAddress)) return reply.callNotFound();
        return send(reply, outboxPage(readOutbox(options.mail.outboxDir)));
      });
    }
  });
}
