import { randomBytes } from 'node:crypto';
import { DEFAULT_PAGE, itemsApi, urlOf, uuidv7, type ResponseOf } from '@cabinet/contracts';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.ts';
import type { Person } from '../../testing/given.ts';
import { statementsOf } from '../../testing/statements.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { insertSession } from '../sessions/sessions.repo.ts';
import { findFolderPage, folderPageQuery, type ChildSort } from './items.repo.ts';

const test = useTestApp();

/** A session of `person`'s, as signing in starts it, for sending its cookie. */
async function sessionOf(person: Person): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await insertSession(test.app.ctx.db, {
    tokenHash: sha256(token),
    userId: person.id,
    userAgent: null,
    ip: null,
    expiresAt: new Date(Date.now() + 86_400_000),
    idTokenSealed: null,
    refreshTokenSealed: null,
  });
  return token;
}

/** One page of a folder's children and the statements answering it took, authentication included. */
async function listing(headers: Record<string, string>, ws: string, folderId: string, cursor?: string) {
  const { result, statements } = await statementsOf(() =>
    test.app.app.inject({ method: 'GET', url: urlOf(itemsApi.children, { ws, id: folderId }, { limit: 2, cursor }), headers }),
  );
  expect(result.statusCode, result.body).toBe(200);
  return { page: result.json<ResponseOf<typeof itemsApi.children>>(), statements };
}

describe('a folder listing', () => {
  it('is at most two statements, authentication included, for the first page and a deep one, by session and by API token', async () => {
    const ada = await test.given.person('Ada');
    const guest = await test.given.person('Gus');
    await test.given.membership(guest, ada.workspace.id, 'guest');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Big');
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await test.given.folder(ada, folder.id, name);
    await test.given.grant(folder.id, { user: guest }, 'viewer');
    const callers = {
      session: { cookie: `cabinet_session=${await sessionOf(ada)}` },
      'API token': { authorization: `Bearer ${ada.token}` },
      "a guest's API token": { authorization: `Bearer ${guest.token}` },
    };
    for (const [caller, headers] of Object.entries(callers)) {
      // A token's first use of the minute notes that it was used (a write, once a minute); listings after it only read.
      await listing(headers, ada.workspace.id, folder.id);
      const first = await listing(headers, ada.workspace.id, folder.id);
      expect(first.page.items.map((i) => i.name)).toEqual(['a', 'b']);
      expect(first.statements.length, `${caller}, first page:\n${first.statements.join('\n\n')}`).toBeLessThanOrEqual(2);
      let cursor = first.page.nextCursor!;
      for (let page = 0; page < 2; page++) cursor = (await listing(headers, ada.workspace.id, folder.id, cursor)).page.nextCursor!;
      const deep = await listing(headers, ada.workspace.id, folder.id, cursor);
      expect(deep.page.items.map((i) => i.name)).toEqual(['g']);
      expect(deep.statements.length, `${caller}, deep page:\n${deep.statements.join('\n\n')}`).toBeLessThanOrEqual(2);
    }
  });
});

const onPostgres = process.env.TEST_DATABASE === 'postgres';

/**
 * The plan of a page's statement as the app runs it: on PostgreSQL, of a statement planned once (ADR 0053), the generic
 * plan its connections keep after planning it five times, made here by PREPARE; else planned for the values. Either
 * way, never compiled by JIT (a generic plan whose estimate passed jit_above_cost was compiled at every run: 2 s).
 */
