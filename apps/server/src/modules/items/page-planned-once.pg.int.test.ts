import { DEFAULT_PAGE } from '@cabinet/contracts';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { useTestApp } from '../../testing/test-app.ts';
import { findAccess, findAccessMany, folderPageQuery } from './items.repo.ts';

const test = useTestApp();
/** The text of an item's access as it is kept. */
const ACCESS = String.raw`^/\* planned once \*/\s+WITH RECURSIVE chain`;

// PostgreSQL only: PGlite runs a marked statement as any other (ADR 0053).
it("a folder's ascending page of a usual size, and one item's access, are parsed once per connection and keep their generic plan, with no setting of the connection's changed (ADR 0053)", async () => {
  const ada = await test.given.person('Ada');
  const folder = await test.given.folder(ada, ada.workspace.rootId, 'Kept');
  const db = test.app.ctx.db;
  const found = await db.connection().execute(async (conn) => {
    /** How often the connection planned the statement whose text matches `pattern`: for its values, and generically. */
    const plansOf = async (pattern: string) => {
      const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
        SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement ~ ${pattern}`.execute(conn);
      expect(rows.length, 'one kept statement').toBe(1);
      // Planned for its values five times at most (and fewer if the connection ran it before), then kept generic.
      return { custom: rows[0]!.custom_plans <= 5, generic: rows[0]!.generic_plans >= 3 };
    };
    const page = folderPageQuery(folder.id, ada.id, { sort: 'name', order: 'asc', limit: DEFAULT_PAGE + 1 });
    // PostgreSQL plans a kept statement for its values five times, then keeps its generic plan if it costs no more.
    for (let i = 0; i < 8; i++) {
      await page.execute(conn);
      await findAccess(conn, folder.id, ada.id);
    }
    const settings = (await sql<{ mode: string; jit: string }>`SELECT current_setting('plan_cache_mode') AS mode, current_setting('jit') AS jit`.execute(conn))
      .rows[0]!;
    return {
      page: await plansOf(String.raw`^/\* planned once \*/\s+WITH folder AS MATERIALIZED`),
      access: await plansOf(ACCESS),
      ...settings,
    };
  });
  const { jit } = (await sql<{ jit: string }>`SELECT reset_val AS jit FROM pg_settings WHERE name = 'jit'`.execute(db)).rows[0]!;
  expect(found).toEqual({ page: { custom: true, generic: true }, access: { custom: true, generic: true }, mode: 'auto', jit });
});

it("a search's page of items with their parents is parsed once per connection and keeps its generic plan (ADR 0053)", async () => {
  const ada = await test.given.person('Ada');
  const ids: string[] = [];
  for (const name of ['North', 'South', 'East', 'West']) {
    const folder = await test.given.folder(ada, ada.workspace.rootId, name);
    for (let i = 0; i < 5; i++) ids.push((await test.given.folder(ada, folder.id, `${name} ${i}`)).id);
  }
  const found = await test.app.ctx.db.connection().execute(async (conn) => {
    let answered = 0;
    for (let i = 0; i < 8; i++) answered = (await findAccessMany(conn, ids, ada.id, { parents: true })).size;
    const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
      SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement ~ ${String.raw`^/\* planned once \*/\s+WITH RECURSIVE asked`}`.execute(
      conn,
    );
    return { answered, kept: rows.length, generic: (rows[0]?.generic_plans ?? 0) >= 3 };
  });
  // Twenty items and their four parents.
  expect(found).toEqual({ answered: 24, kept: 1, generic: true });
});

it('a page of another size, or descending, is planned for its values each time: a connection keeps no statement for it', async () => {
  const ada = await test.given.person('Ada');
  const folder = await test.given.folder(ada, ada.workspace.rootId, 'Not kept');
  for (const o of [
    { sort: 'name', order: 'asc', limit: 37 },
    { sort: 'name', order: 'desc', limit: DEFAULT_PAGE + 1 },
  ] as const) {
    const text = folderPageQuery(folder.id, ada.id, o).compile(test.app.ctx.db).sql;
    expect(text.startsWith('/* planned once */'), `${o.order}, ${o.limit}`).toBe(false);
  }
});

it("an item's access read in a transaction is not kept: a kept statement the server refused there would end the write", async () => {
  const ada = await test.given.person('Ada');
  const folder = await test.given.folder(ada, ada.workspace.rootId, 'In a transaction');
  await test.app.ctx.db.transaction().execute(async (tx) => {
    const runs = async () =>
      (
        await sql<{
          n: number;
        }>`SELECT coalesce(sum(generic_plans + custom_plans), 0)::int AS n FROM pg_prepared_statements WHERE statement ~ ${ACCESS}`.execute(tx)
      ).rows[0]!.n;
    const before = await runs();
    expect((await findAccess(tx, folder.id, ada.id))?.id).toBe(folder.id);
    expect((await findAccess(tx, folder.id, ada.id))?.id).toBe(folder.id);
    expect(await runs()).toBe(before);
  });
});
