import { ZCreateApiTokenRequest, ZTokenScope, isAppPassword } from '@cabinet/contracts';
import { createApiToken } from '../modules/tokens/index.ts';
import { findUsersByEmail } from '../modules/users/index.ts';
import { CommandFailed, type CommandScope } from './scope.ts';

/** The command's option for each field of the request. */
const OPTION_OF: Record<string, string> = { name: 'name', scopes: 'scopes', expiresInDays: 'days' };

export async function createTokenCommand({ context, io }: CommandScope, opts: { email: string; name: string; scopes: string; days: number }): Promise<void> {
  const scopes = opts.scopes.split(',').map((s) => s.trim());
  if (!scopes.every((s) => ZTokenScope.safeParse(s).success))
    throw new CommandFailed(`--scopes: expected read, write, read,write or dav (got '${opts.scopes}').`);
  if (opts.days > 365) throw new CommandFailed('--days: an API token lives at most 365 days.');
  const request = ZCreateApiTokenRequest.safeParse({ name: opts.name, scopes, expiresInDays: opts.days });
  if (!request.success) throw new CommandFailed(request.error.issues.map((i) => `--${OPTION_OF[String(i.path[0])] ?? 'name'}: ${i.message}`).join('\n'));
  const ctx = await context();
  const users = (await findUsersByEmail(ctx.db, opts.email)).filter((u) => u.status === 'active');
  if (users.length === 0)
    throw new CommandFailed(`No active user has the email ${opts.email}. They need to sign in once first (or use \`cabinet user create\`).`);
  if (users.length > 1) throw new CommandFailed(`Several users have the email ${opts.email} (from different identity providers); cannot tell which one.`);
  const created = await createApiToken(ctx.db, users[0]!.id, request.data);
  const what = isAppPassword(created.scopes) ? 'App password (for WebDAV clients at /dav/)' : 'API token';
  io.err(`${what} "${created.name}" for ${opts.email}, expires ${created.expiresAt}. It is shown only once:\n`);
  io.out(`${created.token}\n`);
}
