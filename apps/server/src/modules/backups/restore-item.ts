import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { uuidv7, ZId } from '@cabinet/contracts';
import { sql, type Insertable, type Selectable } from 'kysely';
import pg from 'pg';
import type { AppContext } from '../../context.ts';
import { inTransaction, openDatabase, type Db } from '../../db/client.ts';
import { pgRestorePostgres } from '../../db/dump.ts';
import { allMigrations, migrate } from '../../db/migrate.ts';
import type { Database as Tables } from '../../db/schema.ts';
import type { Env } from '../../env.ts';
import { TaskError, WorkerFailure, WorkerPool } from '../../infra/workers/pool.ts';
import { restoreDocuments } from '../documents/index.ts';
import { record } from '../events/index.ts';
import { blobInUse, findActiveSibling, findPlaces, insertTree, lockItem, MAX_DEPTH, suggestFreeName } from '../items/index.ts';
import { addUsage } from '../workspaces/index.ts';
import { openBlob, type Manifest } from './backup-folder.ts';
import { BackupRefused, megabytes, type BackupIo } from './backup.service.ts';
import { readFromPGliteDump, readTree, REFUSED, topRefused, type BackedUpTree } from './restore-item-reader.ts';
import { openBackup } from './verify-backup.ts';

type ItemRow = Selectable<Tables['items']>;
type VersionRow = Selectable<Tables['file_versions']>;

/**
 * An embedded database whose dump (gzipped) is at most this is loaded on the thread that runs the command, in a moment
 * (a worker of its own would cost more: a thread, its code and the database engine compiled again); a larger one in a
 * worker, so a server running the command goes on answering.
 */
const LOAD_HERE_BYTES = 1024 * 1024;
/** An embedded database whose dump (gzipped) is at most this is read in memory: some ten times as much memory, for a moment. */
const IN_MEMORY_DUMP_BYTES = 16 * 1024 * 1024;
/** What the worker reading an embedded database's dump may take. */
const READER_MEMORY_MB = 4096;
const READER_TIMEOUT_MS = 30 * 60_000;
const READER = new URL('./restore-item-reader.ts', import.meta.url);
/** Scratch databases on PostgreSQL: `cabinet_restore_<time made, base 36>_<random>`. */
const SCRATCH_PREFIX = 'cabinet_restore_';

/** What `cabinet restore-item` did. */
export interface ItemRestore {
  backup: string;
  /** The item as it came back (its new id when the original still exists), and the folder it is in. */
  item: { id: string; name: string; kind: ItemRow['kind'] };
  folder: { id: string; name: string; which: 'original' | 'nearest' | 'chosen' };
  /** It had been brought back from this backup before, and is still there: nothing was done. */
  already: boolean;
  items: number;
  versions: number;
  documents: number;
  revisions: number;
  /** Bytes put in storage (what storage had in use already is shared, not copied). */
  copiedBytes: number;
  /** Files and versions whose bytes neither the backup nor storage holds: not brought back. */
  leftOut: string[];
}

/**
 * Brings one file, folder or document back from a backup into the running installation (ADR 0063), with every version
 * and revision it had: the backup's database is loaded into a scratch database of its own kind (an embedded one in a
 * temporary folder, or a new PostgreSQL database, dropped after), brought to this Cabinet's schema, and the tree read
 * from it. It goes back into `to`, or the folder it was in, or the nearest folder above that still is; under its own
 * ids when nothing of it exists any more, else as a new item; owned by its owner when they still belong to the
 * workspace, else by the folder's owner; named freely. Bytes storage still uses are shared; the others are copied from
 * the backup (or, for a bucket's backup, from the bucket) under new keys, each checked against its SHA-256, before one
 * transaction puts in every row. A run that ended is remembered: running it again says where the item is.
 */
