import { TwoStepStore, type TotpSetUp } from '@cabinet/idp';
import type { TTwoStep } from '@cabinet/contracts';
import { embeddedIssuer, twoStepKey, type AppContext } from '../../context.ts';
import { AppError, invalidInput } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { findActiveUserById } from '../users/index.ts';

/**
 * Two-step sign-in of the caller's account with the embedded provider (Account → Security). The provider's
 * tables are in this database: its store is used directly, as the provider's own pages use it (ADR 0069).
 */
export class TwoStepService {
  private readonly store: TwoStepStore;

  constructor(private readonly ctx: AppContext) {
    this.store = new TwoStepStore(ctx.database.sql, twoStepKey(ctx.env));
  }

  /** The embedded provider's account behind the caller, or undefined when they sign in elsewhere. */
  private async accountOf(actor: Actor): Promise<{ id: string; email: string } | undefined> {
    if (!this.ctx.env.embeddedIdp) return undefined;
    const user = await findActiveUserById(this.ctx.db, actor.user.id);
    if (!user || user.issuer !== embeddedIssuer(this.ctx.env)) return undefined;
    return { id: user.subject, email: user.email };
  }

  /** Changes come from a signed-in browser only: a script's token does not change how its owner signs in. */
  private async requireAccount(actor: Actor): Promise<{ id: string; email: string }> {
    if (actor.via !== 'session') throw new AppError('forbidden', 'Two-step sign-in is changed from a signed-in browser, not with a token.');
    const account = await this.accountOf(actor);
    if (!account) throw new AppError('forbidden', 'Two-step sign-in is set up with your identity provider, not in Cabinet.');
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
    return { recoveryCodes };
  }

  async regenerateRecoveryCodes(actor: Actor): Promise<{ recoveryCodes: string[] }> {
    const account = await this.requireAccount(actor);
    const recoveryCodes = await this.store.regenerateRecoveryCodes(account.id);
    if (!recoveryCodes) throw new AppError('forbidden', 'Set up an authenticator app first.');
    return { recoveryCodes };
  }

  async remove(actor: Actor): Promise<void> {
    const account = await this.requireAccount(actor);
    await this.store.remove(account.id);
  }
}
