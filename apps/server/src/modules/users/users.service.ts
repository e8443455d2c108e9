import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { findActiveUserById, findUsersByEmail } from './users.repo.ts';

/**
 * The account something may be shared with: an active one, found by id, or by an address it has
 * confirmed. Anyone may sign up claiming any address, so one that never proved it is no one yet.
 */
export async function findShareableUser(db: Db, who: { id: string } | { email: string }): Promise<UserRow | undefined> {
  if ('id' in who) return findActiveUserById(db, who.id);
  return (await findUsersByEmail(db, who.email)).find((u) => u.status === 'active' && u.email_verified);
}