export async function restoreItemFromBackup(
  ctx: AppContext,
  location: string,
  o: {
    name?: string;
    itemId: string;
    to?: string;
    io: BackupIo;
    /** Where an embedded database's dump is loaded: by its size unless said. */ loadIn?: 'worker' | 'here';
  },
): Promise<ItemRestore> {
  const { db } = ctx;
  for (const [option, id] of [
    ['--item', o.itemId],
    ['--to', o.to],
  ] as const)
    if (id !== undefined && !ZId.safeParse(id).success) throw new BackupRefused(`${option} ${id} is not an id: an item's id is in the address of its page.`);
  const opened = await openBackup(location, o.name);
  const m = opened.manifest;
  if (opened.problems.length)
    throw new BackupRefused(`Backup ${opened.name} is not whole, so nothing was changed:\n${opened.problems.map((p) => `  - ${p}`).join('\n')}`);
  const known = new Set(allMigrations().map((x) => x.name));
  const unknown = m.migrations.filter((n) => !known.has(n));
  if (unknown.length) throw new BackupRefused(`Backup ${m.name} was taken by a newer Cabinet (its schema has ${unknown.join(', ')}). Upgrade Cabinet first.`);

  const earlier = await restoredBefore(db, m.id, o.itemId);
  if (earlier) return { ...earlier, backup: m.name };
  // What can be known without the backup's database is looked at before it is loaded.
  const chosen = o.to ? await chosenFolder(db, o.to) : undefined;
  const live = (await findPlaces(db, [o.itemId])).get(o.itemId);
  if (live && !live.item.parent_id) throw topRefused(o.itemId);

  o.io.progress(`Reading backup ${m.name} (its database, ${megabytes(m.database.bytes)})…`);
  await removeStaleFolders(ctx.env.DATA_DIR);
  const tree = await readBackedUpTree(ctx.env, m, path.join(opened.dir, m.database.file), o.itemId, { io: o.io, ...(o.loadIn ? { loadIn: o.loadIn } : {}) });
  const top = tree.items[0]!;
  if (chosen?.kind === 'document' && top.kind !== 'file')
    throw new BackupRefused(`--to ${o.to} is a document: only a file (a picture, an attachment) goes in one.`);
  const folder = chosen ? { place: chosen, which: 'chosen' as const } : await destination(db, tree, top.kind);
  const workspaceId = folder.place.workspace_id;
  const paths = pathsIn(tree.items);
  // Over the quota, nothing is copied: the transaction checks again.
  const needed = tree.versions.reduce((sum, v) => sum + Number(v.size_bytes), 0);
  const room = await db.selectFrom('workspaces').select(['used_bytes', 'quota_bytes']).where('id', '=', workspaceId).executeTakeFirstOrThrow();
  if (room.quota_bytes !== null && Number(room.used_bytes) + needed > Number(room.quota_bytes)) throw overQuota(needed);

  // The backup's own ids when none of them is in use here (the item was deleted for good), else new ones throughout.
  const keep = !(await anyExists(db, tree));
  const renamed = new Map(tree.items.map((i) => [i.id, keep ? i.id : uuidv7()]));
  const owners = await ownersIn(db, workspaceId, tree, folder.place.owner_id);
  const people = await livePeople(db, tree);
  const person = (id: string | null) => (id && people.has(id) ? id : null);

  // The bytes first: shared where storage uses them now, else copied in under a new key, checked.
  o.io.progress(`Putting back the bytes of ${tree.versions.length.toLocaleString('en')} versions…`);
  const bytes = await placeBytes(ctx, location, m, workspaceId, tree.versions);
  const versions = tree.versions.filter((v) => bytes.keys.has(v.blob_key));
  const leftOut: string[] = [];
  const files = new Map<string, VersionRow[]>();
  for (const v of versions) files.set(v.item_id, [...(files.get(v.item_id) ?? []), v]);
  const where = m.storage.withBytes ? 'neither the backup nor storage' : 'neither the bucket nor storage (an earlier version of the object may be)';
  for (const v of tree.versions) if (!bytes.keys.has(v.blob_key)) leftOut.push(`${paths.get(v.item_id)}: version ${v.number} (its bytes are in ${where})`);
  const items = tree.items.filter((i) => i.kind !== 'file' || files.has(i.id));
  const kept = new Set(items.map((i) => i.id));
  for (const i of tree.items) if (!kept.has(i.id)) leftOut.push(`${paths.get(i.id)}: no version of it has its bytes`);
  if (!kept.has(top.id)) {
    await forget(ctx, bytes.written);
    throw new BackupRefused(`Nothing of ${top.name} can be brought back:\n${leftOut.map((l) => `  - ${l}`).join('\n')}`);
  }
  // A version left out that was the file's current one gives way to its newest that came back.
  const current = (i: ItemRow) => {
    const own = files.get(i.id) ?? [];
    return own.find((v) => v.id === i.current_version_id) ?? own.reduce<VersionRow | undefined>((a, v) => (!a || v.number > a.number ? v : a), undefined);
  };
  const versionIds = new Map(versions.map((v) => [v.id, keep ? v.id : uuidv7()]));

  const restored = await inTransaction(db, async (tx) => {
    // One run at a time for an item of a backup: a second waits, then finds the first's.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`restore-item:${m.id}:${top.id}`}))`.execute(tx);
    const again = await restoredBefore(tx, m.id, o.itemId);
    if (again) return again;
    await lockItem(tx, folder.place.id);
    const place = (await findPlaces(tx, [folder.place.id])).get(folder.place.id);
    if (!usable(place, top.kind)) throw new BackupRefused(`The folder ${folder.place.name} was deleted meanwhile: run it again.`);
    if (place.chain.length + depthOf(tree.items) >= MAX_DEPTH) throw new BackupRefused(`Folders nest at most ${MAX_DEPTH} deep: choose a folder higher up.`);
    // What is shared must stay in use until this commits: a deletion now waits (as a copy's does).
    const shared = [...bytes.shared];
    if (shared.length) {
      const held = await tx.selectFrom('file_versions').select('blob_key').where('blob_key', 'in', shared).where('state', '!=', 'pruned').forShare().execute();
      if (new Set(held.map((h) => h.blob_key)).size < shared.length) throw new BackupRefused('Files were deleted while this ran: run it again.');
    }
    const name = (await findActiveSibling(tx, place.item.id, top.name)) ? await suggestFreeName(tx, place.item.id, top.name) : top.name;
    const rows: Insertable<Tables['items']>[] = items.map((i) => {
      const version = i.kind === 'file' ? current(i)! : undefined;
      return {
        id: renamed.get(i.id)!,
        workspace_id: workspaceId,
        parent_id: i === top ? place.item.id : renamed.get(i.parent_id!)!,
        kind: i.kind,
        name: i === top ? name : i.name,
        owner_id: owners.get(i.owner_id)!,
        size_bytes: version ? Number(version.size_bytes) : i.size_bytes,
        mime_type: i.mime_type,
        current_version_id: version ? versionIds.get(version.id)! : null,
        updated_by: person(i.updated_by),
        created_at: i.created_at,
        updated_at: i.updated_at,
      };
    });
    await insertTree(
      tx,
      rows,
      versions.map((v) => ({
        id: versionIds.get(v.id)!,
        item_id: renamed.get(v.item_id)!,
        number: v.number,
        blob_key: bytes.keys.get(v.blob_key)!,
        size_bytes: v.size_bytes,
        sha256: v.sha256,
        mime_type: v.mime_type,
        author_id: person(v.author_id),
        state: 'ready',
        pinned: v.pinned,
        name: v.name,
        created_at: v.created_at,
      })),
    );
    const documents = {
      contents: tree.documents.contents.filter((c) => kept.has(c.item_id)).map((c) => ({ ...c, updated_by: person(c.updated_by) })),
      revisions: tree.documents.revisions.filter((r) => kept.has(r.item_id)),
    };
    await restoreDocuments(tx, documents, renamed);
    const id = renamed.get(top.id)!;
    await tx
      .insertInto('restored_items')
      .values({ backup_id: m.id, source_id: top.id, item_id: id })
      .onConflict((oc) => oc.columns(['backup_id', 'source_id']).doUpdateSet({ item_id: id, restored_at: new Date() }))
      .execute();
    await record(tx, null, {
      workspaceId,
      action: 'item.restored',
      itemId: id,
      parentIds: [place.item.id],
      data: { name, fromBackup: m.name },
    });
    // Last: the workspace's row is held from here to the commit (workspaces.repo.ts).
    const used = versions.reduce((sum, v) => sum + Number(v.size_bytes), 0);
    if (!(await addUsage(tx, workspaceId, used))) throw overQuota(used);
    return {
      item: { id, name, kind: top.kind },
      folder: { id: place.item.id, name: place.item.name, which: folder.which },
      already: false,
      items: items.length,
      versions: versions.length,
      documents: documents.contents.length,
      revisions: documents.revisions.length,
      copiedBytes: bytes.copiedBytes,
      leftOut,
    };
  }).catch(async (error: unknown) => {
    await forget(ctx, bytes.written);
    // Another run of the same item under its own ids got there first.
    if ((error as { code?: string }).code === '23505') throw new BackupRefused('Another run brought it back meanwhile: run it again to see where.');
    throw error;
  });
  // A second run that waited for this one's found it: what it copied is not needed.
  if (restored.already) await forget(ctx, bytes.written);
  return { ...restored, backup: m.name };
}

