import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { ItemRow } from '../../db/schema.ts';
import { eachAtOnce } from '../../lib/each-at-once.ts';
import { Names, safeSegment } from '../../lib/safe-names.ts';
import { exportedMarkdown } from '../documents/index.ts';
import type { BackupIo } from './backup.service.ts';

/*
 * A workspace written out as a plain tree a person can read without Cabinet (ADR 0064):
 *
 *   cabinet-export.json          what this is: the workspace, when it was written (finishedAt once whole)
 *   Workspace/…                  the shared root's folders and files, as they are named
 *   My files/<person>/…          each member's own files
 *   …/Plans.md                   a document, as Markdown
 *   …/Plans/chart.png            what is inside a document (its pictures, attached files), which its Markdown links to
 *   access.csv                   who had access to what, and through what
 *   .cabinet-partial/            files being written (each renamed into its place once whole): emptied by every run
 */

export const EXPORT_MARKER = 'cabinet-export.json';
const PARTIAL = '.cabinet-partial';
/** What a disk may hold beside an export without it being "other files". */
const IGNORED = new Set(['lost+found', '.DS_Store', PARTIAL]);
/** Errors of the folder written to (full, read-only, not allowed): they stop the export; any other error is one item's. */
const OUTPUT_ERRORS = new Set(['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EDQUOT', 'EMFILE', 'ENFILE', 'EIO']);

export class ExportRefused extends Error {}

export interface WorkspaceExport {
  dir: string;
  workspace: { slug: string; name: string };
  folders: number;
  files: number;
  documents: number;
  /** Bytes of files written now. */
  bytes: number;
  /** Files already there whole from an earlier run (stopped, or over an older export). */
  kept: number;
  /** Rows of access.csv. */
  access: number;
  /** Files whose bytes storage lacks or holds damaged: not written (named). */
  problems: string[];
}

interface TreeRow {
  id: string;
  parent_id: string | null;
  kind: ItemRow['kind'];
  name: string;
  updated_at: Date;
  depth: number;
  blob_key: string | null;
  sha256: string | null;
  size: number;
}

const AT_ONCE = 4;

/**
 * Writes a workspace into `out` as a plain tree (ADR 0064): every active folder, file (its current bytes, checked
 * against their SHA-256) and document (as Markdown, naming the pictures and files inside it by their paths beside it),
 * with each one's time of last change, and `access.csv`. Each file appears only whole (written under a temporary name,
 * then renamed), so a run stopped at any point is finished by running it again into the same folder, which keeps
 * what is there whole. Reads what is stored: a document being edited is as last saved.
 */
