import { sql, type Kysely } from 'kysely';
import type { Database, SearchEntriesTable } from '../../db/schema.ts';

/*
 * The indexer's side of search (ADR 0036): its queue of tasks (search_tasks), the text it reads, and
 * the entries' texts and access lists it writes. What a search reads is in search.repo.ts.
 */

type Q = Kysely<Database>;

export type TaskKind = 'text' | 'access';

export interface ClaimedTask {
  item_id: string;
  generation: number;
  attempts: number;
}

/** Up to `limit` tasks of a kind nobody holds, oldest first, held for `leaseMs` (another instance takes them back after that). */
export async function claimTasks(db: Q, kind: TaskKind, limit: number, leaseMs: number): Promise<ClaimedTask[]> {
  // Chosen once, in a CTE: a subquery in the UPDATE's FROM may be scanned again per joined row, claiming more.
  const rows = await sql<ClaimedTask>`
    WITH due AS MATERIALIZED (
      SELECT item_id FROM search_tasks
      WHERE kind = ${kind} AND (locked_until IS NULL OR locked_until < now())
      ORDER BY queued_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE search_tasks t SET locked_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = t.attempts + 1
    FROM due
    WHERE t.item_id = due.item_id AND t.kind = ${kind}
    RETURNING t.item_id, t.generation, t.attempts`.execute(db);
  return rows.rows;
}

/** Tasks done, in one statement: each gone, unless it was queued again meanwhile (then free for the next pass, its wait
 * counted from now: what it waits for is the change made while it was read, which the index lag should not date back). */
export async function finishTasks(db: Q, kind: TaskKind, tasks: ClaimedTask[]): Promise<void> {
  if (tasks.length === 0) return;
  await sql`
    WITH done AS (SELECT * FROM unnest(${tasks.map((t) => t.item_id)}::uuid[], ${tasks.map((t) => t.generation)}::int[]) AS d(item_id, generation)),
    gone AS (
      DELETE FROM search_tasks t USING done d
      WHERE t.item_id = d.item_id AND t.kind = ${kind} AND t.generation = d.generation
      RETURNING t.item_id)
    UPDATE search_tasks t SET locked_until = NULL, attempts = 0, queued_at = now() FROM done d
    WHERE t.item_id = d.item_id AND t.kind = ${kind} AND t.item_id NOT IN (SELECT item_id FROM gone)`.execute(db);
}

/** Tasks claimed but not begun, given back as they were: free for the next claim, this one not counted as a try. */
export async function releaseTasks(db: Q, kind: TaskKind, tasks: ClaimedTask[]): Promise<void> {
  if (tasks.length === 0) return;
  await sql`
    UPDATE search_tasks SET locked_until = NULL, attempts = greatest(attempts - 1, 0)
    WHERE item_id = ANY(${tasks.map((t) => t.item_id)}::uuid[]) AND kind = ${kind}`.execute(db);
}

/** A task that failed: tried again after `retryMs`. */
export async function postponeTask(db: Q, kind: TaskKind, itemId: string, retryMs: number): Promise<void> {
  await db
    .updateTable('search_tasks')
    .set({ locked_until: sql`now() + ${`${retryMs} milliseconds`}::interval` })
    .where('item_id', '=', itemId)
    .where('kind', '=', kind)
    .execute();
}

