import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, SearchEntriesTable } from '../../db/schema.ts';

type Q = Kysely<Database>;

// ---------------------------------------------------------------- reading

/** Who the caller is to access lists in a workspace: themselves; and, unless a guest, the workspace and their groups in it. */
export async function findPrincipals(db: Q, workspaceId: string, userId: string, guest: boolean): Promise<string[]> {
  if (guest) return [userId];
  const groups = await db.selectFrom('group_members').select('group_id').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
  return [userId, workspaceId, ...groups.map((g) => g.group_id)];
}

/** The language a workspace's text is indexed and searched in (a PostgreSQL text search configuration). */
export async function findSearchLanguage(db: Q, workspaceId: string): Promise<string> {
  const row = await sql<{ lang: string }>`
    SELECT coalesce(settings->>'searchLanguage', 'english') AS lang FROM workspaces WHERE id = ${workspaceId}`.execute(db);
  return row.rows[0]?.lang ?? 'english';
}

export interface SearchFilters {
  kinds?: Array<'folder' | 'file' | 'document'>;
  /** Mime types that start with one of these (`image/`), or are one of them. */
  mimePrefixes?: string[];
  ownerId?: string;
  modifiedAfter?: Date;
  modifiedBefore?: Date;
  parentId?: string;
}

export interface Scope {
  workspaceId: string;
  /** Who the caller is to access lists; null: no access list is looked at (the benchmark's baseline). */
  principals: string[] | null;
  filters: SearchFilters;
}

/** The conditions every search shares: the workspace, what the caller may find, not a root, the filters. */
function scoped(s: Scope): RawBuilder<unknown> {
  const f = s.filters;
  const parts: RawBuilder<unknown>[] = [sql`e.workspace_id = ${s.workspaceId}`, sql`cardinality(e.path) > 0`];
  if (s.principals) parts.push(sql`e.acl && ${s.principals}::uuid[]`);
  if (f.kinds?.length) parts.push(sql`i.kind = ANY(${f.kinds}::text[])`);
  if (f.mimePrefixes?.length) parts.push(sql`(${sql.join(f.mimePrefixes.map((m) => (m.endsWith('/') ? sql`i.mime_type LIKE ${`${m}%`}` : sql`i.mime_type = ${m}`)), sql` OR `)})`);
  if (f.ownerId) parts.push(sql`i.owner_id = ${f.ownerId}`);
  if (f.modifiedAfter) parts.push(sql`i.updated_at >= ${f.modifiedAfter}`);
  if (f.modifiedBefore) parts.push(sql`i.updated_at < ${f.modifiedBefore}`);
  if (f.parentId) parts.push(sql`e.path @> ARRAY[${f.parentId}]::uuid[]`);
  return sql.join(parts, sql` AND `);
}

export interface Page {
  limit: number;
  offset: number;
}

/** Items whose name has every wanted word (as prefixes) and which have none left out, best first. */
export async function findByName(db: Q, s: Scope, q: { wanted: string; excluded: string | null; lang: string }, page: Page): Promise<string[]> {
  const rows = await sql<{ item_id: string }>`
    SELECT e.item_id FROM search_entries e JOIN items i ON i.id = e.item_id
    WHERE ${scoped(s)} AND e.name_tsv @@ to_tsquery('simple', ${q.wanted}) ${excluding(q)}
    ORDER BY ts_rank(e.name_tsv, to_tsquery('simple', ${q.wanted})) DESC, length(e.name), e.item_id
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.item_id);
}

/** Items whose text has every wanted word and whose name does not (those were found by name), best first. */
export async function findByText(db: Q, s: Scope, q: { wanted: string; excluded: string | null; lang: string }, page: Page): Promise<string[]> {
  const rows = await sql<{ item_id: string }>`
    SELECT e.item_id FROM search_entries e JOIN items i ON i.id = e.item_id
    WHERE ${scoped(s)} AND e.body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.wanted})
      AND NOT e.name_tsv @@ to_tsquery('simple', ${q.wanted}) ${excluding(q)}
    ORDER BY ts_rank(e.body_tsv, to_tsquery(${q.lang}::regconfig, ${q.wanted})) DESC, e.item_id
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.item_id);
}

