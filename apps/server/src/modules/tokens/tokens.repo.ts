import { uuidv7 } from '@cabinet/contracts';
import type { Kysely } from 'kysely';
import type { ApiTokenRow, Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

export function insertApiToken(
  db: Q,
  t: { userId: string; name: string; tokenHash: string; scopes: string[]; expiresAt: Date },
): Promise<ApiTokenRow> {
  return db
    .insertInto('api_tokens')
    .values({ id: uuidv7(), user_id: t.userId, name: t.name, token_hash: t.tokenHash, scopes: t.scopes, expires_at: t.expiresAt })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findApiTokenByHash(db: Q, tokenHash: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function listLiveApiTokens(db: Q, userId: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .orderBy('created_at', 'desc')
    .execute();
}

export function revokeApiToken(db: Q, userId: string, id: string): Promise<ApiTokenRow | undefined> {
  return db
    .updateTable('api_tokens')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function touchApiToken(db: Q, id: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: new Date() }).where('id', '=', id).execute();
}
