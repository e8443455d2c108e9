import { sql, type Kysely } from 'kysely';
import type { Database, ItemRow } from '../../db/schema.ts';

type Q = Kysely<Database>;

/** A document's stored state (one Yjs update holding it all), if it was ever saved. */
export async function findDocumentState(db: Q, itemId: string): Promise<Uint8Array | undefined> {
  return (await db.selectFrom('document_contents').select('state').where('item_id', '=', itemId).executeTakeFirst())?.state;
}

/** A document's stored form: the whole Yjs state as one update, and its plain text. */
export interface DocumentContent {
  state: Uint8Array;
  text: string;
}

/** Saves a document's state and text; the item shows it changed, and by whom. Answers the item. */
export async function saveDocumentState(db: Q, itemId: string, state: Uint8Array, text: string, by: string | null): Promise<ItemRow | undefined> {
  await sql`
    INSERT INTO document_contents (item_id, state, text, updated_by) VALUES (${itemId}, ${state}, ${text}, ${by})
    ON CONFLICT (item_id) DO UPDATE SET state = excluded.state, text = excluded.text, updated_by = excluded.updated_by, updated_at = now()
  `.execute(db);
  return db
    .updateTable('items')
    .set({ updated_at: new Date(), updated_by: by, size_bytes: state.byteLength })
    .where('id', '=', itemId)
    .returningAll()
    .executeTakeFirst();
}
