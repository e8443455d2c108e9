import { itemsApi } from '@cabinet/contracts';
import * as encoding from 'lib0/encoding';
import { documentText } from '@cabinet/doc-schema/server';
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { randomToken, sha256 } from '../lib/crypto.ts';
import { SESSION_COOKIE } from '../modules/sessions/sessions.service.ts';
import { insertSession } from '../modules/sessions/sessions.repo.ts';
import { given, type Person } from '../testing/given.ts';
import { startTestApp } from '../testing/test-app.ts';
import { addParagraph, collabClients, collabTestApp, until } from '../testing/collab-client.ts';

const app = collabTestApp();
const connect: ReturnType<typeof collabClients>['connect'] = (...args) => app.clients.connect(...args);

const newDocument = async (owner: Person, name = 'Plan') => (await app.g.document(owner, owner.workspace.homeId, name)).id;

const storedText = async (id: string) => (await app.t.ctx.db.selectFrom('document_contents').select('text').where('item_id', '=', id).executeTakeFirst())?.text;

/** A server of its own (on the shared database) that a test stops, with Ada's document `name` open there and `typed` in it, received but not yet saved. */
async function typedOnAServerToStop(name: string, typed: string) {
  const stopping = await startTestApp({}, { db: app.t.db });
  const onStopping = given(stopping.ctx, stopping.url);
  const ada = await onStopping.person('Ada');
  const { id } = await onStopping.document(ada, ada.workspace.homeId, name);
  const clients = collabClients(stopping.url);
  const editor = clients.connect(id, ada.token);
  await until(() => editor.outcome.synced, 'the editor to sync');
  addParagraph(editor.document, typed);
  // The server has it; its debounced save has not run yet when the server stops.
  await until(() => editor.provider.unsyncedChanges === 0, 'the edit to reach the server');
  return { stopping, clients, ada, id };
}

