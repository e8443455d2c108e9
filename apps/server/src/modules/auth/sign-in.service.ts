import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { ProviderIdentity } from '../../infra/oidc/relying-party.ts';
import { countUsers, findUserByIdentity, insertUser, lockUserCreation, updateUser } from '../users/index.ts';
import { endOtherSessions } from '../sessions/index.ts';
import { createWorkspace } from '../workspaces/index.ts';
import { syncIdpGroups } from '../groups/index.ts';

export class SignInRefused extends Error {
  constructor(readonly reason: 'deactivated' | 'no_email') {
    super(reason);
  }
}

/**
 * The user behind a provider identity (issuer + subject), created on first sign-in. The
 * installation's first user becomes instance admin; every new user gets a workspace of their own.
 */
export async function userForIdentity(ctx: AppContext, identity: ProviderIdentity): Promise<UserRow> {
  const user = await findOrCreateUser(ctx, identity);
  // The provider's groups claim, when configured and sent: the person's groups follow it (ADR 0031).
  if (identity.groups) await syncIdpGroups(ctx.db, user.id, identity.groups);
  return user;
}

async function findOrCreateUser(ctx: AppContext, identity: ProviderIdentity): Promise<UserRow> {
  const existing = await findUserByIdentity(ctx.db, identity.issuer, identity.subject);
  if (existing) {
    if (existing.status !== 'active') throw new SignInRefused('deactivated');
    return updateUser(ctx.db, existing.id, {
      ...(identity.email ? { email: identity.email, email_verified: identity.emailVerified } : {}),
      ...(identity.name ? { name: identity.name } : {}),
      ...(identity.picture ? { avatar_url: identity.picture } : {}),
      last_seen_at: new Date(),
    });
  }
  if (!identity.email) throw new SignInRefused('no_email');
  const email = identity.email;
  return inTransaction(ctx.db, async (tx) => {
    await lockUserCreation(tx);
    const again = await findUserByIdentity(tx, identity.issuer, identity.subject);
    if (again) return again;
    const first = (await countUsers(tx)) === 0;
    const name = identity.name ?? email.split('@')[0]!;
    const user = await insertUser(tx, {
      issuer: identity.issuer,
      subject: identity.subject,
      email,
      emailVerified: identity.emailVerified,
      name,
      avatarUrl: identity.picture ?? null,
      isInstanceAdmin: first,
    });
    await createWorkspace(tx, user, { name: `${name.split(/\s+/)[0]}'s workspace` });
    return user;
  });
}

/** Ends every session of the user behind a provider identity (after its password was reset). */
export async function endSessionsOfIdentity(ctx: AppContext, issuer: string, subject: string): Promise<void> {
  const user = await findUserByIdentity(ctx.db, issuer, subject);
  if (user) await endOtherSessions(ctx.db, user.id, null, null);
}
