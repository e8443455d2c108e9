import { expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { given } from './given.ts';
import { startTestApp } from './test-app.ts';
import { createTestDatabase, templateCopy } from './test-database.ts';

/** All a file could leave behind in a database: every table's rows, the sequences, the session, the planner's statistics. */
async function stateOf(database: Database) {
  const q = database.sql.query.bind(database.sql);
  const tables = await q<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
  );
  const rows: Record<string, unknown> = {};
  for (const { name } of tables)
    rows[name] = (await q<{ rows: unknown }>(`SELECT coalesce(json_agg(t ORDER BY t::text), '[]') AS rows FROM ${name} t`))[0]!.rows;
  return {
    rows,
    sequences: await q(`SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`),
    session: await q(`SELECT current_setting('enable_seqscan') AS seqscan, (SELECT count(*) FROM pg_listening_channels()) AS channels`),
    statistics: await q(
      `SELECT count(*) AS n FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`,
    ),
  };
}

it('hands a finished file’s PGlite database to the next file as the template left it: rows, sequences, session and statistics', async () => {
  const app = await startTestApp();
  const g = given(app.ctx, app.url);
  const ada = await g.person('Ada');
  const folder = await g.folder(ada, ada.workspace.rootId, 'Plans');
  await g.upload(ada, folder.id, 'notes.txt', new TextEncoder().encode('some words'));
  const used = app.db.database;
  await used.sql.query('SET enable_seqscan = off');
  await used.sql.query('ANALYZE');
  await used.sql.query('BEGIN');
  await used.sql.query(`UPDATE items SET name = 'half-written'`);
  await app.close();

  const next = await createTestDatabase();
  expect(next.database).toBe(used);
  const fresh = await templateCopy();
  try {
    expect(await stateOf(next.database)).toEqual(await stateOf(fresh));
  } finally {
    await fresh.close();
    await next.drop();
  }
});
