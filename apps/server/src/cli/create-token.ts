import { ZTokenScope } from '@cabinet/contracts';
import { createApiToken } from '../modules/tokens/index.ts';
import { findUsersByEmail } from '../modules/users/index.ts';
import { CommandFailed, type CommandScope } from './scope.ts';

export async function createTokenCommand({ context, io }: CommandScope, opts: { email: string; name: string; scopes: string; days: number }): Promise<void> {
  const scopes = opts.scopes.split(',').map((s) => s.trim());
  if (!scopes.every((s) => ZTokenScope.safeParse(s).success)) throw new CommandFailed(`--scopes: expected read, write or read,write (got '${opts.scopes}').`);
  if (opts.days > 365) throw new CommandFailed('--days: an API token lives at most 365 days.');
  const ctx = await context();
  const users = (await findUsersByEmail(ctx.db, opts.email)).filter((u) => u.status === 'active');
  if (users.length === 0)
    throw new CommandFailed(`No active user has the email ${opts.email}. They need to sign in once first (or use \`cabinet user create\`).`);
  if (users.length > 1) throw new CommandFailed(`Several users have the email ${opts.email} (from different identity providers); cannot tell which one.`);
  const created = await createApiToken(ctx.db, users[0]!.id, { name: opts.name, scopes: scopes as never, expiresInDays: opts.days });
  io.err(`API token "${created.name}" for ${opts.email}, expires ${created.expiresAt}. It is shown only once:\n`);
  io.out(`${created.token}\n`);
}
