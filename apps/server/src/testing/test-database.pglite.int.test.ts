import type { PGlite } from '@electric-sql/pglite';
import { expect, it } from 'vitest';
import { given } from './given.ts';
import { startTestApp } from './test-app.ts';
import { createTestDatabase, templateCopy } from './test-database.ts';

type Query = (sql: string) => Promise<unknown[]>;

/** All a file could leave behind in a database: rows, sequences, the session, statistics, and the schema itself. */
async function stateOf(q: Query) {
  const tables = (await q(
    `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
  )) as { name: string }[];
  const rows: Record<string, unknown> = {};
  for (const { name } of tables) rows[name] = await q(`SELECT coalesce(json_agg(t ORDER BY t::text), '[]') AS rows FROM ${name} t`);
  return {
    rows,
    sequences: await q(`SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`),
    session: await q(`SELECT current_setting('enable_seqscan') AS seqscan, (SELECT count(*) FROM pg_listening_channels()) AS channels,
      (SELECT count(*) FROM pg_prepared_statements) AS prepared, (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory') AS advisory,
      (SELECT count(*) FROM pg_class WHERE relpersistence = 't') AS temporary`),
    statistics: await q(
      `SELECT count(*) AS n FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`,
    ),
    schema: await q(`SELECT
      (SELECT string_agg(c.relname || ':' || c.relkind::text || ':' || c.reltuples::text, ',' ORDER BY c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public') AS relations,
      (SELECT string_agg(p.proname, ',' ORDER BY p.proname) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public') AS functions,
      (SELECT string_agg(t.tgname, ',' ORDER BY t.tgname) FROM pg_trigger t WHERE NOT t.tgisinternal) AS triggers`),
  };
}
const queryOf =
  (pglite: PGlite): Query =>
  async (sql) =>
    (await pglite.query(sql)).rows;

it('hands a finished file’s PGlite database to the next file as the template left it, and the first file’s handle no longer reaches it', async () => {
  const app = await startTestApp();
  const g = given(app.ctx, app.url);
  const ada = await g.person('Ada');
  const folder = await g.folder(ada, ada.workspace.rootId, 'Plans');
  await g.upload(ada, folder.id, 'notes.txt', new TextEncoder().encode('some words'));
  // What a careless file could leave: a setting, statistics, a lock, a prepared statement, a temporary table, a
  // listener never unlistened, and a transaction never ended.
  const used = app.db.database;
  const heard: string[] = [];
  await used.listen('left_behind', (payload) => heard.push(payload));
  for (const statement of [
    'SET enable_seqscan = off',
    'ANALYZE',
    'SELECT pg_advisory_lock(42)',
    `PREPARE left_behind AS SELECT 1`,
    'CREATE TEMPORARY TABLE left_behind (x int)',
    'BEGIN',
    `UPDATE items SET name = 'half-written'`,
  ])
    await used.sql.query(statement);
  await app.close();

  // The first file's handle is gone for good.
  await expect(used.sql.query('SELECT 1')).rejects.toThrow(/handed back/);

  const next = await createTestDatabase();
  const fresh = await templateCopy();
  try {
    const q: Query = (sql) => next.database.sql.query(sql);
    expect(await stateOf(q)).toEqual(await stateOf(queryOf(fresh)));
    // The next file's notices reach the next file alone.
    const mine: string[] = [];
    const unlisten = await next.database.listen('left_behind', (payload) => mine.push(payload));
    await q(`NOTIFY left_behind, 'for the next file'`);
    await expect.poll(() => mine).toEqual(['for the next file']);
    expect(heard).toEqual([]);
    await unlisten();
  } finally {
    await fresh.close();
    await next.drop();
  }
});
