import { AccountStore } from '@cabinet/idp';
import { resetTwoStep } from '../modules/security/index.ts';
import { CommandFailed, type CommandScope } from './scope.ts';

/**
 * Turns off a person's two-step sign-in at the embedded provider (their authenticator app, recovery codes and passkeys), for
 * someone who lost every factor, or a device with a passkey: they sign in with their password alone, and can set it up
 * again under Account → Security.
 */
export async function resetTwoStepCommand({ env, context, io }: CommandScope, opts: { email: string }): Promise<void> {
  if (!env.embeddedIdp) {
    throw new CommandFailed(
      '`cabinet user reset-two-step` resets two-step sign-in at the embedded identity provider, but a hosted provider is configured (OIDC_ISSUER).\n' +
        'Reset the person’s second factors at your provider.',
    );
  }
  const ctx = await context();
  const account = await new AccountStore(ctx.database.sql, { failures: env.IDP_LOCKOUT_FAILURES, minutes: env.IDP_LOCKOUT_MINUTES }).findByEmail(opts.email);
  if (!account) throw new CommandFailed(`No account of the embedded identity provider has the email ${opts.email}.`);
  const { removed, passkeys } = await resetTwoStep(ctx, account);
  io.out(
    removed || passkeys
      ? `Two-step sign-in of ${account.email} is off${passkeys ? ` and their passkeys (${passkeys}) are removed` : ''}: ` +
          `they sign in with their password alone, and can set it up again under Account → Security.\n`
      : `${account.email} had no two-step sign-in: nothing changed.\n`,
  );
}
