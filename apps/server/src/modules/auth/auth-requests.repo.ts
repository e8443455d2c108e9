import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

export async function insertAuthRequest(
  db: Q,
  r: { stateHash: string; nonce: string; codeVerifier: string; returnTo: string; expiresAt: Date },
): Promise<void> {
  await db.deleteFrom('auth_requests').where('expires_at', '<', new Date()).execute();
  await db
    .insertInto('auth_requests')
    .values({ state_hash: r.stateHash, nonce: r.nonce, code_verifier: r.codeVerifier, return_to: r.returnTo, expires_at: r.expiresAt })
    .execute();
}

/** Takes the request out of the table: a state can be used once. */
export function takeAuthRequest(db: Q, stateHash: string) {
  return db.deleteFrom('auth_requests').where('state_hash', '=', stateHash).where('expires_at', '>', new Date()).returningAll().executeTakeFirst();
}
