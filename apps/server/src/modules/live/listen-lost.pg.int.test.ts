import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { watch } from '../../testing/event-watch.ts';
import { useTestApp } from '../../testing/test-app.ts';

// PostgreSQL only: two instances on one database, each with its own LISTEN connection, and a way to take that
// connection away (pg_terminate_backend), which the embedded database has neither of.
const first = useTestApp();
const second = useTestApp({}, () => ({ db: first.app.db }));

it('tells watchers to look again when an instance lost its LISTEN connection for a while', async () => {
  const ada = await first.given.person();
  const stream = await watch(second.app.url, ada, ada.workspace.id);
  const before = await first.given.folder(ada, ada.workspace.rootId, 'Before');
  await stream.until((e) => e.itemId === before.id);
  const resets = stream.order.filter((m) => m === 'reset').length;
  // Every LISTEN connection on this test's database goes: each instance reconnects and says so.
  await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`.execute(first.app.ctx.db);
  await expect.poll(() => stream.order.filter((m) => m === 'reset').length, { timeout: 15_000 }).toBeGreaterThan(resets);
  const after = await first.given.folder(ada, ada.workspace.rootId, 'After');
  await stream.until((e) => e.itemId === after.id);
  await stream.close();
});
