import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

/**
 * Remembers a logout token's `jti` until it is too old to be taken anyway; false when it was already taken (a replay).
 * Tokens past their time are forgotten first, so the table holds only the last few minutes' tokens.
 */
export async function claimLogoutToken(db: Q, jti: string, expiresAt: Date): Promise<boolean> {
  // By this server's clock, as `expiresAt` was reckoned.
  await db.deleteFrom('logout_tokens').where('expires_at', '<', new Date()).execute();
  const inserted = await db
    .insertInto('logout_tokens')
    .values({ jti, expires_at: expiresAt })
    .onConflict((oc) => oc.column('jti').doNothing())
    .returning('jti')
    .executeTakeFirst();
  return inserted !== undefined;
}