export async function countTasks(db: Q): Promise<number> {
  const row = await db
    .selectFrom('search_tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Seconds the oldest task still queued has waited; 0 when none is (for /metrics). */
export async function indexLagSeconds(db: Q): Promise<number> {
  const row = await sql<{ lag: number | string | null }>`SELECT extract(epoch FROM now() - min(queued_at)) AS lag FROM search_tasks`.execute(db);
  return Math.max(0, Number(row.rows[0]?.lag ?? 0));
}

/** Every file's and document's text read again, and every access list worked out again (from each root down). */
export async function queueEverything(db: Q, workspaceId?: string): Promise<number> {
  const where = workspaceId ? sql`WHERE workspace_id = ${workspaceId}` : sql``;
  // Versions read before are read again: the extractor may read more than it did.
  await sql`UPDATE search_entries SET text_version_id = NULL ${where}`.execute(db);
  const rows = await sql<{ n: number }>`
    WITH queued AS (
      SELECT cabinet_search_queue(id, CASE WHEN parent_id IS NULL THEN 'access' ELSE 'text' END) FROM items ${where}
        ${workspaceId ? sql`AND` : sql`WHERE`} (parent_id IS NULL OR kind <> 'folder'))
    SELECT count(*)::int AS n FROM queued`.execute(db);
  return rows.rows[0]?.n ?? 0;
}

/** Grants that ended lately: the access lists they were in are worked out again. */
export async function queueEndedGrants(db: Q, withinMs: number): Promise<void> {
  await sql`
    SELECT cabinet_search_queue(item_id, 'access') FROM item_grants
    WHERE expires_at <= now() AND expires_at > now() - ${`${withinMs} milliseconds`}::interval`.execute(db);
}

export interface TextSource {
  kind: 'folder' | 'file' | 'document';
  workspace_id: string;
  current_version_id: string | null;
  text_version_id: string | null;
  text_state: SearchEntriesTable['text_state']['__select__'];
  blob_key: string | null;
  size_bytes: number | null;
  mime_type: string | null;
  name: string;
}

/** What reading each item's text needs, by item id: its kind and a file's current version (the language is the workspace's when the text is saved). */
export async function findTextSources(db: Q, itemIds: string[]): Promise<Map<string, TextSource>> {
  const rows = await sql<TextSource & { id: string }>`
    SELECT i.id, i.kind, i.workspace_id, i.current_version_id, e.text_version_id, e.text_state,
      v.blob_key, v.size_bytes, v.mime_type, i.name
    FROM items i JOIN search_entries e ON e.item_id = i.id
    LEFT JOIN file_versions v ON v.id = i.current_version_id
    WHERE i.id = ANY(${itemIds}::uuid[])`.execute(db);
  return new Map(rows.rows.map(({ id, ...row }) => [id, { ...row, size_bytes: row.size_bytes === null ? null : Number(row.size_bytes) }]));
}

export async function findDocumentText(db: Q, itemId: string): Promise<string> {
  const row = await db.selectFrom('document_contents').select('text').where('item_id', '=', itemId).executeTakeFirst();
  return row?.text ?? '';
}

/** The text to search an item by, indexed in its workspace's language. */
export async function saveText(db: Q, itemId: string, t: { body: string; state: 'ready' | 'truncated'; versionId: string | null }): Promise<void> {
  // Stemmed in the workspace's language as it is now: it may have changed while the text was read.
  await sql`
    UPDATE search_entries e SET body = ${t.body}, body_tsv = to_tsvector(coalesce(w.settings->>'searchLanguage', 'english')::regconfig, ${t.body}),
      text_state = ${t.state}, text_error = NULL, text_version_id = ${t.versionId}, indexed_at = now()
    FROM workspaces w WHERE w.id = e.workspace_id AND e.item_id = ${itemId}`.execute(db);
}

export interface NoText {
  itemId: string;
  state: 'unsupported' | 'failed';
  /** Why reading failed, for the details panel. */
  error: string | null;
  versionId: string | null;
}

/** No text to search by, for each of several items in one statement: a type not read, or reading failed. */
export async function saveNoTexts(db: Q, entries: NoText[]): Promise<void> {
  if (entries.length === 0) return;
  await sql`
    UPDATE search_entries e SET body = '', body_tsv = ''::tsvector,
      text_state = d.state, text_error = d.error, text_version_id = d.version_id, indexed_at = now()
    FROM unnest(${entries.map((t) => t.itemId)}::uuid[], ${entries.map((t) => t.state)}::text[], ${entries.map((t) => t.error)}::text[],
      ${entries.map((t) => t.versionId)}::uuid[]) AS d(item_id, state, error, version_id)
    WHERE e.item_id = d.item_id`.execute(db);
}

/**
 * An item's access list and path worked out from where it is: its root's principal (the
 * workspace for the shared root, the member whose "My files" it is), with the principals of every
 * grant on it and above it that has not ended; empty when it or a folder above it is in the trash.
 */
export async function computeAccess(db: Q, itemId: string): Promise<boolean> {
  const result = await sql`
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, state, 0 AS depth FROM items WHERE id = ${itemId}
      UNION ALL
      SELECT i.id, i.parent_id, i.state, c.depth + 1 FROM items i JOIN chain c ON i.id = c.parent_id WHERE c.depth < 64
    ), facts AS (
      SELECT
        coalesce((SELECT array_agg(id ORDER BY depth DESC) FROM chain WHERE depth > 0), '{}') AS path,
        coalesce((SELECT bool_or(state = 'trashed') FROM chain), false) AS trashed,
        (SELECT id FROM chain WHERE parent_id IS NULL) AS root
    )
    UPDATE search_entries e SET
      path = f.path,
      acl = CASE WHEN f.trashed THEN '{}'::uuid[] ELSE ARRAY(
        SELECT DISTINCT p FROM (
          SELECT w.id AS p FROM workspaces w WHERE w.root_item_id = f.root
          UNION ALL SELECT m.user_id FROM memberships m WHERE m.home_item_id = f.root
          UNION ALL SELECT g.principal_id FROM item_grants g JOIN chain c ON c.id = g.item_id WHERE g.expires_at IS NULL OR g.expires_at > now()
        ) principals ORDER BY p) END,
      access_at = now()
    FROM facts f
    WHERE e.item_id = ${itemId}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * The access lists and paths of the children of `parents`, from their parents' (worked out first)
 * and their own grants, set-based: the grants of the level read in one join, and only the entries
 * whose list or path changes written. A rewritten entry goes again into every index, its text's
 * included (a hundred words or more each): those writes are gathered in the GIN indexes' pending
 * lists for the whole statement and merged into them in one pass at its end, rather than merged
 * every 4 MB as they come (the default), which costs twice as much. Answers the children that may
 * hold items themselves, the next level down.
 */
export async function propagateAccess(db: Q, parents: string[]): Promise<string[]> {
  return db.transaction().execute(async (tx) => {
    await sql`SET LOCAL gin_pending_list_limit = '128MB'`.execute(tx);
    await sql`SET LOCAL maintenance_work_mem = '128MB'`.execute(tx);
    // A level is at most some thousands of rows, each found by its key: a misestimate (a table not
    // analyzed since a bulk load) must not turn a lookup into a hash join over a million entries.
    await sql`SET LOCAL enable_hashjoin = off`.execute(tx);
    await sql`SET LOCAL enable_mergejoin = off`.execute(tx);
    const rows = await sql<{ id: string; written: number }>`
      WITH parents AS MATERIALIZED (
        SELECT item_id, acl, path FROM search_entries WHERE item_id = ANY(${parents}::uuid[])
      ), kids AS (
        SELECT i.id, i.kind, i.state, p.acl AS parent_acl, p.path || p.item_id AS path
        FROM parents p CROSS JOIN LATERAL (SELECT c.id, c.kind, c.state FROM items c WHERE c.parent_id = p.item_id) i
      ), granted AS (
        SELECT g.item_id, array_agg(g.principal_id) AS principals
        FROM item_grants g JOIN kids k ON k.id = g.item_id
        WHERE g.expires_at IS NULL OR g.expires_at > now()
        GROUP BY g.item_id
      ), worked AS (
        SELECT k.id, k.kind, k.path,
          CASE WHEN k.state = 'trashed' OR k.parent_acl = '{}' THEN '{}'::uuid[]
            WHEN gr.item_id IS NULL THEN k.parent_acl
            ELSE ARRAY(SELECT DISTINCT u FROM unnest(k.parent_acl || gr.principals) AS u ORDER BY u) END AS acl
        FROM kids k LEFT JOIN granted gr ON gr.item_id = k.id
      ), written AS (
        UPDATE search_entries e SET acl = w.acl, path = w.path, access_at = now()
        FROM worked w
        WHERE e.item_id = w.id AND (e.acl <> w.acl OR e.path <> w.path OR e.access_at IS NULL)
        RETURNING 1
      )
      SELECT id, (SELECT count(*)::int FROM written) AS written FROM worked WHERE kind <> 'file'`.execute(tx);
    if ((rows.rows[0]?.written ?? 0) > 0 || rows.rows.length === 0) await flushPendingEntries(tx);
    return rows.rows.map((r) => r.id);
  });
}

/**
 * The search indexes' pending lists merged into the indexes now (searches read a pending list entry
 * by entry). Only the indexes' owner may: a server running as another role leaves it to the next
 * writer and to autovacuum.
 */
async function flushPendingEntries(db: Q): Promise<void> {
  await sql`
    SELECT gin_clean_pending_list(x.indexrelid) FROM pg_index x
    JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am a ON a.oid = c.relam
    WHERE x.indrelid = 'search_entries'::regclass AND a.amname = 'gin' AND pg_has_role(c.relowner, 'USAGE')`.execute(db);
}
