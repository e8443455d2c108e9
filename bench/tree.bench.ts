import { uuidv7 } from '@cabinet/contracts';
import { sql } from 'kysely';
import { percentile, report } from './report.ts';
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
 * p95, with the SQL statements one listing runs; baseline: the same page's SQL run directly.
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

  const db = app.t.ctx.db;
  const raw = () => sql`SELECT * FROM items WHERE parent_id = ${big} AND state = 'active' ORDER BY (kind <> 'folder'), lower(name), id LIMIT 101`.execute(db);
  const first: number[] = [];
  const deepTimes: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    first.push(await timed(() => list()));
    deepTimes.push(await timed(() => list(deep)));
    baseline.push(await timed(raw));
  }
  const p95 = (xs: number[]) => percentile(xs, 95);
  report('list-100k first page p95', 'ms', [p95(first.slice(0, 100)), p95(first.slice(100))], [p95(baseline.slice(0, 100)), p95(baseline.slice(100))]);
  report('list-100k deep page p95', 'ms', [p95(deepTimes.slice(0, 100)), p95(deepTimes.slice(100))], [p95(baseline.slice(0, 100)), p95(baseline.slice(100))]);
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