const overQuota = (bytes: number) =>
  new BackupRefused(`It would take the workspace over its quota (${megabytes(bytes)} more): raise the quota in Administration → Workspaces first.`);

/** Objects copied for a restore that did not happen: removed (a failure here leaves them to `cabinet storage verify --repair`). */
async function forget(ctx: AppContext, keys: string[]): Promise<void> {
  for (const key of keys) await ctx.storage.delete(key).catch(() => {});
}

/** Each item's path from the top of the tree ("Reports/Q1/plan.txt"), as a person finds it. */
function pathsIn(items: ItemRow[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (const i of items) paths.set(i.id, i.parent_id && paths.has(i.parent_id) ? `${paths.get(i.parent_id)}/${i.name}` : i.name);
  return paths;
}

/** Temporary folders of runs that were killed, over a day old. */
async function removeStaleFolders(dataDir: string): Promise<void> {
  const entries = await readdir(dataDir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory() || !e.name.startsWith('restore-item-')) continue;
    const at = (await stat(path.join(dataDir, e.name)).catch(() => null))?.mtimeMs;
    if (at && Date.now() - at > 24 * 3600_000) await rm(path.join(dataDir, e.name), { recursive: true, force: true }).catch(() => {});
  }
}

/** The item this backup's `sourceId` was brought back as, when it is still there (not in the trash). */
async function restoredBefore(db: Db, backupId: string, sourceId: string): Promise<Omit<ItemRestore, 'backup'> | undefined> {
  const row = await db.selectFrom('restored_items').select('item_id').where('backup_id', '=', backupId).where('source_id', '=', sourceId).executeTakeFirst();
  const place = row && (await findPlaces(db, [row.item_id])).get(row.item_id);
  if (!place || place.item.state !== 'active' || place.trashedAbove) return undefined;
  const parent = (await findPlaces(db, [place.item.parent_id!])).get(place.item.parent_id!);
  return {
    item: { id: place.item.id, name: place.item.name, kind: place.item.kind },
    folder: { id: place.item.parent_id!, name: parent?.item.name ?? '', which: 'original' },
    already: true,
    items: 0,
    versions: 0,
    documents: 0,
    revisions: 0,
    copiedBytes: 0,
    leftOut: [],
  };
}

