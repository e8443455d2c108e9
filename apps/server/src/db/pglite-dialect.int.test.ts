import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { plannedOnce } from './planned-once.ts';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

describe('the database driver', () => {
  it('lets timers and sockets have their turn while statements run one after another', async () => {
    // PGlite answers through promises alone: a chain of statements used to hold the event loop until it ended (ADR 0049).
    let fired = false;
    setTimeout(() => (fired = true), 0);
    let statements = 0;
    while (!fired && statements < 200) {
      await sql`SELECT 1`.execute(test.database.db);
      statements++;
    }
    expect(fired).toBe(true);
    expect(statements).toBeLessThan(200);
  });

  it('keeps a statement marked plannedOnce on its connection, answering as unmarked, and runs it unnamed once a table it reads changed shape (ADR 0053, 0071)', async () => {
    const found = await test.database.db.connection().execute(async (conn) => {
      await sql`CREATE TEMP TABLE kept_rows (id int PRIMARY KEY, name text, at timestamptz, sizes bigint[])`.execute(conn);
      await sql`INSERT INTO kept_rows VALUES (1, 'one', '2026-01-02T03:04:05Z', '{1,2}'), (2, 'two', NULL, NULL)`.execute(conn);
      const read = async (id: number) => (await sql<Record<string, unknown>>`${plannedOnce}SELECT * FROM kept_rows WHERE id = ${id}`.execute(conn)).rows;
      const unmarked = [
        ...(await sql<Record<string, unknown>>`SELECT * FROM kept_rows WHERE id = ${1}`.execute(conn)).rows,
        ...(await sql<Record<string, unknown>>`SELECT * FROM kept_rows WHERE id = ${2}`.execute(conn)).rows,
      ];
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push([...(await read(1)), ...(await read(2))]);
      const { rows: kept } = await sql<{ generic: number }>`
        SELECT generic_plans::int AS generic FROM pg_prepared_statements WHERE statement ~ ${String.raw`^/\* planned once \*/ ?SELECT \* FROM kept_rows`}`.execute(
        conn,
      );
      await sql`ALTER TABLE kept_rows ADD COLUMN note text`.execute(conn);
      const changed = await read(1);
      await sql`DROP TABLE kept_rows`.execute(conn);
      return { unmarked, answers, kept, changed };
    });
    expect(found.unmarked).toHaveLength(2);
    for (const answer of found.answers) expect(answer).toEqual(found.unmarked);
    expect(found.kept).toHaveLength(1);
    expect(found.kept[0]!.generic).toBeGreaterThanOrEqual(3);
    expect(found.changed).toEqual([{ ...found.unmarked[0], note: null }]);
  });
});
