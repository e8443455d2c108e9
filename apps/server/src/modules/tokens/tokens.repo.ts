import { sql } from 'kysely';
import { uuidv7 } from '@cabinet/contracts';
import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { ActorUser, ApiTokenRow, Database } from '../../db/schema.ts';
import { ACTOR_USER_COLUMNS } from '../users/index.ts';

type Q = Kysely<Database>;

export function insertApiToken(db: Q, t: { userId: string; name: string; tokenHash: string; scopes: string[]; expiresAt: Date }): Promise<ApiTokenRow> {
  return db
    .insertInto('api_tokens')
    .values({ id: uuidv7(), user_id: t.userId, name: t.name, token_hash: t.tokenHash, scopes: t.scopes, expires_at: t.expiresAt })
    .returningAll()
    .executeTakeFirstOrThrow();
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

/** Every live token of a person revoked (their account deactivated): the tokens ended. */
export function revokeAllApiTokens(db: Q, userId: string): Promise<Pick<ApiTokenRow, 'id' | 'name'>[]> {
  return db
    .updateTable('api_tokens')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name'])
    .execute();
}

/**
 * Notes that a token was used; true when its use is to be recorded: the first use, or the first
 * after `recordEveryMs` since it last was (decided by this one statement, so two calls at once
 * cannot both record).
 */
export async function touchApiToken(db: Q, id: string, recordEveryMs: number): Promise<boolean> {
  const row = await db
    .updateTable('api_tokens')
    .set({
      last_used_at: sql`now()`,
      use_recorded_at: sql`CASE WHEN use_recorded_at IS NULL OR use_recorded_at <= now() - make_interval(secs => ${recordEveryMs / 1000})
        THEN now() ELSE use_recorded_at END`,
    })
    .where('id', '=', id)
    .returning(sql<boolean>`use_recorded_at = now()`.as('record'))
    .executeTakeFirst();
  return row?.record === true;
}

const tokenWithUser = compiledOnce((db: Q, tokenHash: string) =>
  db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(ACTOR_USER_COLUMNS)
    .select(['t.id as t_id', 't.scopes as t_scopes', 't.expires_at as t_expires_at', 't.last_used_at as t_last_used_at', 't.revoked_at as t_revoked_at'])
    .where('t.token_hash', '=', tokenHash),
);

/** What a request's token check reads of a token: whether it still holds, what it may do, when it was last noted. */
export type TokenCheck = Pick<ApiTokenRow, 'id' | 'scopes' | 'expires_at' | 'last_used_at' | 'revoked_at'>;

/** A token and the user it acts for, in one query (every scripted request starts here, so it is compiled once). */
export async function findApiTokenWithUser(db: Q, tokenHash: string): Promise<{ token: TokenCheck; user: ActorUser } | undefined> {
  const row = await tokenWithUser(db, tokenHash);
  if (!row) return undefined;
  const { t_id, t_scopes, t_expires_at, t_last_used_at, t_revoked_at, ...user } = row;
  return { token: { id: t_id, scopes: t_scopes, expires_at: t_expires_at, last_used_at: t_last_used_at, revoked_at: t_revoked_at }, user };
}
