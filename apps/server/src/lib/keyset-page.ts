import { encodeCursor } from '@cabinet/contracts';

/**
 * A listing's page from rows asked for one beyond `limit`: the first `limit` presented, and the cursor of the last one
 * shown when there were more.
 */
export function keysetPage<R, T>(rows: R[], limit: number, present: (row: R) => T, position: (last: R) => unknown): { items: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map(present), nextCursor: rows.length > limit && last !== undefined ? encodeCursor(position(last)) : null };
}