describe('the collaboration socket', () => {
  it('saves what is open when the server stops, as the last editor’s change', async () => {
    const { stopping, clients, ada, id } = await typedOnAServerToStop('Late', 'Typed just before the stop');
    await stopping.close();
    clients.destroyAll();
    expect(await storedText(id)).toContain('Typed just before the stop');
    const saves = await app.t.ctx.db
      .selectFrom('activity_events')
      .select(['actor_kind', 'actor_user_id'])
      .where('item_id', '=', id)
      .where('action', '=', 'item.updated')
      .execute();
    expect(saves.length).toBeGreaterThan(0);
    expect(saves).toEqual(saves.map(() => ({ actor_kind: 'token', actor_user_id: ada.id })));
  });

  it('waits, when it stops, for saves held up longer than a closing step is given by default (10 s), and stores them', async () => {
    const { stopping, clients, id } = await typedOnAServerToStop('Held', 'Typed while the database is busy');
    // The document's row is held 13 s (on PGlite, the one connection with it): the save at the stop waits that long.
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const hold = app.t.ctx.db.transaction().execute(async (tx) => {
      await tx.selectFrom('items').select('id').where('id', '=', id).forUpdate().execute();
      held();
      await new Promise((r) => setTimeout(r, 13_000));
    });
    await holding;
    await stopping.close();
    await hold;
    clients.destroyAll();
    expect(await storedText(id)).toContain('Typed while the database is busy');
  }, 60_000);

  it('carries one editor’s typing to another, saves it with its text, and serves it to the next one who opens it', async () => {
    const ada = await app.g.person('Ada');
    const id = await newDocument(ada);
    const first = connect(id, ada.token);
    const second = connect(id, ada.token);
    await until(() => first.outcome.synced && second.outcome.synced, 'both to sync');
    addParagraph(first.document, 'Hello from the first window');
    await until(() => documentText(second.document) === 'Hello from the first window', 'the edit to reach the second window');

    first.provider.destroy();
    second.provider.destroy();
    await expect.poll(() => storedText(id), { timeout: 15_000 }).toBe('Hello from the first window');
    const item = await ada.call(itemsApi.get, { params: { id } });
    expect(item.body).toMatchObject({ updatedBy: ada.id });
    expect(item.body.size).toBeGreaterThan(0);

    const later = connect(id, ada.token);
    await until(() => later.outcome.synced, 'the later reader to sync');
    expect(documentText(later.document)).toBe('Hello from the first window');
  });

  it('lets a viewer read, and drops what a viewer sends', async () => {
    const ada = await app.g.person('Ada');
    const bea = await app.g.person('Bea');
    const id = await newDocument(ada);
    await app.g.membership(bea, ada.workspace.id, 'guest');
    await app.g.grant(id, { user: bea }, 'viewer');
    const writer = connect(id, ada.token);
    await until(() => writer.outcome.synced, 'the editor to sync');
    addParagraph(writer.document, 'Written by Ada');
    const reader = connect(id, bea.token);
    await until(() => reader.outcome.synced && documentText(reader.document) === 'Written by Ada', 'the viewer to read');

    addParagraph(reader.document, 'Sneaked in by Bea');
    addParagraph(writer.document, 'More from Ada');
    await until(() => documentText(reader.document).includes('More from Ada'), 'the viewer to hear more');
    await new Promise((r) => setTimeout(r, 300));
    expect(documentText(writer.document)).toBe('Written by Ada\nMore from Ada');
    writer.provider.destroy();
    reader.provider.destroy();
    await expect.poll(() => storedText(id), { timeout: 15_000 }).toBe('Written by Ada\nMore from Ada');
  });

  it('stops taking edits once a share is withdrawn, within seconds', async () => {
    const ada = await app.g.person('Ada');
    const bea = await app.g.person('Bea');
    const id = await newDocument(ada);
    await app.g.membership(bea, ada.workspace.id, 'guest');
    await app.g.grant(id, { user: bea }, 'editor');
    const owner = connect(id, ada.token);
    const guest = connect(id, bea.token);
    await until(() => owner.outcome.synced && guest.outcome.synced, 'both to sync');
    addParagraph(guest.document, 'While shared');
    await until(() => documentText(owner.document) === 'While shared', 'the shared edit to arrive');

    await app.t.ctx.db.deleteFrom('item_grants').where('item_id', '=', id).execute();
    await new Promise((r) => setTimeout(r, 5_200));
    addParagraph(guest.document, 'After the share ended');
    addParagraph(owner.document, 'Ada carries on');
    await until(() => documentText(owner.document).includes('Ada carries on'), 'the owner to carry on');
    await new Promise((r) => setTimeout(r, 500));
    expect(documentText(owner.document)).toBe('While shared\nAda carries on');
  });

  it('opens with the session cookie from Cabinet’s own origin only', async () => {
    const ada = await app.g.person('Ada');
    const id = await newDocument(ada);
    const token = randomToken();
    await insertSession(app.t.ctx.db, {
      tokenHash: sha256(token),
      userId: ada.id,
      userAgent: null,
      ip: null,
      expiresAt: new Date(Date.now() + 3_600_000),
      idTokenSealed: null,
      refreshTokenSealed: null,
    });
    const cookie = `${SESSION_COOKIE}=${token}`;
    const own = connect(id, 'session', { cookie, origin: app.t.url });
    await until(() => own.outcome.synced, 'the browser to sync');
    const elsewhere = connect(id, 'session', { cookie, origin: 'https://evil.example' });
    await until(() => elsewhere.outcome.failed !== undefined, 'the other site to be refused');
    expect(elsewhere.outcome.synced).toBe(false);
    // A tab that names itself has its saves recorded as its own, so the live stream does not send them back to it.
    const tab = connect(id, 'session:tab-0123456789', { cookie, origin: app.t.url });
    await until(() => tab.outcome.synced, 'the tab to sync');
    addParagraph(tab.document, 'From the tab');
    tab.provider.destroy();
    await expect
      .poll(
        async () =>
          (await app.t.ctx.db.selectFrom('activity_events').select('client_id').where('item_id', '=', id).where('action', '=', 'item.updated').execute()).map(
            (r) => r.client_id,
          ),
        { timeout: 10_000 },
      )
      .toContain('tab-0123456789');
  });

  it('refuses a document the caller cannot see, a folder, an unknown name and a bad token', async () => {
    const ada = await app.g.person('Ada');
    const eve = await app.g.person('Eve');
    const id = await newDocument(ada);
    const attempts = [connect(id, eve.token), connect(ada.workspace.homeId, ada.token), connect('not-a-document', ada.token), connect(id, 'not-a-token')];
    await until(() => attempts.every((a) => a.outcome.failed !== undefined), 'every attempt to be refused');
    expect(attempts.map((a) => a.outcome.synced)).toEqual([false, false, false, false]);
  });

  it('refuses a session that has expired, saying so', async () => {
    const ada = await app.g.person('Ada');
    const id = await newDocument(ada);
    const token = randomToken();
    await insertSession(app.t.ctx.db, {
      tokenHash: sha256(token),
      userId: ada.id,
      userAgent: null,
      ip: null,
      expiresAt: new Date(Date.now() - 1000),
      idTokenSealed: null,
      refreshTokenSealed: null,
    });
    const stale = connect(id, 'session', { cookie: `${SESSION_COOKIE}=${token}`, origin: app.t.url });
    await until(() => stale.outcome.failed !== undefined, 'the expired session to be refused');
    expect(stale.outcome.failed).toMatch(/session_expired|unauthenticated/);
  });

  it('closes a socket that sends a malformed or oversized update, and stores nothing of it', async () => {
    const ada = await app.g.person('Ada');
    const id = await newDocument(ada);
    const writer = connect(id, ada.token);
    await until(() => writer.outcome.synced, 'the editor to sync');
    addParagraph(writer.document, 'Kept');
    await expect.poll(() => storedText(id), { timeout: 15_000 }).toBe('Kept');

    for (const [payload, reason] of [
      [Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff]), 'invalid_update'],
      // Over the 16 MiB cap, the socket itself is closed (1009: message too big).
      [new Uint8Array(17 * 1024 * 1024).fill(7), '1009'],
    ] as const) {
      const vandal = connect(id, ada.token);
      await until(() => vandal.outcome.synced, 'the vandal to sync');
      const socket = vandal.provider.configuration.websocketProvider.webSocket as unknown as WebSocket;
      // A sync-protocol update message for this document whose update is not a Yjs update.
      const encoder = encoding.createEncoder();
      encoding.writeVarString(encoder, id);
      encoding.writeVarUint(encoder, 0);
      encoding.writeVarUint(encoder, 2);
      encoding.writeVarUint8Array(encoder, payload);
      socket.send(encoding.toUint8Array(encoder));
      await until(() => vandal.outcome.closed !== undefined, 'the server to close the connection', 15_000);
      expect(vandal.outcome.closed).toBe(reason);
      vandal.provider.destroy();
    }
    // The document is as it was, and others carry on.
    addParagraph(writer.document, 'Still here');
    const reader = connect(id, ada.token);
    await until(() => reader.outcome.synced && documentText(reader.document) === 'Kept\nStill here', 'a new reader to see the document whole');
  });
});
