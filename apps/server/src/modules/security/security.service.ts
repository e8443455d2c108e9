import { AccountStore, PASSKEY_LIMIT, PasskeyStore, passwordChecker, relyingPartyOf, TwoStepStore, type Passkey, type TotpSetUp } from '@cabinet/idp';
import type { TAddPasskeyRequest, TTwoStep } from '@cabinet/contracts';
import { embeddedIssuer, passwordPolicy, twoStepKey, type AppContext } from '../../context.ts';
import { AppError, invalidInput } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { endOtherSessions } from '../sessions/index.ts';
import { findActiveUserById } from '../users/index.ts';

/** An account of the embedded provider: its id there (the user's subject), and whom to tell of changes. */
type Account = { id: string; email: string; name: string };

/**
 * The password and two-step sign-in of the caller's account with the embedded provider (Account → Security). The provider's
 * tables are in this database: its store is used directly, as the provider's own pages use it (ADR 0069).
 */
export class SecurityService {
  private readonly store: TwoStepStore;
  private readonly accounts: AccountStore;
  private readonly passkeys: PasskeyStore;

  constructor(private readonly ctx: AppContext) {
    this.store = new TwoStepStore(ctx.database.sql, twoStepKey(ctx.env));
    this.passkeys = new PasskeyStore(ctx.database.sql, relyingPartyOf(ctx.env.PUBLIC_URL));
    this.accounts = new AccountStore(ctx.database.sql, { failures: ctx.env.IDP_LOCKOUT_FAILURES, minutes: ctx.env.IDP_LOCKOUT_MINUTES });
  }

  /** The embedded provider's account behind the caller, or undefined when they sign in elsewhere. */
  private async accountOf(actor: Actor): Promise<Account | undefined> {
    if (!this.ctx.env.embeddedIdp) return undefined;
    const user = await findActiveUserById(this.ctx.db, actor.user.id);
    if (!user || user.issuer !== embeddedIssuer(this.ctx.env)) return undefined;
    return { id: user.subject, email: user.email, name: user.name };
  }

  /** Changes come from a signed-in browser only: a script's token does not change how its owner signs in. */
  private async requireAccount(actor: Actor, what: 'Two-step sign-in' | 'Your password' | 'Passkeys' = 'Two-step sign-in'): Promise<Account> {
    if (actor.via !== 'session') throw new AppError('forbidden', `${what} is changed from a signed-in browser, not with a token.`);
    const account = await this.accountOf(actor);
    if (!account) throw new AppError('forbidden', `${what} is set with your identity provider, not in Cabinet.`);
    return account;
  }

  async get(actor: Actor): Promise<TTwoStep> {
    const account = await this.accountOf(actor);
    const required = this.ctx.env.REQUIRE_TWO_STEP;
    if (!account) return { available: false, totp: false, recoveryCodesLeft: 0, required };
    return { available: true, ...(await this.store.status(account.id)), required };
  }

  async beginTotp(actor: Actor): Promise<TotpSetUp> {
    const account = await this.requireAccount(actor);
    const setUp = await this.store.beginTotp(account.id, account.email);
    if (!setUp) throw new AppError('forbidden', 'An authenticator app is already set up. Turn two-step sign-in off first to set up another.');
    return setUp;
  }

  async confirmTotp(actor: Actor, code: string): Promise<{ recoveryCodes: string[] }> {
    const account = await this.requireAccount(actor);
    const recoveryCodes = await this.store.confirmTotp(account.id, code);
    if (!recoveryCodes) throw invalidInput([{ path: 'code', message: 'That code is not right. Enter the code your app shows now.' }]);
    await tell(
      this.ctx,
      account,
      'Two-step sign-in is on for your Cabinet account',
      'An authenticator app was set up for your Cabinet account: signing in now asks for its code after your password.',
    );
    return { recoveryCodes };
  }

  async regenerateRecoveryCodes(actor: Actor): Promise<{ recoveryCodes: string[] }> {
    const account = await this.requireAccount(actor);
    const recoveryCodes = await this.store.regenerateRecoveryCodes(account.id);
    if (!recoveryCodes) throw new AppError('forbidden', 'Set up an authenticator app first.');
    await tell(
      this.ctx,
      account,
      'New recovery codes for your Cabinet account',
      'New recovery codes were made for your Cabinet account; the old ones no longer work.',
    );
    return { recoveryCodes };
  }

  /**
   * A new password, the current one checked first (a wrong one counts towards the account's lock, as at sign-in) and the
   * new one against the provider's policy. Every other session ends, with Cabinet and with the provider; the address is
   * told, so a change its owner did not make does not go unnoticed.
   */
  /**
   * The account's current password, asked before a change that would let someone with the session alone keep a way in:
   * checked as at sign-in (a wrong one counts towards the lock); `invalid_input` on `currentPassword` when wrong.
   */
  private async checkPassword(account: Account, password: string): Promise<void> {
    const current = await this.accounts.signIn(account.email, password);
    if (!current.ok || current.account.id !== account.id) {
      throw invalidInput([
        { path: 'currentPassword', message: 'That is not your current password. After several wrong attempts your account is locked for a while.' },
      ]);
    }
  }

