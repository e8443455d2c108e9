import { accountAddress } from '@cabinet/idp';
import { embeddedIssuer, type AppContext } from '../../context.ts';
import type { ActorUser } from '../../db/schema.ts';
import { findActiveUserById, updateUser } from '../users/index.ts';

/**
 * The person, with their address taken as confirmed if it has been since they signed in. Cabinet copies the
 * `email_verified` claim at each sign-in (ADR 0015), so an address confirmed later — the mailed link opened in
 * another tab — would otherwise count only after signing out and in again.
 *
 * An account of the embedded provider lives in this database: its row is read directly. That is one query,
 * needs no token, and says what the provider's next ID token would say (its claims are read from that row).
 * A hosted provider is not asked: Cabinet keeps no access token to call its userinfo with, and a refresh token
 * only when the operator's scopes ask for `offline_access`; there the confirmation arrives with the next sign-in.
 */
export async function refreshEmailVerified(ctx: AppContext, user: ActorUser): Promise<ActorUser> {
  if (user.email_verified || !ctx.env.embeddedIdp) return user;
  const row = await findActiveUserById(ctx.db, user.id);
  if (!row || row.issuer !== embeddedIssuer(ctx.env)) return user;
  const account = await accountAddress(ctx.database.sql, row.subject);
  // Only a confirmation of the address Cabinet knows counts.
  if (!account?.verified || account.email.toLowerCase() !== row.email.toLowerCase()) return user;
  await updateUser(ctx.db, user.id, { email_verified: true });
  return { ...user, email_verified: true };
}
