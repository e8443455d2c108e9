import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** The key of workspaces.settings that holds where reading texts again in a new language has got to (absent: nothing to do). */
export const RELANGUAGE_KEY = 'searchRelanguageAfter';
/** Before every item id: where reading again starts. */
export const RELANGUAGE_START = '00000000-0000-0000-0000-000000000000';

export async function findSearchSettings(db: Q, workspaceId: string): Promise<{ language: string; updating: boolean }> {
  const row = await sql<{ language: string; updating: boolean }>`
    SELECT coalesce(settings->>'searchLanguage', 'english') AS language, settings ? ${RELANGUAGE_KEY} AS updating
    FROM workspaces WHERE id = ${workspaceId}`.execute(db);
  return row.rows[0]!;
}

/**
 * Reads the texts of one workspace again in its language, a batch of entries (in item id order)
 * past where the last batch ended, and moves that mark on (or takes it away after the last). The
 * workspace's row is locked meanwhile, skipped by another process doing the same: each batch is
 * done once. False when no workspace has texts waiting.
 */
export async function relanguageBatch(db: Q, size: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const ws = await sql<{ id: string; language: string; after: string }>`
      SELECT id, coalesce(settings->>'searchLanguage', 'english') AS language, settings->>${RELANGUAGE_KEY} AS after
      FROM workspaces WHERE settings ? ${RELANGUAGE_KEY} LIMIT 1 FOR UPDATE SKIP LOCKED`.execute(tx);
    const w = ws.rows[0];
    if (!w) return false;
    const batch = await sql<{ item_id: string }>`
      SELECT item_id FROM search_entries WHERE workspace_id = ${w.id} AND item_id > ${w.after}::uuid ORDER BY item_id LIMIT ${size}`.execute(tx);
    const ids = batch.rows.map((r) => r.item_id);
    if (ids.length > 0) {
      await sql`
        UPDATE search_entries SET body_tsv = to_tsvector(${w.language}::regconfig, body)
        WHERE item_id = ANY(${ids}::uuid[]) AND body <> ''`.execute(tx);
    }
    const next = ids.length === size ? sql`jsonb_set(settings, ${`{${RELANGUAGE_KEY}}`}::text[], to_jsonb(${ids.at(-1)!}::text))` : sql`settings - ${RELANGUAGE_KEY}`;
    await sql`UPDATE workspaces SET settings = ${next} WHERE id = ${w.id}`.execute(tx);
    return true;
  });
}