/**
 * The tree of `itemId` read from the backup's database, loaded as a scratch one of its own kind and brought to this
 * Cabinet's schema: an embedded one in a worker thread of its own (in memory, or for a large dump in a temporary folder
 * under DATA_DIR), removed after; a PostgreSQL one made beside DATABASE_URL's and dropped after.
 */
async function readBackedUpTree(env: Env, m: Manifest, dump: string, itemId: string, o: { io: BackupIo; loadIn?: 'worker' | 'here' }): Promise<BackedUpTree> {
  const { io } = o;
  if (m.database.kind === 'pglite' && (o.loadIn ?? (m.database.bytes > LOAD_HERE_BYTES ? 'worker' : 'here')) === 'here')
    return readFromPGliteDump({ dump, itemId, backup: m.name }).catch((error: unknown) => {
      throw (error as { code?: string }).code === REFUSED ? new BackupRefused((error as Error).message) : error;
    });
  if (m.database.kind === 'pglite') {
    const dir = m.database.bytes > IN_MEMORY_DUMP_BYTES ? await mkdtemp(path.join(env.DATA_DIR, 'restore-item-')) : undefined;
    if (dir) io.progress(`Loading it in ${dir} (removed after)…`);
    const pool = new WorkerPool({ threads: 1, queue: 0, memoryMb: READER_MEMORY_MB, timeoutMs: READER_TIMEOUT_MS });
    try {
      return await pool.run<BackedUpTree>(READER, 'readFromPGliteDump', { dump, itemId, backup: m.name, ...(dir ? { dir } : {}) });
    } catch (error) {
      if (error instanceof TaskError && error.code === REFUSED) throw new BackupRefused(error.message);
      if (error instanceof WorkerFailure && (error.reason === 'memory' || error.reason === 'timeout'))
        throw new BackupRefused(
          `Backup ${m.name}'s database is too large to read here (${error.reason === 'memory' ? `over ${READER_MEMORY_MB} MB of memory` : 'over 30 minutes'}).`,
        );
      throw error;
    } finally {
      await pool.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  }
  if (!env.DATABASE_URL)
    throw new BackupRefused(
      `Backup ${m.name} is of a PostgreSQL database, and this installation uses the embedded one: ` +
        'bring it back on an installation using PostgreSQL (the one it was taken from), then move it across.',
    );
  const name = `${SCRATCH_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await dropStaleScratch(env.DATABASE_URL);
  await onServer(env.DATABASE_URL, `CREATE DATABASE ${name}`).catch((error: unknown) => {
    throw new BackupRefused(
      `Cabinet could not make a database to read the backup in (${error instanceof Error ? error.message : error}): its user needs CREATEDB.`,
    );
  });
  io.progress(`Loading it in the database ${name} (dropped after)…`);
  try {
    const url = new URL(env.DATABASE_URL);
    url.pathname = `/${name}`;
    await pgRestorePostgres(url.href, dump);
    const scratch = await openDatabase({ databaseUrl: url.href, dataDir: env.DATA_DIR, poolSize: 2 });
    try {
      await migrate(scratch);
      return await readTree(scratch.db, itemId, m.name);
    } finally {
      await scratch.close();
    }
  } finally {
    await onServer(env.DATABASE_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) =>
      io.progress(`The database ${name} could not be dropped (${error instanceof Error ? error.message : error}): drop it yourself.`),
    );
  }
}

/** Scratch databases a killed run left (their names start with the time they were made): those over a day old are dropped. */
async function dropStaleScratch(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${SCRATCH_PREFIX}%`]);
    for (const { datname } of rows) {
      const made = parseInt(datname.slice(SCRATCH_PREFIX.length).split('_')[0]!, 36);
      if (/^[a-z0-9_]+$/.test(datname) && Date.now() - made > 24 * 3600_000)
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    }
  } catch {
    // Only tidying: the restore goes on.
  } finally {
    await client.end().catch(() => {});
  }
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether a place is one items can go in now (a folder; for a file a document too): there, not in the trash, nor inside a folder that is. */
const usable = (p: { item: ItemRow; trashedAbove: boolean } | undefined, kind: ItemRow['kind'] = 'file'): p is { item: ItemRow; trashedAbove: boolean } =>
  !!p && (p.item.kind === 'folder' || (p.item.kind === 'document' && kind === 'file')) && p.item.state === 'active' && !p.trashedAbove;