export async function exportWorkspace(ctx: AppContext, workspace: string, out: string, io: BackupIo): Promise<WorkspaceExport> {
  const { db } = ctx;
  const ws = await db
    .selectFrom('workspaces')
    .selectAll()
    .where((eb) => eb.or([eb('slug', '=', workspace), eb(sql`id::text`, '=', workspace)]))
    .executeTakeFirst();
  if (!ws) throw new ExportRefused(`No workspace has the address ${workspace}.`);
  await claimExportFolder(out, ws);
  const partials = path.join(out, PARTIAL);
  await rm(partials, { recursive: true, force: true });
  await mkdir(partials);
  const result: WorkspaceExport = {
    dir: out,
    workspace: { slug: ws.slug, name: ws.name },
    folders: 0,
    files: 0,
    documents: 0,
    bytes: 0,
    kept: 0,
    access: 0,
    problems: [],
  };

  const rows = await workspaceTree(ctx, ws.id);
  const roots = await rootNames(ctx, ws.id, ws.root_item_id);
  const names = new Names();
  /** Each item's path in the export (a document's is its `.md`), and the folder a document's contents go in. */
  const paths = new Map<string, string>();
  const inside = new Map<string, string>();
  const hasChildren = new Set(rows.map((r) => r.parent_id));
  for (const top of ['Workspace', 'My files', 'access.csv', EXPORT_MARKER, PARTIAL]) names.take('', top, true);
  for (const row of rows) {
    if (!row.parent_id) {
      const root = roots.get(row.id);
      if (root) paths.set(row.id, root.shared ? 'Workspace' : names.take('My files', safeSegment(root.name), true));
      continue;
    }
    const parent = inside.get(row.parent_id) ?? paths.get(row.parent_id);
    if (parent === undefined) continue;
    if (row.kind === 'document') {
      const base = names.take(parent, safeSegment(row.name), true, '.md');
      paths.set(row.id, `${base}.md`);
      if (hasChildren.has(row.id)) inside.set(row.id, base);
    } else paths.set(row.id, names.take(parent, safeSegment(row.name), row.kind === 'folder'));
  }

  io.progress(`Writing ${ws.name} (${rows.length.toLocaleString('en')} items) to ${out}…`);
  for (const row of rows) {
    const own = paths.get(row.id);
    if (own === undefined) continue;
    const dir = row.kind === 'folder' || !row.parent_id ? own : inside.get(row.id);
    if (dir === undefined) continue;
    await folderAt(path.join(out, dir));
    if (row.kind === 'folder') result.folders++;
  }
  const files = rows.filter((r) => r.kind === 'file' && paths.has(r.id));
  let done = 0;
  let last = Date.now();
  await eachAtOnce(files, AT_ONCE, async (row) => {
    const written = await writeFileOf(ctx, row, path.join(out, paths.get(row.id)!), partials).catch(itemProblem);
    if (written === 'kept') result.kept++;
    else if (typeof written === 'number') result.bytes += written;
    else result.problems.push(`${paths.get(row.id)}: ${written.problem}`);
    if (written === 'kept' || typeof written === 'number') result.files++;
    if (++done % 100 === 0 && Date.now() - last > 1000) {
      last = Date.now();
      io.progress(`  ${done.toLocaleString('en')} of ${files.length.toLocaleString('en')} files…`);
    }
  });
  for (const row of rows.filter((r) => r.kind === 'document' && paths.has(r.id))) {
    const own = paths.get(row.id)!;
    const from = path.posix.dirname(own);
    const addressOf = (id: string) => {
      const target = paths.get(id);
      return target === undefined ? undefined : path.posix.relative(from, target).split('/').map(encodePath).join('/');
    };
    const failed = await exportedMarkdown(ctx, row.id, addressOf)
      .then((markdown) => writeWhole(path.join(out, own), markdown, partials, row.updated_at))
      .then(() => undefined, itemProblem);
    if (failed) result.problems.push(`${own}: ${failed.problem}`);
    else result.documents++;
  }
  // Folders last, deepest first: writing in one changes its time.
  for (const row of [...rows].reverse()) {
    const dir = row.kind === 'folder' ? paths.get(row.id) : undefined;
    if (dir !== undefined) await utimes(path.join(out, dir), row.updated_at, row.updated_at).catch(() => {});
  }
  const access = await accessRows(ctx, ws.id, ws.root_item_id, paths);
  await writeWhole(path.join(out, 'access.csv'), csv(['path', 'kind', 'who', 'email', 'role', 'through', 'expires'], access), partials);
  result.access = access.length;
  await rm(partials, { recursive: true, force: true });
  await writeMarker(out, ws, { finishedAt: new Date().toISOString() });
  return result;
}

/** A segment of a relative link in Markdown: percent-encoded, brackets too (a link's address ends at a `)`). */
const encodePath = (part: string) => encodeURIComponent(part).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Every active item of the workspace below an active root (nothing in the trash, nor inside what is), parents first, with each file's current bytes. */
async function workspaceTree(ctx: AppContext, workspaceId: string): Promise<TreeRow[]> {
  const rows = await sql<TreeRow>`
    WITH RECURSIVE tree AS (
      SELECT id, 0 AS depth FROM items WHERE workspace_id = ${workspaceId} AND parent_id IS NULL AND state = 'active'
      UNION ALL
      SELECT i.id, t.depth + 1 FROM items i JOIN tree t ON i.parent_id = t.id WHERE i.state = 'active' AND t.depth < 64
    )
    SELECT i.id, i.parent_id, i.kind, i.name, i.updated_at, tree.depth, v.blob_key, v.sha256, coalesce(v.size_bytes, 0) AS size
      FROM tree JOIN items i ON i.id = tree.id LEFT JOIN file_versions v ON v.id = i.current_version_id AND v.state = 'ready'
     ORDER BY tree.depth, i.kind <> 'folder', lower(i.name), i.id
  `.execute(ctx.db);
  return rows.rows.map((r) => ({ ...r, size: Number(r.size), updated_at: new Date(r.updated_at) }));
}

