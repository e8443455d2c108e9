import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema.ts';

type Q = Kysely<Database>;

export function findUserByIdentity(db: Q, issuer: string, subject: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
}

export function findActiveUserById(db: Q, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('status', '=', 'active').executeTakeFirst();
}

export function findUsersByEmail(db: Q, email: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .execute();
}

export async function countUsers(db: Q): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertUser(
  db: Q,
  user: { issuer: string; subject: string; email: string; emailVerified: boolean; name: string; avatarUrl: string | null; isInstanceAdmin: boolean },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      id: uuidv7(),
      issuer: user.issuer,
      subject: user.subject,
      email: user.email,
      email_verified: user.emailVerified,
      name: user.name,
      avatar_url: user.avatarUrl,
      is_instance_admin: user.isInstanceAdmin,
      last_seen_at: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateUser(
  db: Q,
  id: string,
  change: Partial<{
    email: string;
    email_verified: boolean;
    name: string;
    avatar_url: string | null;
    last_seen_at: Date;
    status: 'active' | 'deactivated';
    is_instance_admin: boolean;
  }>,
): Promise<UserRow> {
  return db
    .updateTable('users')
    .set({ ...change, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Serialises first sign-ins so exactly one person becomes the installation's first user. */
export async function lockUserCreation(db: Q): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(727401002)`.execute(db);
}

/**
 * The columns of a person that every request reads with its session or token (`ActorUser`): who they are as the API
 * shows them, and whether they may still call. No more: on PGlite, whose driver decodes each column's description in
 * JavaScript on the server's thread, reading the whole row made a third of an authenticated `GET /me`.
 */
export const ACTOR_USER_COLUMNS = ['u.id', 'u.email', 'u.email_verified', 'u.name', 'u.avatar_url', 'u.status', 'u.is_instance_admin', 'u.created_at'] as const;
