import { AccountStore, passwordChecker } from '@cabinet/idp';
import { ZEmail } from '@cabinet/contracts';
import { embeddedIssuer, passwordPolicy } from '../context.ts';
import { updateUser } from '../modules/users/index.ts';
import { userForIdentity } from '../modules/auth/index.ts';
import { CommandFailed, type CommandScope } from './scope.ts';

export async function createUserCommand(
  { env, context, io }: CommandScope,
  opts: { email: string; name: string; password: string; admin: boolean },
): Promise<void> {
  if (!env.embeddedIdp) {
    throw new CommandFailed(
      '`cabinet user create` makes accounts in the embedded identity provider, but a hosted provider is configured (OIDC_ISSUER).\n' +
        'Create the account at your provider; the Cabinet user appears at its first sign-in.',
    );
  }
  if (!ZEmail.safeParse(opts.email).success) throw new CommandFailed(`--email: '${opts.email}' is not a valid email address.`);
  const problems = passwordChecker(passwordPolicy(env)).check(opts.password, { email: opts.email, name: opts.name });
  if (problems.length) throw new CommandFailed(`--password: ${problems.join('; ')}.`);
  const ctx = await context();
  const accounts = new AccountStore(ctx.database.sql, { failures: env.IDP_LOCKOUT_FAILURES, minutes: env.IDP_LOCKOUT_MINUTES });
  const account = await accounts.create({ email: opts.email, name: opts.name, password: opts.password, emailVerified: true });
  if (!account) throw new CommandFailed(`An account with the email ${opts.email} already exists.`);
  let user = await userForIdentity(ctx, {
    issuer: embeddedIssuer(env),
    subject: account.id,
    email: account.email,
    emailVerified: true,
    name: account.name,
    picture: undefined,
    idToken: undefined,
    refreshToken: undefined,
  });
  if (opts.admin && !user.is_instance_admin) {
    user = await updateUser(ctx.db, user.id, { is_instance_admin: true });
  }
  io.out(`Created ${user.email} (${user.name})${user.is_instance_admin ? ', instance administrator' : ''}. They can sign in at ${env.PUBLIC_URL}.\n`);
}