/** What each root is called in the export: the shared root is "Workspace"; each member's own files "My files/<their name>". */
async function rootNames(ctx: AppContext, workspaceId: string, sharedRoot: string | null): Promise<Map<string, { shared: boolean; name: string }>> {
  const owners = await ctx.db
    .selectFrom('items')
    .innerJoin('users', 'users.id', 'items.owner_id')
    .select(['items.id', 'users.name', 'users.email'])
    .where('items.workspace_id', '=', workspaceId)
    .where('items.parent_id', 'is', null)
    .execute();
  const named = new Map<string, { shared: boolean; name: string }>();
  const counts = new Map<string, number>();
  for (const o of owners) if (o.id !== sharedRoot) counts.set(o.name.toLowerCase(), (counts.get(o.name.toLowerCase()) ?? 0) + 1);
  for (const o of owners) {
    if (o.id === sharedRoot) named.set(o.id, { shared: true, name: 'Workspace' });
    // Two people of one name are told apart by their addresses.
    else named.set(o.id, { shared: false, name: counts.get(o.name.toLowerCase())! > 1 ? `${o.name} (${o.email})` : o.name });
  }
  return named;
}

/**
 * A file's current bytes at `target`, read from storage and checked against their SHA-256 as they are written under a
 * temporary name, then renamed into place and given the file's time: a file there already of that size and time is
 * kept (an earlier run wrote it). Answers the bytes written, `kept`, or what was wrong.
 */
async function writeFileOf(ctx: AppContext, row: TreeRow, target: string, partials: string): Promise<number | 'kept' | { problem: string }> {
  if (!row.blob_key || !row.sha256) return { problem: 'it has no bytes yet' };
  const there = await stat(target).catch(() => null);
  if (there?.isFile() && there.size === row.size && Math.abs(there.mtimeMs - row.updated_at.getTime()) < 1) return 'kept';
  const partial = path.join(partials, row.id);
  const hash = createHash('sha256');
  let size = 0;
  try {
    const source = await ctx.storage.read(row.blob_key);
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(partial),
    );
  } catch (error) {
    await rm(partial, { force: true });
    if ((error as { code?: string }).code === 'not_found') return { problem: 'storage does not have its bytes' };
    throw error;
  }
  if (size !== row.size || hash.digest('hex') !== row.sha256) {
    await rm(partial, { force: true });
    return { problem: 'its bytes in storage are not the ones recorded (damaged)' };
  }
  await placeFile(partial, target);
  await utimes(target, row.updated_at, row.updated_at);
  return size;
}

/** A file renamed into `target`, whatever an earlier export left there (a folder where a file now is). */
async function placeFile(partial: string, target: string): Promise<void> {
  if ((await stat(target).catch(() => null))?.isDirectory()) await rm(target, { recursive: true, force: true });
  await rename(partial, target);
}

/** A folder at `dir`, whatever an earlier export left there (a file where a folder now is). */
async function folderAt(dir: string): Promise<void> {
  const there = await stat(dir).catch(() => null);
  if (there?.isDirectory()) return;
  if (there) await rm(dir, { force: true });
  await mkdir(dir, { recursive: true });
}

/** One item's failure, said in `problems`; the folder written to failing stops the export. */
function itemProblem(error: unknown): { problem: string } {
  if (OUTPUT_ERRORS.has((error as { code?: string }).code ?? '')) throw error;
  return { problem: `not written (${error instanceof Error ? error.message : String(error)})` };
}

/** A small file written whole: under a temporary name, then renamed; given `at` as its time when one is given. */
async function writeWhole(file: string, content: string, partials: string, at?: Date): Promise<void> {
  const partial = path.join(partials, `${randomUUID()}.partial`);
  await writeFile(partial, content);
  await placeFile(partial, file);
  if (at) await utimes(file, at, at);
}

/**
 * Who had access to what, one row per person and way: the shared root's members by their workspace role, each member's
 * own files, every grant (a group's for each of its members, the workspace's for everyone in it) and every link
 * still open, on the item it was given on (what is inside has it too).
 */
