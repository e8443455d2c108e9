import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** The key of workspaces.settings that holds where reading texts again in a new language has got to (absent: nothing to do). */
export const RELANGUAGE_KEY = 'searchRelanguageAfter';
/** Before every item id: where reading again starts. */
export const RELANGUAGE_START = '00000000-0000-0000-0000-000000000000';
/** One process reads texts again at a time (a transaction-scoped advisory lock, not a lock on any row people's requests take). */
const RELANGUAGE_LOCK = 0x5ea2c4;

export async function findSearchSettings(db: Q, workspaceId: string): Promise<{ language: string; updating: boolean } | undefined> {
  const row = await sql<{ language: string; updating: boolean }>`
    SELECT coalesce(settings->>'searchLanguage', 'english') AS language, settings ? ${RELANGUAGE_KEY} AS updating
    FROM workspaces WHERE id = ${workspaceId}`.execute(db);
  return row.rows[0];
}

/** The text search configurations the database has (a server may lack a language another has). */
export async function findTextConfigs(db: Q): Promise<string[]> {
  const rows = await sql<{ name: string }>`SELECT cfgname::text AS name FROM pg_ts_config ORDER BY cfgname`.execute(db);
  return rows.rows.map((r) => r.name);
}

/**
 * Reads the texts of one workspace again in its language: a batch of entries (in item id order,
 * at most `size` of them and about `bytes` of text) past where the last batch ended, then moves
 * that mark on, or takes it away after the last. A text whose words pass PostgreSQL's limit in the
 * new language goes back to the indexer, which shortens it. False when no workspace has texts
 * waiting, or another process is doing this.
 */
export async function relanguageBatch(db: Q, o: { size: number; bytes: number }): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const locked = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${RELANGUAGE_LOCK}) AS ok`.execute(tx);
    if (!locked.rows[0]?.ok) return false;
    const ws = await sql<{ id: string; language: string; after: string }>`
      SELECT id, coalesce(settings->>'searchLanguage', 'english') AS language, settings->>${RELANGUAGE_KEY} AS after
      FROM workspaces WHERE settings ? ${RELANGUAGE_KEY} ORDER BY id LIMIT 1`.execute(tx);
    const w = ws.rows[0];
    if (!w) return false;
    // The first entry always, then as many as fit in the bytes.
    const batch = await sql<{ item_id: string }>`
      SELECT item_id FROM (
        SELECT item_id, sum(octet_length(body)) OVER (ORDER BY item_id) AS upto, row_number() OVER (ORDER BY item_id) AS n
        FROM (SELECT item_id, body FROM search_entries WHERE workspace_id = ${w.id} AND item_id > ${w.after}::uuid ORDER BY item_id LIMIT ${o.size}) s
      ) t WHERE n = 1 OR upto <= ${o.bytes} ORDER BY item_id`.execute(tx);
    const ids = batch.rows.map((r) => r.item_id);
    if (ids.length > 0) {
      await sql`SAVEPOINT relanguage`.execute(tx);
      try {
        await sql`UPDATE search_entries SET body_tsv = to_tsvector(${w.language}::regconfig, body) WHERE item_id = ANY(${ids}::uuid[]) AND body <> ''`.execute(
          tx,
        );
      } catch (error) {
        if ((error as { code?: string }).code !== '54000') throw error;
        await sql`ROLLBACK TO SAVEPOINT relanguage`.execute(tx);
        await sql`UPDATE search_entries SET text_version_id = NULL WHERE item_id = ANY(${ids}::uuid[]) AND body <> ''`.execute(tx);
        await sql`SELECT cabinet_search_queue(item_id, 'text') FROM search_entries WHERE item_id = ANY(${ids}::uuid[]) AND body <> ''`.execute(tx);
      }
    }
    const done = ids.length === 0;
    const next = done ? sql`settings - ${RELANGUAGE_KEY}` : sql`jsonb_set(settings, ${`{${RELANGUAGE_KEY}}`}::text[], to_jsonb(${ids.at(-1)!}::text))`;
    await sql`UPDATE workspaces SET settings = ${next} WHERE id = ${w.id}`.execute(tx);
    return true;
  });
}
