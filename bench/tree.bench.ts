import { uuidv7 } from '@cabinet/contracts';
import { sql } from 'kysely';
import { percentile, report } from './report.ts';
import { bareApi } from './bare-api.ts';
import { startBenchApp, type BenchApp } from './setup.ts';

const ITEMS = 100_000;
const DESCENDANTS = 10_000;
const SAMPLES = 200;

/** Inserts `count` folders under `parentId` in big batches of SQL (setting up, not measured). */
async function bulkFolders(app: BenchApp, parentId: string, count: number, prefix: string): Promise<string[]> {
  const ids = Array.from({ length: count }, () => uuidv7());
  const owner = (await app.raw('GET', '/me')).body.user.id as string;
  for (let i = 0; i < ids.length; i += 5000) {
    await app.t.ctx.db
      .insertInto('items')
      .values(
        ids.slice(i, i + 5000).map((id, k) => ({
          id,
          workspace_id: app.workspace.id,
          parent_id: parentId,
          kind: 'folder' as const,
          name: `${prefix} ${String(i + k).padStart(6, '0')}`,
          owner_id: owner,
          size_bytes: 0,
          updated_by: owner,
        })),
      )
      .execute();
  }
  // Measured as a folder whose indexing for search is long done: the search indexer is spared the new items (on PGlite
  // it indexed them on the server's own thread while the listings were timed: ten more statements a listing).
  await sql`DELETE FROM search_tasks WHERE item_id = ANY(${ids}::uuid[])`.execute(app.t.ctx.db);
  await sql`ANALYZE items`.execute(app.t.ctx.db);
  return ids;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * (d) list-100k: the first page and a deep keyset page of a 100,000-item folder through the API,
 * p95, with the SQL statements one listing runs; baseline: the same page through a bare Fastify route on the same
 * database (one indexed query for the token's user, the keyset SELECT, the rows as JSON, compressed), same client.
 * (f) move-10k: moving a folder that holds 10,000 descendants; baseline: renaming a folder
 * (one row either way: the tree is parent pointers, so a move rewrites no paths).
 * Meant for PostgreSQL (DATABASE_URL); PGlite works too.
 */
export default async function tree() {
  const app = await startBenchApp();
  const big = (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name: 'Big', parentId: app.workspace.homeId })).body
    .id as string;
  await bulkFolders(app, big, ITEMS, 'item');
  const list = (cursor?: string) => app.raw('GET', `/workspaces/${app.workspace.id}/items/${big}/children?limit=100${cursor ? `&cursor=${cursor}` : ''}`);

  // A deep cursor: walk to page 900 once, with big pages.
  let deep: string | undefined;
  for (let page = 0, cursor: string | undefined; page < 90; page++) {
    const res = await app.raw('GET', `/workspaces/${app.workspace.id}/items/${big}/children?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = res.body.nextCursor;
    deep = cursor;
  }
  app.takeStatements();
  await list();
  const firstStatements = app.takeStatements();
  await list(deep);
  const deepStatements = app.takeStatements();

  // Baseline: the same page through a bare API on the same database and driver, called by the same client: the token's
  // user read in one indexed query, then the page's keyset SELECT (no access, no previews), the rows answered as JSON
  // with a cursor, compressed as Cabinet compresses. The page's SELECT alone is printed beside, for the record.
  const db = app.t.ctx.db;
  const page = (after?: { f: boolean; k: string; i: string }) =>
    sql<Record<string, unknown> & { kind: string; name: string; id: string }>`SELECT * FROM items WHERE parent_id = ${big} AND state = 'active'
      ${after ? sql`AND ((kind <> 'folder'), lower(name), id) > (${after.f}, ${after.k}, ${after.i}::uuid)` : sql``}
      ORDER BY (kind <> 'folder'), lower(name), id LIMIT 101`.execute(db);
  const bare = await bareApi(db, (api, authenticate) =>
    api.get<{ Querystring: { cursor?: string } }>('/children', async (req, reply) => {
      if (!(await authenticate(req))) return reply.code(401).send({ code: 'unauthenticated' });
      const after = req.query.cursor ? JSON.parse(Buffer.from(req.query.cursor, 'base64url').toString()) : undefined;
      const { rows } = await page(after);
      const items = rows.slice(0, 100);
      const last = items.at(-1);
      const nextCursor =
        rows.length > 100 && last
          ? Buffer.from(JSON.stringify({ f: last.kind !== 'folder', k: last.name.toLowerCase(), i: last.id })).toString('base64url')
          : null;
      return { items, nextCursor };
    }),
  );
  const bareList = async (cursor?: string) => {
    const res = await fetch(`${bare.url}/children${cursor ? `?cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${app.token}` } });
    return { status: res.status, body: (await res.json()) as { items: unknown[]; nextCursor: string | null } };
  };
  // The bare API's cursor to the same deep page: the same walk, 90 pages of 1,000 there being 900 of 100 here.
  let bareDeep: string | undefined;
  for (let i = 0; i < 900; i++) bareDeep = (await bareList(bareDeep)).body.nextCursor ?? undefined;
  const [ours, theirs] = [await list(deep), await bareList(bareDeep)];
  if (ours.body.items[0].id !== (theirs.body.items[0] as { id: string }).id) throw new Error('The baseline’s deep page is another page.');
  console.log(`  a page's answer: ${JSON.stringify(ours.body).length} B of JSON (the baseline's ${JSON.stringify(theirs.body).length} B)`);

  const first: number[] = [];
  const deepTimes: number[] = [];
  const bareFirst: number[] = [];
  const bareDeepTimes: number[] = [];
  const select: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    first.push(await timed(() => list()));
    bareFirst.push(await timed(() => bareList()));
    deepTimes.push(await timed(() => list(deep)));
    bareDeepTimes.push(await timed(() => bareList(bareDeep)));
    select.push(await timed(() => page()));
  }
  const p95 = (xs: number[]) => percentile(xs, 95);
  const halves = (xs: number[]) => [p95(xs.slice(0, SAMPLES / 2)), p95(xs.slice(SAMPLES / 2))];
  report('list-100k first page p95', 'ms', halves(first), halves(bareFirst));
  report('list-100k deep page p95', 'ms', halves(deepTimes), halves(bareDeepTimes));
  const median = (xs: number[]) => percentile(xs, 50).toFixed(3);
  console.log(
    `  medians: first page ${median(first)} ms (baseline ${median(bareFirst)}), deep page ${median(deepTimes)} ms (baseline ${median(bareDeepTimes)})`,
  );
  console.log(`  the page's SELECT alone, in process: p95 ${p95(select).toFixed(3)} ms, median ${median(select)} ms`);
  await bare.close();
  console.log(`  SQL statements per listing (authentication included): first page ${firstStatements.length}, deep page ${deepStatements.length}`);
  for (const statement of deepStatements) console.log(`    ${statement.replace(/\s+/g, ' ').trim().slice(0, 120)}…`);

  // move-10k: a folder holding 10,000 descendants (100 folders of 99 each), moved back and forth.
  const tree = (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name: 'Tree', parentId: app.workspace.homeId })).body
    .id as string;
  const branches = await bulkFolders(app, tree, 100, 'branch');
  for (const b of branches) await bulkFolders(app, b, DESCENDANTS / 100 - 1, 'leaf');
  const a = (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name: 'A', parentId: app.workspace.homeId })).body.id as string;
  const b = (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name: 'B', parentId: app.workspace.homeId })).body.id as string;
  const moves: number[] = [];
  const renames: number[] = [];
  for (let i = 0; i < 20; i++) {
    moves.push(
      await timed(async () => {
        const res = await app.raw('PATCH', `/items/${tree}`, { parentId: i % 2 ? a : b });
        if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      }),
    );
    renames.push(await timed(() => app.raw('PATCH', `/items/${tree}`, { name: `Tree ${i}` })));
  }
  report('move-10k', 'ms', moves, renames);
  await app.close();
}