async function accessRows(ctx: AppContext, workspaceId: string, sharedRoot: string | null, paths: Map<string, string>): Promise<string[][]> {
  const { db } = ctx;
  const rows: string[][] = [];
  const when = (d: Date | null) => (d ? d.toISOString() : '');
  const members = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.name', 'users.email', 'memberships.role', 'memberships.home_item_id'])
    .where('memberships.workspace_id', '=', workspaceId)
    .orderBy('users.name')
    .execute();
  const sharedPath = sharedRoot ? paths.get(sharedRoot) : undefined;
  for (const m of members) {
    if (sharedPath !== undefined && m.role !== 'guest') rows.push([sharedPath, 'folder', m.name, m.email, m.role, 'workspace member', '']);
    const home = m.home_item_id ? paths.get(m.home_item_id) : undefined;
    if (home !== undefined) rows.push([home, 'folder', m.name, m.email, 'owner', 'their own files', '']);
  }
  const grants = await db
    .selectFrom('item_grants as g')
    .innerJoin('items as i', 'i.id', 'g.item_id')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'g.principal_id').on('g.principal_type', '=', 'user'))
    .leftJoin('groups as gr', (j) => j.onRef('gr.id', '=', 'g.principal_id').on('g.principal_type', '=', 'group'))
    .select([
      'g.item_id',
      'i.kind',
      'g.principal_type',
      'g.principal_id',
      'g.role',
      'g.expires_at',
      'u.name as user_name',
      'u.email as user_email',
      'gr.name as group_name',
    ])
    .where('i.workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', new Date())]))
    .execute();
  const memberRows = await db
    .selectFrom('group_members as gm')
    .innerJoin('users as u', 'u.id', 'gm.user_id')
    .select(['gm.group_id', 'u.name', 'u.email'])
    .where('gm.workspace_id', '=', workspaceId)
    .orderBy('u.name')
    .execute();
  const groupMembers = new Map<string, typeof memberRows>();
  for (const m of memberRows) groupMembers.set(m.group_id, [...(groupMembers.get(m.group_id) ?? []), m]);
  for (const g of grants) {
    const at = paths.get(g.item_id);
    if (at === undefined) continue;
    const kind = g.kind;
    if (g.principal_type === 'user')
      rows.push([at, kind, g.user_name ?? 'a former member', g.user_email ?? '', g.role, 'shared with them', when(g.expires_at)]);
    else if (g.principal_type === 'workspace') rows.push([at, kind, 'everyone in the workspace', '', g.role, 'shared with the workspace', when(g.expires_at)]);
    else
      for (const m of groupMembers.get(g.principal_id) ?? [])
        rows.push([at, kind, m.name, m.email, g.role, `group “${g.group_name ?? ''}”`, when(g.expires_at)]);
  }
  const links = await db
    .selectFrom('share_links as l')
    .innerJoin('items as i', 'i.id', 'l.item_id')
    .select(['l.item_id', 'i.kind', 'l.kind as link', 'l.password_hash', 'l.expires_at'])
    .where('l.workspace_id', '=', workspaceId)
    .where('l.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('l.expires_at', 'is', null), eb('l.expires_at', '>', new Date())]))
    .execute();
  for (const l of links) {
    const at = paths.get(l.item_id);
    if (at === undefined) continue;
    const who = `anyone with the link${l.password_hash ? ' and its password' : ''}`;
    rows.push([at, l.kind, who, '', l.link === 'view' ? 'viewer' : 'may upload', 'public link', when(l.expires_at)]);
  }
  return rows.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
}

/** RFC 4180, each field quoted when it must be; one that a spreadsheet would take for a formula starts with `'`. */
function csv(header: string[], rows: string[][]): string {
  const field = (v: string) => {
    const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** `out` made an export's folder: missing or empty, or one this workspace's export was written in (a run to finish, or an older one brought up to date). */
async function claimExportFolder(out: string, ws: { id: string; slug: string; name: string }): Promise<void> {
  await mkdir(out, { recursive: true });
  const entries = (await readdir(out)).filter((e) => !IGNORED.has(e));
  if (entries.length) {
    const marker = await readFile(path.join(out, EXPORT_MARKER), 'utf8').then(
      (t) => JSON.parse(t) as { format?: string; workspace?: { id?: string } },
      () => undefined,
    );
    if (marker?.format !== 'cabinet-export') throw new ExportRefused(`${out} already holds other files. Give an empty folder.`);
    if (marker.workspace?.id !== ws.id) throw new ExportRefused(`${out} holds the export of another workspace. Give an empty folder.`);
  }
  await writeMarker(out, ws, {});
}

async function writeMarker(out: string, ws: { id: string; slug: string; name: string }, o: { finishedAt?: string }): Promise<void> {
  const marker = {
    format: 'cabinet-export',
    version: 1,
    workspace: { id: ws.id, slug: ws.slug, name: ws.name },
    writtenAt: new Date().toISOString(),
    ...(o.finishedAt ? { finishedAt: o.finishedAt } : {}),
    about:
      'A Cabinet workspace as plain files: Workspace/ holds its shared folders, My files/ each member’s own; documents are Markdown, ' +
      'with what is inside one (its pictures, attached files) in a folder of its name beside it; access.csv says who had access to what.',
  };
  const file = path.join(out, EXPORT_MARKER);
  await writeFile(`${file}.partial`, `${JSON.stringify(marker, null, 2)}\n`);
  await rename(`${file}.partial`, file);
}