/** The folder (or document) `--to` names, when items can go in it. */
async function chosenFolder(db: Db, id: string): Promise<ItemRow> {
  const place = (await findPlaces(db, [id])).get(id);
  if (!usable(place)) throw new BackupRefused(`--to ${id} is not a folder here (or it is in the trash): give the id of a folder, from its address.`);
  return place.item;
}

/** Where the item goes when no folder is named: the folder (or a file's document) it was in, else the nearest one above that still is. */
async function destination(db: Db, tree: BackedUpTree, kind: ItemRow['kind']): Promise<{ place: ItemRow; which: 'original' | 'nearest' }> {
  const places = await findPlaces(
    db,
    tree.above.map((a) => a.id),
  );
  for (const [n, a] of tree.above.entries()) {
    const place = places.get(a.id);
    if (usable(place, n === 0 ? kind : 'folder')) return { place: place.item, which: n === 0 ? 'original' : 'nearest' };
  }
  throw new BackupRefused(`No folder it was in is here any more: say where it goes with --to FOLDER (a folder's id, from its address).`);
}

/** Whether any item, version or revision of the tree exists here: then it comes back under new ids. */
async function anyExists(db: Db, tree: BackedUpTree): Promise<boolean> {
  const some = async (table: 'items' | 'file_versions' | 'document_revisions', ids: string[]) => {
    for (let n = 0; n < ids.length; n += 1000)
      if (
        await db
          .selectFrom(table)
          .select('id')
          .where('id', 'in', ids.slice(n, n + 1000))
          .limit(1)
          .executeTakeFirst()
      )
        return true;
    return false;
  };
  return (
    (await some(
      'items',
      tree.items.map((i) => i.id),
    )) ||
    (await some(
      'file_versions',
      tree.versions.map((v) => v.id),
    )) ||
    (await some(
      'document_revisions',
      tree.documents.revisions.map((r) => r.id),
    ))
  );
}

