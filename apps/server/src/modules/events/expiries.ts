import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/**
 * Expiries are announced this long after the database's clock passes them: sessions and tokens are
 * judged by the server's clock, which may be a little behind; a notice heard before the server
 * sees the expiry would find access still there, and the span would not be announced again.
 */
export const CLOCK_SLACK_SECONDS = 2;

/**
 * Announces the access that ended by the clock since the last pass — a grant reaching its expiry
 * (everyone in its item's workspace looks again, as when a grant is withdrawn), a session or an
 * API token reaching its own (its person's sockets look again) — with the `access` notice the
 * triggers of migration 0009 send (ADR 0050). One statement; a second pass at the same moment waits
 * for the progress row and takes the span after the first's (the row never goes back). Answers how
 * many notices went out.
 */
export async function announceExpiredAccess(db: Db): Promise<number> {
  const { rows } = await sql<{ notices: number }>`
    WITH prev AS (
      SELECT announced_until AS since FROM access_expiry_progress FOR UPDATE
    ), span AS (
      UPDATE access_expiry_progress p SET announced_until = greatest(prev.since, now() - ${sql.lit(`${CLOCK_SLACK_SECONDS} seconds`)}::interval)
      FROM prev
      RETURNING prev.since, p.announced_until AS upto
    ), ended AS (
      SELECT DISTINCT i.workspace_id AS w, NULL::uuid AS u
        FROM span, item_grants g JOIN items i ON i.id = g.item_id
       WHERE g.expires_at > span.since AND g.expires_at <= span.upto
      UNION
      SELECT NULL::uuid, s.user_id FROM span, sessions s
       WHERE s.expires_at > span.since AND s.expires_at <= span.upto AND s.revoked_at IS NULL
      UNION
      SELECT NULL::uuid, t.user_id FROM span, api_tokens t
       WHERE t.expires_at > span.since AND t.expires_at <= span.upto AND t.revoked_at IS NULL
    )
    SELECT count(cabinet_access_changed(w, u))::int AS notices FROM ended
  `.execute(db);
  return rows[0]?.notices ?? 0;
}
