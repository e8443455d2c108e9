import { encodeCursor, type TActivityEntry, type TActivityPage, type TActivityPosition, type TActivityAction } from '@cabinet/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { maySeeGrants, requireItem } from '../items/index.ts';
import { findMembership, requireWorkspace, workspaceAbilities } from '../workspaces/index.ts';
import { deleteActivityBefore, findActivity, findSubjects, type ActivityFilter, type ActivityRow } from './activity.repo.ts';

const DAY = 24 * 60 * 60_000;
/** What the record keeps in `data` that is not for reading (the folders a change touched, for the live stream). */
const INTERNAL = new Set(['parentIds']);
/** Keys that could carry a secret or someone's content: never shown, whatever records them later. */
const UNSAFE = /secret|hash|password|url|body|content|text|sealed/i;

/** The fields of a record's data that are safe to show: small values under names that carry no secret. */
export function safeData(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data ?? {})) {
    if (INTERNAL.has(key) || UNSAFE.test(key)) continue;
    const primitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
    if (primitive(value) || (Array.isArray(value) && value.length <= 20 && value.every(primitive))) out[key] = value;
  }
  return out;
}

/** What a reader is shown of entries: where they came from (admins), people's addresses (not to guests), and which entries at all. */
interface Shown {
  origin: boolean;
  emails: boolean;
  entry?: (row: ActivityRow) => boolean;
}
const EVERYTHING: Shown = { origin: true, emails: true };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idIn = (v: unknown) => (typeof v === 'string' && UUID.test(v) ? v : undefined);

type SubjectRef = { kind: 'user' | 'group'; id: string } | { kind: 'workspace'; id: string | null };

/** Whom an entry is about, by the ids its data holds: the one shared with (a grant's principal), or the person (`userId`) added, removed, given a role… */
function subjectOf(row: ActivityRow): SubjectRef | undefined {
  const data = row.data ?? {};
  if (row.action === 'item.shared') {
    const id = idIn(data.principalId);
    if (data.principalType === 'workspace') return { kind: 'workspace', id: id ?? null };
    if ((data.principalType === 'user' || data.principalType === 'group') && id) return { kind: data.principalType, id };
    return undefined;
  }
  const userId = idIn(data.userId);
  return userId ? { kind: 'user', id: userId } : undefined;
}

/** The subjects of a page of entries, by `kind:id`: the record keeps their ids (names change), so they are named as the log is read, in one query per page. */
type Subjects = Map<string, { name: string; email: string | null }>;

async function subjectsOf(db: Db, rows: readonly ActivityRow[]): Promise<Subjects> {
  const refs = rows.map(subjectOf);
  const ids = (kind: 'user' | 'group') => [...new Set(refs.flatMap((r) => (r?.kind === kind ? [r.id] : [])))];
  const { users, groups } = await findSubjects(db, ids('user'), ids('group'));
  const subjects: Subjects = new Map();
  for (const u of users) subjects.set(`user:${u.id}`, { name: u.name, email: u.email });
  for (const g of groups) subjects.set(`group:${g.id}`, { name: g.name, email: null });
  return subjects;
}

function presentSubject(row: ActivityRow, show: Shown, subjects: Subjects): TActivityEntry['subject'] {
  const ref = subjectOf(row);
  if (!ref) return null;
  if (ref.kind === 'workspace') return { kind: 'workspace', id: ref.id, name: null, email: null };
  const found = subjects.get(`${ref.kind}:${ref.id}`);
  const email = show.emails ? (found?.email ?? null) : null;
  // A person without a name goes by their address, to those who may see it.
  return { kind: ref.kind, id: ref.id, name: found ? found.name || email : null, email };
}

function present(row: ActivityRow, show: Shown, subjects: Subjects): TActivityEntry {
  const data = row.data ?? {};
  const recordedName = typeof data.name === 'string' ? data.name : null;
  const recordedKind = data.kind === 'folder' || data.kind === 'file' || data.kind === 'document' ? data.kind : null;
  return {
    id: String(row.id),
    at: new Date(row.created_at).toISOString(),
    actor: { kind: row.actor_kind, id: row.actor_user_id, name: row.actor_name, email: show.emails ? row.actor_email : null },
    action: row.action as TActivityAction,
    item: row.item_id ? { id: row.item_id, name: row.item_name ?? recordedName, kind: row.item_kind ?? recordedKind } : null,
    ip: show.origin ? row.ip : null,
    userAgent: show.origin ? row.user_agent : null,
    data: safeData(data),
    subject: presentSubject(row, show, subjects),
  };
}

/** `after`/`before` as given: a time, or a date (after: from the start of that day; before: up to its end, UTC). */
export function boundOf(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(Date.parse(`${value}T00:00:00Z`) + (end ? DAY : 0));
  return new Date(value);
}