async function planOf(query: ReturnType<typeof folderPageQuery>): Promise<unknown> {
  const plannedOnce = query.compile(test.app.ctx.db).sql.startsWith('/* planned once */');
  const plan = async (): Promise<unknown> => {
    if (!onPostgres || !plannedOnce)
      return (await sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query}`.execute(test.app.ctx.db)).rows[0]!['QUERY PLAN'];
    return test.app.ctx.db.connection().execute(async (conn) => {
      const compiled = query.compile(conn);
      await conn.executeQuery(CompiledQuery.raw(`PREPARE page AS ${compiled.sql}`));
      await conn.executeQuery(CompiledQuery.raw('SET plan_cache_mode = force_generic_plan'));
      try {
        // EXECUTE under EXPLAIN takes no bound values: they are written out, each as the literal of its text form.
        const literal = (v: unknown) =>
          v === null ? 'NULL' : `'${(Array.isArray(v) ? `{${v.join(',')}}` : v instanceof Date ? v.toISOString() : String(v)).replace(/'/g, "''")}'`;
        const explained = `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE page(${compiled.parameters.map(literal).join(', ')})`;
        return ((await conn.executeQuery(CompiledQuery.raw(explained))).rows[0] as { 'QUERY PLAN': unknown })['QUERY PLAN'];
      } finally {
        await conn.executeQuery(CompiledQuery.raw('RESET plan_cache_mode; DEALLOCATE page'));
      }
    });
  };
  const raw = await plan();
  expect(JSON.stringify(raw), 'compiled by JIT').not.toContain('"JIT"');
  return raw;
}

/** Buffers the statement's index scans of a folder's children touched (index and table pages), from its plan. */
async function childrenScanBuffers(query: ReturnType<typeof folderPageQuery>): Promise<number> {
  const raw = await planOf(query);
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  type PlanNode = { 'Index Name'?: string; 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; Plans?: PlanNode[] };
  let blocks = 0;
  const visit = (node: PlanNode) => {
    if (node['Index Name']?.startsWith('items_children_')) blocks += (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
    else node.Plans?.forEach(visit);
  };
  visit(plan[0].Plan);
  expect(blocks, 'the page is read through a children index').toBeGreaterThan(0);
  return blocks;
}

describe("a deep page of a big folder's children", () => {
  it('reads the index from its cursor on, as few pages as the first page, by every sort and order (on PostgreSQL, under the plan its connections keep)', async () => {
    const ada = await test.given.person('Ada');
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Big');
    const count = 3000;
    for (const kind of ['folder', 'document'] as const) {
      const rows = Array.from({ length: count }, (_, i) => ({
        id: uuidv7(),
        workspace_id: ada.workspace.id,
        parent_id: folder.id,
        kind,
        name: `${kind} ${String(i).padStart(5, '0')}`,
        owner_id: ada.id,
        size_bytes: i * 7,
        updated_by: ada.id,
        updated_at: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      }));
      // Only the listing is under test: the search indexer is spared the documents' (empty) text, in the same transaction.
      await test.app.ctx.db.transaction().execute(async (tx) => {
        for (let i = 0; i < rows.length; i += 1000)
          await tx
            .insertInto('items')
            .values(rows.slice(i, i + 1000))
            .execute();
        await sql`DELETE FROM search_tasks WHERE item_id IN (SELECT id FROM items WHERE parent_id = ${folder.id})`.execute(tx);
      });
    }
    await sql`ANALYZE items`.execute(test.app.ctx.db);
    for (const sort of ['name', 'modified', 'size', 'type'] as ChildSort[]) {
      for (const order of ['asc', 'desc'] as const) {
        // A page of 100 and the row after it, as the API reads one (the size planned once).
        const o = { sort, order, limit: DEFAULT_PAGE + 1 };
        const first = await childrenScanBuffers(folderPageQuery(folder.id, ada.id, o));
        // Index and table pages of at most two scans of a page each (descending reads the folders and the files apart),
        // against the whole index when a sort cannot start or stop where the page does.
        expect(first, `${sort} ${order}, first page`).toBeLessThanOrEqual(20);
        // Cursors deep in the folders and deep in the files.
        let after: [boolean, string, string] | undefined;
        for (let page = 1; page <= 5; page++) {
          const { children } = await findFolderPage(test.app.ctx.db, folder.id, ada.id, { ...o, limit: 1000, after });
          const last = children.at(-1)!;
          after = [last.kind !== 'folder', last.sort_key, last.id];
          if (page !== 2 && page !== 5) continue;
          const deep = await childrenScanBuffers(folderPageQuery(folder.id, ada.id, { ...o, after }));
          expect(deep, `${sort} ${order}, after ${page * 1000} items: ${deep} buffers against ${first} for the first page`).toBeLessThanOrEqual(first + 4);
        }
      }
    }
  });
});
