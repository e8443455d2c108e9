import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { useTestApp } from '../../testing/test-app.ts';
import { folderPageQuery } from './items.repo.ts';

const test = useTestApp();

// PostgreSQL only: PGlite runs a marked statement as any other (ADR 0053).
it("a folder's ascending page is parsed and planned once per connection, then only run: a named statement under its generic plan, the settings for it not left set (ADR 0053)", async () => {
  const ada = await test.given.person('Ada');
  const folder = await test.given.folder(ada, ada.workspace.rootId, 'Kept');
  const query = folderPageQuery(folder.id, ada.id, { sort: 'name', order: 'asc', limit: 101 });
  const plans = await test.app.ctx.db.connection().execute(async (conn) => {
    const kept = async () =>
      (
        await sql<{ generic_plans: number; custom_plans: number }>`
          SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = ${query.compile(conn).sql}`.execute(conn)
      ).rows[0] ?? { generic_plans: 0, custom_plans: 0 };
    const before = await kept();
    for (let i = 0; i < 3; i++) await query.execute(conn);
    const after = await kept();
    // The settings it runs with are set around it alone: plan_cache_mode governs every statement with parameters.
    const settings = (await sql<{ mode: string; jit: string }>`SELECT current_setting('plan_cache_mode') AS mode, current_setting('jit') AS jit`.execute(conn))
      .rows[0]!;
    return { generic_plans: after.generic_plans - before.generic_plans, custom_plans: after.custom_plans, ...settings };
  });
  const { jit } = (await sql<{ jit: string }>`SELECT reset_val AS jit FROM pg_settings WHERE name = 'jit'`.execute(test.app.ctx.db)).rows[0]!;
  expect(plans).toEqual({ generic_plans: 3, custom_plans: 0, mode: 'auto', jit });
});