async function page(db: Db, filter: ActivityFilter, limit: number, show: Shown, cursor: TActivityPosition | undefined): Promise<TActivityPage> {
  const rows = await findActivity(db, { ...filter, ...(cursor ? { beforeId: cursor.id } : {}) }, limit + 1);
  const more = rows.length > limit;
  const read = rows.slice(0, limit);
  // The cursor follows what was read: entries left out do not end the history early.
  const shown = read.filter((r) => !show.entry || show.entry(r));
  const subjects = await subjectsOf(db, shown);
  const items = shown.map((r) => present(r, show, subjects));
  return { items, nextCursor: more ? encodeCursor({ id: Number(read.at(-1)!.id) }) : null };
}

export interface WorkspaceActivityQuery {
  cursor?: TActivityPosition | undefined;
  limit: number;
  actorId?: string | undefined;
  action?: TActivityAction | undefined;
  itemId?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

function filterOf(workspaceId: string, q: WorkspaceActivityQuery): ActivityFilter {
  const after = boundOf(q.after, false);
  const before = boundOf(q.before, true);
  return {
    workspaceId,
    ...(q.actorId ? { actorId: q.actorId } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(q.itemId ? { itemId: q.itemId } : {}),
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
  };
}

/** `GET /workspaces/:ws/activity`: the audit log, newest first, for those who may read it (its owner and admins). */
export async function workspaceActivity(db: Db, actor: Actor, ws: string, q: WorkspaceActivityQuery): Promise<TActivityPage> {
  const workspace = await requireWorkspace(db, actor.user, ws, 'readAudit');
  return page(db, filterOf(workspace.id, q), q.limit, EVERYTHING, q.cursor);
}

const CSV_BATCH = 500;
const CSV_COLUMNS = [
  'Time',
  'Actor',
  'Actor email',
  'Actor kind',
  'Action',
  'Item id',
  'Item',
  'IP address',
  'User agent',
  'Details',
  'Subject',
  'Subject email',
];

/** One CSV cell, quoted; a cell a spreadsheet would read as a formula (= + - @, tab, return) starts with an apostrophe. */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * `GET /workspaces/:ws/activity?format=csv`: every matching entry as CSV lines, read in batches
 * by keyset as the file is sent. Access is checked before the first line.
 */
export async function workspaceActivityCsv(
  db: Db,
  actor: Actor,
  ws: string,
  q: WorkspaceActivityQuery,
): Promise<{ slug: string; lines: AsyncIterable<string> }> {
  const workspace = await requireWorkspace(db, actor.user, ws, 'readAudit');
  const filter = filterOf(workspace.id, q);
  async function* lines() {
    yield csvLine(CSV_COLUMNS);
    let beforeId: number | undefined;
    for (;;) {
      const rows = await findActivity(db, { ...filter, ...(beforeId !== undefined ? { beforeId } : {}) }, CSV_BATCH);
      const subjects = await subjectsOf(db, rows);
      for (const row of rows) {
        const e = present(row, EVERYTHING, subjects);
        yield csvLine([
          e.at,
          e.actor.name,
          e.actor.email,
          e.actor.kind,
          e.action,
          e.item?.id,
          e.item?.name,
          e.ip,
          e.userAgent,
          Object.keys(e.data).length ? e.data : '',
          e.subject?.name,
          e.subject?.email,
        ]);
      }
      if (rows.length < CSV_BATCH) return;
      beforeId = Number(rows.at(-1)!.id);
    }
  }
  return { slug: workspace.slug, lines: lines() };
}

/**
 * `GET /items/:id/activity`: whoever may see the item sees its history; network addresses and
 * browsers only those who read the workspace's audit log; people's addresses only those who see
 * its members (not guests, as elsewhere);
 * who it was shared with and its public links only those who may see who has access.
 */
export async function itemActivity(db: Db, actor: Actor, id: string, q: { cursor?: TActivityPosition | undefined; limit: number }): Promise<TActivityPage> {
  const access = await requireItem(db, actor, id, 'view');
  const membership = await findMembership(db, access.item.workspace_id, actor.user.id);
  // Whoever sees an item is in its workspace.
  if (!membership) throw new AppError('not_found');
  const may = workspaceAbilities(membership.role);
  const sharing = maySeeGrants(access);
  const show: Shown = {
    origin: may.readAudit,
    emails: may.seeMembers,
    ...(sharing ? {} : { entry: (r: ActivityRow) => r.action !== 'item.shared' && !r.action.startsWith('link.') }),
  };
  return page(db, { workspaceId: access.item.workspace_id, itemId: access.item.id }, q.limit, show, q.cursor);
}

/** Entries to delete in one statement, and statements in one run of the job (the rest waits for the next). */
const PRUNE_BATCH = 5000;
const PRUNE_BATCHES_PER_RUN = 200;

/** Deletes entries older than `retentionDays` (0: keeps everything), in bounded batches; answers how many. */
export async function pruneActivity(db: Db, retentionDays: number, o: { batch?: number; now?: number } = {}): Promise<number> {
  if (retentionDays <= 0) return 0;
  const batch = o.batch ?? PRUNE_BATCH;
  const cutoff = new Date((o.now ?? Date.now()) - retentionDays * DAY);
  let total = 0;
  for (let i = 0; i < PRUNE_BATCHES_PER_RUN; i++) {
    const deleted = await deleteActivityBefore(db, cutoff, batch);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
