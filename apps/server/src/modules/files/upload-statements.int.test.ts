import { createHash, randomBytes } from 'node:crypto';
import { uploadsApi, urlOf, type ResponseOf } from '@cabinet/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Person } from '../../testing/given.ts';
import { statementsOf } from '../../testing/statements.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp();
const FILES = 8;
const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A JSON call of `person`'s, handled in the caller's context so that its statements count (statements.ts). */
const inject = (person: Person, url: string, body: unknown) =>
  test.app.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

/** PUTs a one-part upload's bytes to the URL its start answered with. */
async function putOnlyPart(upload: { parts: { url: string }[] }, bytes: Buffer): Promise<void> {
  const url = new URL(upload.parts[0]!.url);
  const res = await test.app.app.inject({
    method: 'PUT',
    url: url.pathname + url.search,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A person whose token has been used this minute: its first use of the minute notes so (a write, once a minute), the calls counted after it only read it. */
async function person(): Promise<Person> {
  const ada = await test.given.person('Ada');
  expect((await inject(ada, urlOf(uploadsApi.startMany, { ws: ada.workspace.id }), { uploads: [] })).statusCode).toBe(400);
  return ada;
}

/** How many transactions the statements made (a batch is one). */
const transactions = (statements: string[]) => statements.filter((s) => s.trim().toLowerCase() === 'commit').length;

/** How many batches of starts opened their uploads in one statement (ADR 0076). */
const openings = (statements: string[]) => statements.filter((s) => s.includes('INSERT INTO uploads')).length;

const files = () => Array.from({ length: FILES }, (_, i) => ({ name: `small-${i}.bin`, bytes: randomBytes(10 * 1024) }));

describe('a small upload', () => {
  it('costs, when each file makes its own three calls at once, a few batches’ statements besides each call’s authentication', async () => {
    const ada = await person();
    const batch = files();
    const started = await statementsOf(() =>
      Promise.all(
        batch.map((f) =>
          inject(ada, urlOf(uploadsApi.start, { ws: ada.workspace.id }), {
            parentId: ada.workspace.homeId,
            name: f.name,
            size: f.bytes.length,
            onConflict: 'keep_both',
          }),
        ),
      ),
    );
    const uploads = started.result.map((r) => {
      expect(r.statusCode, r.body).toBe(201);
      return r.json<ResponseOf<typeof uploadsApi.start>>();
    });
    // One statement a call authenticates it; the starts go in batches of 2 statements (the folders' access, then the uploads
    // opened in one statement, as they fit: ADR 0076), none a transaction. How many batches
    // depends on when each call's authentication ends (the calls of one turn, then those arriving meanwhile: lib/group-calls.test.ts),
    // so it is bounded loosely: some calls share a batch. A busy machine spreads the authentications out (a CI machine running
    // twice as slow as usual made 5 batches of 8 calls); the grouping itself is held exactly by lib/group-calls.test.ts.
    const startBatches = openings(started.statements);
    expect(startBatches).toBeLessThan(FILES);
    expect(transactions(started.statements)).toBe(0);
    expect(started.statements.length, started.statements.join('\n\n')).toBeLessThanOrEqual(FILES + startBatches * 2);
    await Promise.all(uploads.map((u, i) => putOnlyPart(u, batch[i]!.bytes)));
    const completed = await statementsOf(() =>
      Promise.all(uploads.map((u, i) => inject(ada, urlOf(uploadsApi.complete, { id: u.id }), { sha256: sha256Hex(batch[i]!.bytes) }))),
    );
    for (const r of completed.result) expect(r.statusCode, r.body).toBe(200);
    expect(completed.result.map((r) => r.json<ResponseOf<typeof uploadsApi.complete>>().item.name).sort()).toEqual(batch.map((f) => f.name).sort());
    // Batches of 5: the uploads, their folders' access, and the files made in one statement of a transaction.
    const completeBatches = transactions(completed.statements);
    expect(completeBatches).toBeLessThan(FILES);
    expect(completed.statements.length, completed.statements.join('\n\n')).toBeLessThanOrEqual(FILES + completeBatches * 5);
  });

  it('costs, in a batch of eight, one start call of 3 statements and one completion of 6, authentication included', async () => {
    const ada = await person();
    const batch = files();
    const started = await statementsOf(() =>
      inject(ada, urlOf(uploadsApi.startMany, { ws: ada.workspace.id }), {
        uploads: batch.map((f) => ({ parentId: ada.workspace.homeId, name: f.name, size: f.bytes.length, onConflict: 'keep_both' })),
      }),
    );
    expect(started.statements.length, started.statements.join('\n\n')).toBe(3);
    const uploads = started.result
      .json<ResponseOf<typeof uploadsApi.startMany>>()
      .results.map((r) => ('upload' in r ? r.upload : expect.fail(JSON.stringify(r))));
    await Promise.all(uploads.map((u, i) => putOnlyPart(u, batch[i]!.bytes)));
    const completed = await statementsOf(() =>
      inject(ada, urlOf(uploadsApi.completeMany, undefined), { uploads: uploads.map((u, i) => ({ id: u.id, sha256: sha256Hex(batch[i]!.bytes) })) }),
    );
    expect(completed.result.json<ResponseOf<typeof uploadsApi.completeMany>>().results.every((r) => 'item' in r)).toBe(true);
    expect(completed.statements.length, completed.statements.join('\n\n')).toBeLessThanOrEqual(6);
  });

  it("opens the careful way while another transaction holds the workspace's row, once it lets go", async () => {
    const ada = await person();
    const { db } = test.app.ctx;
    let letGo!: () => void;
    const done = new Promise<void>((resolve) => (letGo = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = db.transaction().execute(async (tx) => {
      await sql`SELECT 1 FROM workspaces WHERE id = ${ada.workspace.id} FOR UPDATE`.execute(tx);
      held();
      await done;
    });
    await holding;
    const started = statementsOf(() =>
      inject(ada, urlOf(uploadsApi.start, { ws: ada.workspace.id }), { parentId: ada.workspace.homeId, name: 'held.bin', size: 10 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    letGo();
    await holder;
    const { result, statements } = await started;
    expect(result.statusCode, result.body).toBe(201);
    // PostgreSQL: the one statement skips the row held (ADR 0076) and the careful way waits for it, in a transaction. PGlite
    // is one connection: the start waits for the other transaction to end, then opens in the one statement.
    expect(transactions(statements), statements.join('\n\n')).toBe(process.env.TEST_DATABASE === 'postgres' ? 1 : 0);
    expect(openings(statements)).toBe(1);
  });
});
