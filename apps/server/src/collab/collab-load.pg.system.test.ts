import { itemsApi } from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppBehindProxy, type AppBehindProxy } from '../testing/app-behind-proxy.ts';
import { addParagraph, collabClients, until } from '../testing/collab-client.ts';
import { given } from '../testing/given.ts';
import type { TestApp } from '../testing/test-app.ts';

/**
 * A server with a pool of two connections, reaching PostgreSQL through a relay that can be cut.
 * Many editors leave at once while the pool is busy, or while the database is away: the process
 * stays up (an unhandled rejection would fail this run), and every edit is stored in the end.
 */
let behind: AppBehindProxy;
let proxy: AppBehindProxy['proxy'];
let direct: AppBehindProxy['direct'];
let t: TestApp;
let clients: ReturnType<typeof collabClients>;

beforeAll(async () => {
  // Every editor here comes from one address: the cap on sockets per address is lifted.
  behind = await startAppBehindProxy({ DATABASE_POOL_SIZE: '2', COLLAB_SOCKETS_PER_ADDRESS: '1000' });
  ({ proxy, direct, t } = behind);
  clients = collabClients(t.url);
});
afterAll(async () => {
  clients.destroyAll();
  await behind.close();
});

/** `n` editors, each with a document of their own open, each having typed a line the server has. */
async function editorsAtWork(n: number, label: string) {
  const g = given(t.ctx, t.url);
  const ada = await g.person('Ada');
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(
      (await ada.call(itemsApi.create, { params: { ws: ada.workspace.id }, body: { kind: 'document', name: `${label} ${i}`, parentId: ada.workspace.homeId } }))
        .body.id,
    );
  const editors = ids.map((id) => clients.connect(id, ada.token));
  await until(() => editors.every((e) => e.outcome.synced), 'every editor to sync', 60_000);
  const lines = ids.map((_, i) => `${label}: the line of editor ${i}`);
  editors.forEach((e, i) => addParagraph(e.document, lines[i]!));
  await until(() => editors.every((e) => e.provider.unsyncedChanges === 0), 'every edit to reach the server', 60_000);
  return { ada, ids, editors, lines };
}

/** What the database holds for these documents (read past the relay): stored text, and how many revisions. */
async function stored(ids: string[]) {
  const db = direct.database.db;
  const texts = await db.selectFrom('document_contents').select(['item_id', 'text']).where('item_id', 'in', ids).execute();
  const revisions = await db.selectFrom('document_revisions').select(['item_id', 'text']).where('item_id', 'in', ids).execute();
  const byId = new Map(texts.map((r) => [r.item_id, r.text]));
  const revised = new Map(revisions.map((r) => [r.item_id, r.text]));
  return { texts: ids.map((id) => byId.get(id) ?? null), revisions: ids.map((id) => revised.get(id) ?? null) };
}

describe('editors leaving at once', () => {
  it('120 leave while the pool is held busy longer than a connection is waited for: all queue, all is stored', async () => {
    const { ids, editors, lines } = await editorsAtWork(120, 'storm');
    // Both pool connections held for longer than the pool's five-second wait.
    const held = Promise.all([0, 1].map(() => sql`SELECT pg_sleep(7)`.execute(t.ctx.db)));
    await new Promise((r) => setTimeout(r, 200));
    for (const e of editors) e.provider.destroy();
    await held;
    await expect.poll(() => stored(ids), { timeout: 90_000, interval: 1000 }).toEqual({ texts: lines, revisions: lines });
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
  }, 180_000);

  it('100 leave while PostgreSQL is unreachable: the server stays up, and once it is back every edit and revision is stored', async () => {
    const { ada, ids, editors, lines } = await editorsAtWork(100, 'outage');
    // Typed; leaving saves what is not saved yet, and records a revision.
    const before = await stored(ids);
    await proxy.down();
    for (const e of editors) e.provider.destroy();
    // Well after the saves were due (two seconds), the process is up and answering.
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect(await stored(ids)).toEqual(before);

    await proxy.up();
    await expect.poll(() => stored(ids), { timeout: 90_000, interval: 1000 }).toEqual({ texts: lines, revisions: lines });
    // And a document opened again serves what was typed before the outage.
    const again = clients.connect(ids[0]!, ada.token);
    await until(() => again.outcome.synced, 'a later editor to sync', 30_000);
    expect(documentText(again.document)).toBe(lines[0]);
  }, 180_000);
});

describe('editors arriving while the database is slow', () => {
  it('keeps a socket whose authentication is still being looked at past the deadline, and opens its document once the database answers', async () => {
    const g = given(t.ctx, t.url);
    const ada = await g.person('Ada');
    const { id } = await g.document(ada, ada.workspace.homeId, 'Slow morning');
    // The tokens' table locked for longer than a socket's 10 s deadline: the editor's authentication waits on it.
    const db = direct.database.db;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let taken!: () => void;
    const isTaken = new Promise<void>((r) => (taken = r));
    const locked = db.transaction().execute(async (tx) => {
      await sql`LOCK TABLE api_tokens IN ACCESS EXCLUSIVE MODE`.execute(tx);
      taken();
      await released;
    });
    await isTaken;
    try {
      const editor = clients.connect(id, ada.token);
      await new Promise((r) => setTimeout(r, 12_000));
      expect(editor.outcome.closed).toBeUndefined();
      expect(editor.outcome.synced).toBe(false);
      release();
      await locked;
      await until(() => editor.outcome.synced, 'the editor to sync once the database answers', 30_000);
      expect(editor.outcome.closed).toBeUndefined();
      expect(editor.outcome.failed).toBeUndefined();
    } finally {
      release();
      await locked.catch(() => {});
    }
  }, 60_000);
});