function excluding(q: { excluded: string | null; lang: string }): RawBuilder<unknown> {
  if (!q.excluded) return sql``;
  return sql`AND NOT e.name_tsv @@ to_tsquery('simple', ${q.excluded}) AND NOT e.body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.excluded})`;
}

/** Items whose name has a word close to what was typed (a typo), most alike first: trigram likeness. */
export async function findSimilarNames(db: Q, s: Scope, typed: string, limit: number): Promise<string[]> {
  return db.transaction().execute(async (tx) => {
    // The operator, not the function, is what the trigram index answers; its threshold is a setting.
    await sql`SET LOCAL pg_trgm.word_similarity_threshold = 0.4`.execute(tx);
    const rows = await sql<{ item_id: string }>`
      SELECT e.item_id FROM search_entries e JOIN items i ON i.id = e.item_id
      WHERE ${scoped(s)} AND ${typed} <% lower(e.name)
      ORDER BY word_similarity(${typed}, lower(e.name)) DESC, e.item_id
      LIMIT ${limit}`.execute(tx);
    return rows.rows.map((r) => r.item_id);
  });
}

/** With no words, only filters: what matches them, most recently modified first. */
export async function findFiltered(db: Q, s: Scope, page: Page): Promise<string[]> {
  const rows = await sql<{ item_id: string }>`
    SELECT e.item_id FROM search_entries e JOIN items i ON i.id = e.item_id
    WHERE ${scoped(s)}
    ORDER BY i.updated_at DESC, e.item_id
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.item_id);
}

/**
 * A passage of each item's text around the words, the words between `marks` (only items whose text
 * has them). The passage is looked for in the first 100,000 characters: finding it costs time in
 * proportion to the text read.
 */
export async function findHeadlines(db: Q, ids: string[], q: { wanted: string; lang: string }, options: string): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<{ item_id: string; headline: string }>`
    SELECT item_id, ts_headline(${q.lang}::regconfig, left(body, 100000), to_tsquery(${q.lang}::regconfig, ${q.wanted}), ${options}) AS headline
    FROM search_entries WHERE item_id = ANY(${ids}::uuid[]) AND body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.wanted})`.execute(db);
  return new Map(rows.rows.map((r) => [r.item_id, r.headline]));
}

export async function findEntry(db: Q, itemId: string) {
  return db.selectFrom('search_entries').select(['text_state', 'text_error', 'indexed_at']).where('item_id', '=', itemId).executeTakeFirst();
}

// ---------------------------------------------------------------- the indexer's work

export type TaskKind = 'text' | 'access';

export interface ClaimedTask {
  item_id: string;
  generation: number;
  attempts: number;
}

/** Up to `limit` tasks of a kind nobody holds, oldest first, held for `leaseMs` (another instance takes them back after that). */
export async function claimTasks(db: Q, kind: TaskKind, limit: number, leaseMs: number): Promise<ClaimedTask[]> {
  const rows = await sql<ClaimedTask>`
    UPDATE search_tasks t SET locked_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = t.attempts + 1
    FROM (
      SELECT item_id FROM search_tasks
      WHERE kind = ${kind} AND (locked_until IS NULL OR locked_until < now())
      ORDER BY queued_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
    WHERE t.item_id = due.item_id AND t.kind = ${kind}
    RETURNING t.item_id, t.generation, t.attempts`.execute(db);
  return rows.rows;
}

/** A task done: gone, unless it was queued again meanwhile (then free for the next pass). */
export async function finishTask(db: Q, kind: TaskKind, task: ClaimedTask): Promise<void> {
  const gone = await db.deleteFrom('search_tasks').where('item_id', '=', task.item_id).where('kind', '=', kind).where('generation', '=', task.generation).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) {
    await db.updateTable('search_tasks').set({ locked_until: null, attempts: 0 }).where('item_id', '=', task.item_id).where('kind', '=', kind).execute();
  }
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

export async function queueTasks(db: Q, kind: TaskKind, itemIds: string[]): Promise<void> {
  if (itemIds.length === 0) return;
  await sql`SELECT cabinet_search_queue(id, ${kind}) FROM unnest(${itemIds}::uuid[]) AS id`.execute(db);
}

export async function countTasks(db: Q): Promise<number> {
  const row = await db.selectFrom('search_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
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
  lang: string;
  current_version_id: string | null;
  text_version_id: string | null;
  text_state: SearchEntriesTable['text_state']['__select__'];
  blob_key: string | null;
  size_bytes: number | null;
  mime_type: string | null;
  name: string;
}

/** What reading an item's text needs: its kind, the workspace's language, and a file's current version. */
export async function findTextSource(db: Q, itemId: string): Promise<TextSource | undefined> {
  const rows = await sql<TextSource>`
    SELECT i.kind, i.workspace_id, coalesce(w.settings->>'searchLanguage', 'english') AS lang, i.current_version_id, e.text_version_id, e.text_state,
      v.blob_key, v.size_bytes, v.mime_type, i.name
    FROM items i JOIN workspaces w ON w.id = i.workspace_id JOIN search_entries e ON e.item_id = i.id
    LEFT JOIN file_versions v ON v.id = i.current_version_id
    WHERE i.id = ${itemId}`.execute(db);
  const row = rows.rows[0];
  return row && { ...row, size_bytes: row.size_bytes === null ? null : Number(row.size_bytes) };
}

export async function findDocumentText(db: Q, itemId: string): Promise<string> {
  const row = await db.selectFrom('document_contents').select('text').where('item_id', '=', itemId).executeTakeFirst();
  return row?.text ?? '';
}

/** The text to search an item by, indexed in its workspace's language. */
export async function saveText(db: Q, itemId: string, t: { lang: string; body: string; state: 'ready' | 'truncated'; versionId: string | null }): Promise<void> {
  await sql`
    UPDATE search_entries SET body = ${t.body}, body_tsv = to_tsvector(${t.lang}::regconfig, ${t.body}),
      text_state = ${t.state}, text_error = NULL, text_version_id = ${t.versionId}, indexed_at = now()
    WHERE item_id = ${itemId}`.execute(db);
}

/** No text to search by: a type not read, or reading failed (why, for the details panel). */
export async function saveNoText(db: Q, itemId: string, t: { state: 'unsupported' | 'failed'; error: string | null; versionId: string | null }): Promise<void> {
  await sql`
    UPDATE search_entries SET body = '', body_tsv = ''::tsvector, text_state = ${t.state}, text_error = ${t.error}, text_version_id = ${t.versionId}, indexed_at = now()
    WHERE item_id = ${itemId}`.execute(db);
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
 * The access lists of the children of `parents`, from their parents' (worked out first) and their
 * own grants. Answers the children that may hold items themselves, the next level down.
 */
export async function propagateAccess(db: Q, parents: string[]): Promise<string[]> {
  const rows = await sql<{ item_id: string; kind: string }>`
    UPDATE search_entries e SET
      acl = CASE WHEN i.state = 'trashed' OR p.acl = '{}' THEN '{}'::uuid[] ELSE ARRAY(
        SELECT DISTINCT u FROM unnest(p.acl || ARRAY(
          SELECT g.principal_id FROM item_grants g WHERE g.item_id = i.id AND (g.expires_at IS NULL OR g.expires_at > now()))) AS u ORDER BY u) END,
      path = p.path || p.item_id,
      access_at = now()
    FROM items i JOIN search_entries p ON p.item_id = i.parent_id
    WHERE e.item_id = i.id AND i.parent_id = ANY(${parents}::uuid[])
    RETURNING e.item_id, i.kind`.execute(db);
  return rows.rows.filter((r) => r.kind !== 'file').map((r) => r.item_id);
}
