import { tmpdir } from 'node:os';
import { sql, type Selectable } from 'kysely';
import { openDatabase, type Db } from '../../db/client.ts';
import { newPGlite } from '../../db/pglite.ts';
import { loadDumpPGlite } from '../../db/dump.ts';
import { migrate } from '../../db/migrate.ts';
import type { Database as Tables } from '../../db/schema.ts';
import type { BackedUpDocuments } from '../documents/index.ts';
import { MAX_DEPTH } from '../items/index.ts';
import { BackupRefused } from './backup.service.ts';

// Reads an item's tree out of a backup's database (`cabinet restore-item`, ADR 0063). An embedded database's dump is
// loaded in a worker thread of its own (readFromPGliteDump): for a large one that is minutes of work, which on the
// server's thread would hold up every request.

type ItemRow = Selectable<Tables['items']>;
type VersionRow = Selectable<Tables['file_versions']>;

/** A tree read from a backup's database: the item, everything active below it, their ready versions and documents. */
export interface BackedUpTree {
  items: ItemRow[];
  versions: VersionRow[];
  documents: BackedUpDocuments;
  /** The folders above the item, nearest first, as they were. */
  above: { id: string; name: string }[];
}

export const topRefused = (id: string) => new BackupRefused(`${id} is the top of a workspace's tree: bring back what is in it, one item at a time.`);

/** A refusal, as it crosses from the worker: its code says what it was. */
export const REFUSED = 'backup_refused';

/**
 * The tree of `itemId` in a dump of an embedded database, loaded into a new one — in memory, or in `dir` when given —
 * and brought to this Cabinet's schema. Runs in a worker; the database goes with it.
 */
export async function readFromPGliteDump(input: { dump: string; itemId: string; backup: string; dir?: string }): Promise<BackedUpTree> {
  const pglite = await newPGlite(input.dir);
  const scratch = await openDatabase({ dataDir: input.dir ?? tmpdir(), pglite }).catch(async (error: unknown) => {
    await pglite.close().catch(() => {});
    throw error;
  });
  try {
    await loadDumpPGlite(pglite, input.dump);
    await migrate(scratch);
    return await readTree(scratch.db, input.itemId, input.backup);
  } catch (error) {
    throw error instanceof BackupRefused ? Object.assign(new Error(error.message), { code: REFUSED }) : error;
  } finally {
    await scratch.close();
  }
}

/** The item (in whatever state it was), everything active below it, their ready versions, documents and revisions. */
export async function readTree(db: Db, itemId: string, backup: string): Promise<BackedUpTree> {
  const top = await db
    .selectFrom('items')
    .selectAll()
    .where('id', '=', itemId)
    .executeTakeFirst()
    .catch(() => undefined);
  if (!top) throw new BackupRefused(`Backup ${backup} holds no item ${itemId}. Its id is in the address of its page (/file/…, /folder/…, /doc/…), as it was.`);
  if (!top.parent_id) throw topRefused(itemId);
  const below = await sql<ItemRow & { depth: number }>`
    WITH RECURSIVE sub AS (
      SELECT id, 0 AS depth FROM items WHERE id = ${itemId}
      UNION ALL
      SELECT i.id, s.depth + 1 FROM items i JOIN sub s ON i.parent_id = s.id WHERE i.state = 'active' AND s.depth < ${MAX_DEPTH}
    )
    SELECT i.*, sub.depth FROM sub JOIN items i ON i.id = sub.id WHERE sub.depth > 0 ORDER BY sub.depth, i.id
  `.execute(db);
  const items = [top, ...below.rows.map(({ depth: _d, ...i }) => i)];
  const files = items.filter((i) => i.kind === 'file').map((i) => i.id);
  const documents = items.filter((i) => i.kind === 'document').map((i) => i.id);
  const chunks = <T>(list: string[], fn: (part: string[]) => Promise<T[]>) =>
    Promise.all(Array.from({ length: Math.ceil(list.length / 1000) }, (_, n) => fn(list.slice(n * 1000, n * 1000 + 1000)))).then((r) => r.flat());
  const versions = await chunks(files, (part) =>
    db.selectFrom('file_versions').selectAll().where('item_id', 'in', part).where('state', '=', 'ready').orderBy('number').execute(),
  );
  const contents = await chunks(documents, (part) => db.selectFrom('document_contents').selectAll().where('item_id', 'in', part).execute());
  const revisions = (await chunks(documents, (part) => db.selectFrom('document_revisions').selectAll().where('item_id', 'in', part).execute())).sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1),
  );
  const above = await sql<{ id: string; name: string }>`
    WITH RECURSIVE up AS (
      SELECT parent_id AS id, 1 AS n FROM items WHERE id = ${itemId}
      UNION ALL
      SELECT i.parent_id, up.n + 1 FROM items i JOIN up ON i.id = up.id WHERE i.parent_id IS NOT NULL AND up.n < ${MAX_DEPTH}
    )
    SELECT i.id, i.name FROM up JOIN items i ON i.id = up.id ORDER BY up.n
  `.execute(db);
  return { items, versions, documents: { contents, revisions }, above: above.rows };
}