/** Each owner of the tree's items, kept when they are still an active member (not a guest) of the workspace, else `fallback`. */
async function ownersIn(db: Db, workspaceId: string, tree: BackedUpTree, fallback: string): Promise<Map<string, string>> {
  const ids = [...new Set(tree.items.map((i) => i.owner_id))];
  const members = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.id')
    .where('memberships.workspace_id', '=', workspaceId)
    .where('memberships.role', '!=', 'guest')
    .where('users.status', '=', 'active')
    .where('users.id', 'in', ids)
    .execute();
  const active = new Set(members.map((r) => r.id));
  return new Map(ids.map((id) => [id, active.has(id) ? id : fallback]));
}

/** Of the people the tree names (authors, editors), those this installation has. */
async function livePeople(db: Db, tree: BackedUpTree): Promise<Set<string>> {
  const named = new Set<string>();
  for (const i of tree.items) if (i.updated_by) named.add(i.updated_by);
  for (const v of tree.versions) if (v.author_id) named.add(v.author_id);
  for (const c of tree.documents.contents) if (c.updated_by) named.add(c.updated_by);
  if (!named.size) return named;
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', [...named])
    .execute();
  return new Set(rows.map((r) => r.id));
}

const depthOf = (items: ItemRow[]) => {
  const depth = new Map<string, number>();
  for (const i of items) depth.set(i.id, i.parent_id && depth.has(i.parent_id) ? depth.get(i.parent_id)! + 1 : 0);
  let deepest = 0;
  for (const d of depth.values()) if (d > deepest) deepest = d;
  return deepest;
};

/**
 * Each version's bytes in storage, by the backed-up key: the same key when storage uses it now (`shared`), else a new
 * key written from the backup's folder (local storage's backups) or from the bucket (when it still has the object),
 * through the driver's `writeObject`, which makes it appear only whole and matching its SHA-256. Keys with neither are
 * missing from `keys`.
 */
async function placeBytes(
  ctx: AppContext,
  location: string,
  m: Manifest,
  workspaceId: string,
  versions: VersionRow[],
): Promise<{ keys: Map<string, string>; shared: Set<string>; written: string[]; copiedBytes: number }> {
  const { db, storage } = ctx;
  const keys = new Map<string, string>();
  const shared = new Set<string>();
  const written: string[] = [];
  let copiedBytes = 0;
  const blobs = new Map(versions.map((v) => [v.blob_key, { sha256: v.sha256, size: Number(v.size_bytes), mime: v.mime_type }]));
  for (const [key, blob] of blobs) {
    if ((await blobInUse(db, key)) && (await storage.stat(key))?.size === blob.size) {
      keys.set(key, key);
      shared.add(key);
      continue;
    }
    const source = await bytesOf(ctx, location, m, key, blob);
    if (!source) continue;
    const target = `${workspaceId}/${uuidv7()}`;
    try {
      await storage.writeObject(target, source, blob.size, blob.mime, (sha) => sha === blob.sha256);
    } catch (error) {
      source.destroy();
      // Bytes that are not the ones recorded are as good as none; storage failing stops the restore.
      if ((error as { code?: string }).code === 'checksum_mismatch') continue;
      throw error;
    }
    keys.set(key, target);
    written.push(target);
    copiedBytes += blob.size;
  }
  return { keys, shared, written, copiedBytes };
}

/** A blob's bytes as the backup keeps them: in its folder (by SHA-256), or in the bucket at its key. */
async function bytesOf(ctx: AppContext, location: string, m: Manifest, key: string, blob: { sha256: string; size: number }): Promise<Readable | undefined> {
  if (m.storage.withBytes) return openBlob(location, blob.sha256, blob.size);
  return (await ctx.storage.stat(key))?.size === blob.size ? ctx.storage.read(key) : undefined;
}