  async changePassword(actor: Actor, change: { currentPassword: string; newPassword: string }): Promise<void> {
    const account = await this.requireAccount(actor, 'Your password');
    const row = await this.accounts.findById(account.id);
    if (!row) throw new AppError('forbidden', 'Your password is set with your identity provider, not in Cabinet.');
    const problems = passwordChecker(passwordPolicy(this.ctx.env)).check(change.newPassword, { email: row.email, name: row.name });
    await this.checkPassword(row, change.currentPassword);
    if (problems.length) throw invalidInput([{ path: 'newPassword', message: problems.join('. ') }]);
    await this.accounts.changePassword(row.id, change.newPassword);
    await endOtherSessions(this.ctx.db, actor.user.id, actor.sessionId, actor);
    await tell(this.ctx, row, 'Your Cabinet password was changed', 'The password of your Cabinet account was changed, and every other session was signed out.');
  }

  async remove(actor: Actor): Promise<void> {
    const account = await this.requireAccount(actor);
    if (await this.store.remove(account.id))
      await tell(
        this.ctx,
        account,
        'Two-step sign-in is off for your Cabinet account',
        'Two-step sign-in was turned off for your Cabinet account: your password alone signs you in.',
      );
  }

  async listPasskeys(actor: Actor): Promise<{ passkeys: Passkey[] }> {
    const account = await this.accountOf(actor);
    if (!account) throw new AppError('forbidden', 'Passkeys are set with your identity provider, not in Cabinet.');
    return { passkeys: await this.passkeys.list(account.id) };
  }

  /**
   * A passkey signs in alone, past two-step sign-in, and outlives a password reset: whoever asks to add one gives the
   * password first, so a session taken from its owner cannot leave a way in behind.
   */
  async passkeyOptions(actor: Actor, currentPassword: string): Promise<{ options: Record<string, unknown> }> {
    const account = await this.requireAccount(actor, 'Passkeys');
    if ((await this.passkeys.count(account.id)) >= PASSKEY_LIMIT) throw tooManyPasskeys();
    await this.checkPassword(account, currentPassword);
    const options = await this.passkeys.registrationOptions(account);
    return { options: { ...options } };
  }

  async addPasskey(actor: Actor, request: TAddPasskeyRequest): Promise<Passkey> {
    const account = await this.requireAccount(actor, 'Passkeys');
    if ((await this.passkeys.count(account.id)) >= PASSKEY_LIMIT) throw tooManyPasskeys();
    const added = await this.passkeys.register(account.id, request.response as unknown as Parameters<PasskeyStore['register']>[1], request.name);
    if (!added) throw invalidInput([{ path: 'response', message: 'The passkey could not be checked, or the request took too long. Try adding it again.' }]);
    await tell(
      this.ctx,
      account,
      'A passkey was added to your Cabinet account',
      `A passkey named “${added.name}” was added to your Cabinet account: it signs in without your password.`,
      'If it was not you, remove it under Account → Security, reset your password from the sign-in page ("Forgot password?") and tell your administrator.',
    );
    return added;
  }

  async renamePasskey(actor: Actor, id: string, name: string): Promise<Passkey> {
    const account = await this.requireAccount(actor, 'Passkeys');
    const renamed = await this.passkeys.rename(account.id, id, name);
    if (!renamed) throw new AppError('not_found', 'No such passkey.');
    return renamed;
  }

  async removePasskey(actor: Actor, id: string): Promise<void> {
    const account = await this.requireAccount(actor, 'Passkeys');
    const removed = await this.passkeys.remove(account.id, id);
    if (!removed) throw new AppError('not_found', 'No such passkey.');
    await tell(
      this.ctx,
      account,
      'A passkey was removed from your Cabinet account',
      `The passkey named “${removed.name}” was removed from your Cabinet account.`,
    );
  }
}

/**
 * Turns off an account's two-step sign-in at the embedded provider for someone who lost their factors (an instance
 * administrator's reset, from /admin or `cabinet user reset-two-step`): the authenticator app, its recovery codes and the
 * passkeys. Whether there was an app or codes, and how many passkeys went.
 */
export async function resetTwoStep(ctx: Pick<AppContext, 'database' | 'env' | 'mailer'>, account: Account): Promise<{ removed: boolean; passkeys: number }> {
  const removed = await new TwoStepStore(ctx.database.sql, twoStepKey(ctx.env)).remove(account.id);
  const passkeys = await new PasskeyStore(ctx.database.sql, relyingPartyOf(ctx.env.PUBLIC_URL)).removeAll(account.id);
  if (removed || passkeys) {
    await tell(
      ctx,
      account,
      'Your Cabinet two-step sign-in was reset',
      'An administrator reset the two-step sign-in of your Cabinet account: your authenticator app, recovery codes and passkeys no longer work. ' +
        (ctx.env.REQUIRE_TWO_STEP
          ? 'Sign in with your password and set up an authenticator app as you do.'
          : 'Your password alone signs you in; set two-step sign-in up again under Account → Security.'),
    );
  }
  return { removed, passkeys };
}

/**
 * Tells the address of an account that a way into it changed, so that a change its owner did not make does not go
 * unnoticed. The change stands whether or not the notice can go now: a mail server away answers no error here.
 */
async function tell(
  ctx: Pick<AppContext, 'mailer'>,
  to: { email: string; name: string },
  subject: string,
  what: string,
  ifNotYou = 'If it was not you, reset your password now from the sign-in page ("Forgot password?") and tell your administrator.',
): Promise<void> {
  await ctx.mailer.send({ to: to.email, subject, text: `Hello ${to.name},\n\n${what} ${ifNotYou}\n` }).catch(() => undefined);
}

const tooManyPasskeys = () => new AppError('forbidden', `An account has at most ${PASSKEY_LIMIT} passkeys. Remove one you no longer use to add another.`);
