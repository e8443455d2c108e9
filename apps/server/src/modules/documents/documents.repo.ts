import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ItemRow } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** A document's stored state (one Yjs update holding it all), if it was ever saved. */
export async function findDocumentState(db: Q, itemId: string): Promise<Uint8Array | undefined> {
  return (await db.selectFrom('document_contents').select('state').where('item_id', '=', itemId).executeTakeFirst())?.state;
}

/** A document's state changed in a way its text does not show (addresses in it). */
export async function replaceDocumentState(db: Q, itemId: string, state: Uint8Array): Promise<void> {
  await db.updateTable('document_contents').set({ state, updated_at: new Date() }).where('item_id', '=', itemId).execute();
}

/** Copied documents start with their sources' state, text and mentions (a source never saved has nothing to copy). */
export async function copyDocumentContents(db: Q, copies: { id: string; sourceId: string }[], by: string): Promise<void> {
  for (let i = 0; i < copies.length; i += 500) {
    const chunk = copies.slice(i, i + 500);
    await sql`
      INSERT INTO document_contents (item_id, state, text, updated_by, mentions)
      SELECT p.copy_id, d.state, d.text, ${by}::uuid, d.mentions
        FROM unnest(${chunk.map((c) => c.id)}::uuid[], ${chunk.map((c) => c.sourceId)}::uuid[]) AS p(copy_id, source_id)
        JOIN document_contents d ON d.item_id = p.source_id
    `.execute(db);
  }
}

/** A document's stored state and its revisions, as a backup holds them (`cabinet restore-item`, ADR 0063). */
export interface BackedUpDocuments {
  contents: Selectable<Database['document_contents']>[];
  /** Oldest first: a revision that restored another comes after it. */
  revisions: Selectable<Database['document_revisions']>[];
}

/** Inserts documents' states and revisions as given (ids included), oldest revision first, in chunks small enough for their states. */
export async function insertDocuments(db: Q, d: BackedUpDocuments): Promise<void> {
  for (let i = 0; i < d.contents.length; i += 50)
    await db
      .insertInto('document_contents')
      .values(d.contents.slice(i, i + 50))
      .execute();
  for (let i = 0; i < d.revisions.length; i += 50)
    await db
      .insertInto('document_revisions')
      .values(d.revisions.slice(i, i + 50))
      .execute();
}

/** A document's stored form: the whole Yjs state as one update, and its plain text. */
export interface DocumentContent {
  state: Uint8Array;
  text: string;
  /** The people it mentions (ids); absent where no one wrote it (an import): kept as stored. */
  mentions?: string[];
}

/**
 * Stores a document's state and text, and the item shows it changed (when, by whom, its size):
 * only when the state differs from what is stored, so a save of what is already there (a server
 * shutting down, a restore saved twice) changes nothing. `changed` says which it was;
 * `mentionedBefore` the people the stored state mentioned (read in the same statement).
 */
export async function saveDocumentState(
  db: Q,
  itemId: string,
  c: { state: Uint8Array; text: string; mentions?: string[] | undefined },
  by: string | null,
): Promise<{ item: ItemRow; changed: boolean; mentionedBefore: string[] } | undefined> {
  const mentions = c.mentions ?? null;
  // The statement's snapshot reads the row as it was before this statement changes it.
  const stored = await sql<{ item_id: string; before: string[] | null }>`
    WITH before AS (SELECT mentions FROM document_contents WHERE item_id = ${itemId})
    INSERT INTO document_contents (item_id, state, text, updated_by, mentions)
      VALUES (${itemId}, ${c.state}, ${c.text}, ${by}, COALESCE(${mentions}::text[], '{}'))
    ON CONFLICT (item_id) DO UPDATE SET state = excluded.state, text = excluded.text, updated_by = excluded.updated_by, updated_at = now(),
      mentions = CASE WHEN ${mentions}::text[] IS NULL THEN document_contents.mentions ELSE excluded.mentions END
    WHERE document_contents.state IS DISTINCT FROM excluded.state
    RETURNING item_id, (SELECT mentions FROM before) AS before
  `.execute(db);
  if (!stored.rows.length) {
    const item = await db.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirst();
    return item && { item, changed: false, mentionedBefore: [] };
  }
  const item = await db
    .updateTable('items')
    .set({ updated_at: new Date(), updated_by: by, size_bytes: c.state.byteLength })
    .where('id', '=', itemId)
    .returningAll()
    .executeTakeFirst();
  return item && { item, changed: true, mentionedBefore: stored.rows[0]!.before ?? [] };
}

export interface RevisionRow {
  id: string;
  item_id: string;
  created_at: Date;
  label: string | null;
  restored_from_at: Date | null;
  authors: { id: string; name: string }[];
}

/** Records a revision: the document's state and text now, and who changed it since the last one. Answers its id and time. */
export async function insertRevision(
  db: Q,
  r: { itemId: string; state: Uint8Array; text: string; authorIds: string[]; restoredFrom?: string },
): Promise<{ id: string; createdAt: string }> {
  const id = uuidv7();
  // Nothing is recorded for a document deleted meanwhile.
  const { rows } = await sql<{ created_at: Date }>`
    INSERT INTO document_revisions (id, item_id, state, text, author_ids, restored_from)
    SELECT ${id}, ${r.itemId}, ${r.state}, ${r.text}, ${`{${r.authorIds.join(',')}}`}::uuid[], ${r.restoredFrom ?? null}
    WHERE EXISTS (SELECT 1 FROM items WHERE id = ${r.itemId})
    RETURNING created_at
  `.execute(db);
  return { id, createdAt: new Date(rows[0]?.created_at ?? Date.now()).toISOString() };
}

/** The state of a document's newest revision (ids are time-ordered), if it has one. */
export async function findNewestRevisionState(db: Q, itemId: string): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('document_revisions').select('state').where('item_id', '=', itemId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.state;
}

const revisionColumns = sql<RevisionRow>`
  r.id, r.item_id, r.created_at, r.label,
  (SELECT f.created_at FROM document_revisions f WHERE f.id = r.restored_from) AS restored_from_at,
  COALESCE((
    SELECT json_agg(json_build_object('id', u.id, 'name', COALESCE(NULLIF(u.name, ''), u.email)) ORDER BY u.name)
    FROM users u WHERE u.id = ANY (r.author_ids)
  ), '[]'::json) AS authors`;

/** A document's revisions, newest first (ids are time-ordered), a page after `before`. */
export async function findRevisions(db: Q, itemId: string, limit: number, before?: string): Promise<RevisionRow[]> {
  const { rows } = await sql<RevisionRow>`
    SELECT ${revisionColumns} FROM document_revisions r
    WHERE r.item_id = ${itemId} ${before ? sql`AND r.id < ${before}` : sql``}
    ORDER BY r.id DESC LIMIT ${limit}
  `.execute(db);
  return rows;
}

export async function findRevision(db: Q, itemId: string, id: string): Promise<(RevisionRow & { state: Uint8Array }) | undefined> {
  const { rows } = await sql<RevisionRow & { state: Uint8Array }>`
    SELECT ${revisionColumns}, r.state FROM document_revisions r WHERE r.item_id = ${itemId} AND r.id = ${id}
  `.execute(db);
  return rows[0];
}
