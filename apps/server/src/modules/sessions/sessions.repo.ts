import { uuidv7 } from '@cabinet/contracts';
import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { ActorUser, Database, SessionRow } from '../../db/schema.ts';
import { ACTOR_USER_COLUMNS } from '../users/index.ts';

type Q = Kysely<Database>;

export function insertSession(
  db: Q,
  s: {
    tokenHash: string;
    userId: string;
    userAgent: string | null;
    ip: string | null;
    expiresAt: Date;
    idTokenSealed: string | null;
    refreshTokenSealed: string | null;
    providerSid?: string | null;
  },
): Promise<SessionRow> {
  return db
    .insertInto('sessions')
    .values({
      id: uuidv7(),
      token_hash: s.tokenHash,
      user_id: s.userId,
      user_agent: s.userAgent,
      ip: s.ip,
      expires_at: s.expiresAt,
      id_token_sealed: s.idTokenSealed,
      refresh_token_sealed: s.refreshTokenSealed,
      provider_sid: s.providerSid ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function touchSession(db: Q, id: string, ip: string | null): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: new Date(), ip }).where('id', '=', id).execute();
}

/** Active sessions of a user, newest first. */
export function listActiveSessions(db: Q, userId: string, idleSince: Date): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .where('last_used_at', '>', idleSince)
    .orderBy('last_used_at', 'desc')
    .execute();
}

export async function revokeSession(db: Q, userId: string, id: string): Promise<SessionRow | undefined> {
  return db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function revokeOtherSessions(db: Q, userId: string, keepId: string | null): Promise<number> {
  let q = db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepId) q = q.where('id', '!=', keepId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Ends the live sessions signed in through a provider's session (`sid`) or, with no `sid`, every live session of the
 * person the provider knows as `subject`; with both, only sessions matching both. Only people of that issuer.
 * Answers each ended session's user.
 */
export async function revokeProviderSessions(
  db: Q,
  target: { issuer: string; subject: string | undefined; providerSid: string | undefined },
): Promise<{ id: string; user_id: string }[]> {
  let users = db.selectFrom('users').select('id').where('issuer', '=', target.issuer);
  if (target.subject) users = users.where('subject', '=', target.subject);
  let q = db.updateTable('sessions').set({ revoked_at: new Date() }).where('revoked_at', 'is', null).where('user_id', 'in', users);
  if (target.providerSid) q = q.where('provider_sid', '=', target.providerSid);
  return q.returning(['id', 'user_id']).execute();
}

export function findSessionById(db: Q, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

const sessionWithUser = compiledOnce((db: Q, tokenHash: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(ACTOR_USER_COLUMNS)
    .select(['s.id as s_id', 's.revoked_at as s_revoked_at', 's.expires_at as s_expires_at', 's.last_used_at as s_last_used_at'])
    .where('s.token_hash', '=', tokenHash),
);

/** A session and its user, in one query (every browser request starts here, so it is compiled once). */
export async function findSessionWithUser(
  db: Q,
  tokenHash: string,
): Promise<{ session: Pick<SessionRow, 'id' | 'revoked_at' | 'expires_at' | 'last_used_at'>; user: ActorUser } | undefined> {
  const row = await sessionWithUser(db, tokenHash);
  if (!row) return undefined;
  const { s_id, s_revoked_at, s_expires_at, s_last_used_at, ...user } = row;
  return { session: { id: s_id, revoked_at: s_revoked_at, expires_at: s_expires_at, last_used_at: s_last_used_at }, user };
}
