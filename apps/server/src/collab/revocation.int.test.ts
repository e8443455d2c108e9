import { grantsApi, itemsApi, sessionsApi, tokensApi } from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { randomToken, sha256 } from '../lib/crypto.ts';
import { SESSION_COOKIE } from '../modules/sessions/sessions.service.ts';
import { insertSession } from '../modules/sessions/sessions.repo.ts';
import { addParagraph, collabClients, until } from '../testing/collab-client.ts';
import type { given, Person } from '../testing/given.ts';
import { useTestApp, type TestApp } from '../testing/test-app.ts';
import { jobDefinitions } from '../jobs.ts';
import { announceExpiredAccess, CLOCK_SLACK_SECONDS } from '../modules/events/index.ts';
import type { JobRow } from '../db/schema.ts';

/**
 * Two instances on one database (no Redis needed: access changes travel through the database's
 * NOTIFY). Access is taken away through instance A; the sockets are open on instance B, and the
 * viewer never sends anything, so only the announcement can close them.
 */
const first = useTestApp();
const second = useTestApp({}, () => ({ db: first.app.db }));
let a: TestApp;
let b: TestApp;
let g: ReturnType<typeof given>;
let clients: ReturnType<typeof collabClients>;
beforeAll(() => {
  [a, b, g] = [first.app, second.app, first.given];
  clients = collabClients(b.url);
});
afterAll(() => clients.destroyAll());
/** The job row a recurring job is handed (its pass reads nothing from it). */
const job = { kind: 'access.expire', payload: {} } as unknown as JobRow;

const storedText = async (id: string) =>
  (await a.ctx.db.selectFrom('document_contents').select('text').where('item_id', '=', id).executeTakeFirst())?.text ?? '';

/** Ada's document in a folder shared with Bea (a guest of Ada's workspace) at `role`, until `expiresAt` if given. */
async function sharedDocument(role: 'viewer' | 'editor' = 'viewer', expiresAt: Date | null = null) {
  const ada = await g.person('Ada');
  const bea = await g.person('Bea');
  const folder = await g.folder(ada, ada.workspace.homeId, 'Shared');
  const { id } = await g.document(ada, folder.id, 'Plan');
  await g.membership(bea, ada.workspace.id, 'guest');
  await g.grant(folder.id, { user: bea }, role, expiresAt);
  return { ada, bea, folder, id };
}

/** Ada and Bea have the document open on instance B; Bea hears Ada's edits, and from then on her socket sends nothing at all. */
async function openTogether(ada: Person, id: string, beaToken: string, headers?: Record<string, string>) {
  const owner = clients.connect(id, ada.token);
  const reader = clients.connect(id, beaToken, headers);
  await until(() => owner.outcome.synced && reader.outcome.synced, 'both to sync');
  addParagraph(owner.document, 'Before');
  await until(() => documentText(reader.document) === 'Before', 'the reader to hear the owner');
  const socket = reader.provider.configuration.websocketProvider.webSocket as unknown as WebSocket;
  const send = socket.send.bind(socket);
  socket.send = () => {};
  return { owner, reader, unmute: () => void (socket.send = send) };
}

/** Bea opens the document with a browser session of an hour (from Cabinet's own origin), beside Ada. */
async function openWithSession(ada: Person, bea: Person, id: string) {
  const cookie = randomToken();
  const session = await insertSession(a.ctx.db, {
    tokenHash: sha256(cookie),
    userId: bea.id,
    userAgent: null,
    ip: null,
    expiresAt: new Date(Date.now() + 3_600_000),
    idTokenSealed: null,
    refreshTokenSealed: null,
  });
  return { session, open: await openTogether(ada, id, 'session', { cookie: `${SESSION_COOKIE}=${cookie}`, origin: b.url }) };
}

/** The reader's connection is closed (within the deadline), and what the owner writes next no longer reaches it. */
async function expectCutOff({ owner, reader }: Awaited<ReturnType<typeof openTogether>>, id: string) {
  await until(() => reader.outcome.closed !== undefined, 'the reader’s connection to be closed', 15_000);
  addParagraph(owner.document, 'After');
  await expect.poll(() => storedText(id), { timeout: 15_000 }).toBe('Before\nAfter');
  expect(documentText(reader.document)).toBe('Before');
  return reader.outcome.closed;
}

describe('a silent reader on another instance loses the document within seconds when access goes', () => {
  it('when the share is withdrawn', async () => {
    const { ada, bea, folder, id } = await sharedDocument();
    const open = await openTogether(ada, id, bea.token);
    const grants = (await ada.call(grantsApi.list, { params: { id: folder.id } })).body.items;
    expect(grants).toHaveLength(1);
    expect((await ada.call(grantsApi.remove, { params: { id: folder.id, grantId: grants[0]!.id } })).status).toBe(204);
    expect(await expectCutOff(open, id)).toBe('not_found');
  });

  it('when the document is trashed, and when a folder above it is', async () => {
    for (const trashed of ['document', 'folder'] as const) {
      const { ada, bea, folder, id } = await sharedDocument();
      const open = await openTogether(ada, id, bea.token);
      expect((await ada.call(itemsApi.trash, { params: { id: trashed === 'document' ? id : folder.id } })).status).toBe(200);
      // The owner's own connection goes too: the document is in the trash.
      await until(() => open.reader.outcome.closed !== undefined && open.owner.outcome.closed !== undefined, 'both connections to be closed', 15_000);
      expect([open.reader.outcome.closed, open.owner.outcome.closed]).toEqual(['not_found', 'not_found']);
      expect(documentText(open.reader.document)).toBe('Before');
    }
  });

  it('when the share expires, announced by the job that announces what ended by the clock', async () => {
    const { ada, bea, folder, id } = await sharedDocument();
    const open = await openTogether(ada, id, bea.token);
    // The share ends a moment from now (set once the reader is in, however long opening took).
    const ends = new Date(Date.now() + 1_000);
    await a.ctx.db.updateTable('item_grants').set({ expires_at: ends }).where('item_id', '=', folder.id).execute();
    await until(() => Date.now() > ends.getTime() + CLOCK_SLACK_SECONDS * 1000 + 200, 'the share to expire, and the slack given clocks to pass', 10_000);
    expect(await jobDefinitions(a.ctx)['access.expire']!.run({}, job)).toBeUndefined();
    expect(await expectCutOff(open, id)).toBe('not_found');
    // Announced once: the next pass has nothing to say.
    expect(await announceExpiredAccess(a.ctx.db)).toBe(0);
  });

  it('when the reader’s session expires', async () => {
    const { ada, bea, id } = await sharedDocument();
    const { session, open } = await openWithSession(ada, bea, id);
    const ends = new Date(Date.now() + 1_000);
    await a.ctx.db.updateTable('sessions').set({ expires_at: ends }).where('id', '=', session.id).execute();
    await until(() => Date.now() > ends.getTime() + CLOCK_SLACK_SECONDS * 1000 + 200, 'the session to expire, and the slack given clocks to pass', 10_000);
    expect(await announceExpiredAccess(a.ctx.db)).toBeGreaterThan(0);
    expect(await expectCutOff(open, id)).toBe('session_expired');
  });

  it('when the reader’s membership ends', async () => {
    const { ada, bea, id } = await sharedDocument();
    const open = await openTogether(ada, id, bea.token);
    await a.ctx.db.deleteFrom('memberships').where('user_id', '=', bea.id).where('workspace_id', '=', ada.workspace.id).execute();
    expect(await expectCutOff(open, id)).toBe('not_found');
  });

  it('when the reader’s API token is revoked', async () => {
    const { ada, bea, id } = await sharedDocument();
    const open = await openTogether(ada, id, bea.token);
    const tokens = (await bea.call(tokensApi.list)).body.items;
    expect(tokens).toHaveLength(1);
    expect((await bea.call(tokensApi.revoke, { params: { id: tokens[0]!.id } })).status).toBe(204);
    expect(await expectCutOff(open, id)).toBe('unauthenticated');
  });

  it('when the reader’s session is signed out', async () => {
    const { ada, bea, id } = await sharedDocument();
    const { session, open } = await openWithSession(ada, bea, id);
    expect((await bea.call(sessionsApi.end, { params: { id: session.id } })).status).toBe(204);
    expect(await expectCutOff(open, id)).toMatch(/unauthenticated|session_/);
  });

  it('when the reader’s account is deactivated', async () => {
    const { ada, bea, id } = await sharedDocument();
    const open = await openTogether(ada, id, bea.token);
    await a.ctx.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', bea.id).execute();
    expect(await expectCutOff(open, id)).toBe('unauthenticated');
  });

  it('an editor lowered to viewer keeps reading, is told, and what they send is dropped', async () => {
    const { ada, bea, folder, id } = await sharedDocument('editor');
    const open = await openTogether(ada, id, bea.token);
    await a.ctx.db.updateTable('item_grants').set({ role: 'viewer' }).where('item_id', '=', folder.id).execute();
    await until(
      () => open.reader.outcome.stateless.includes(JSON.stringify({ type: 'access', readOnly: true })),
      'the reader to be told it may only read',
      15_000,
    );
    // From now on the server drops whatever this connection sends.
    open.unmute();
    addParagraph(open.reader.document, 'Sneaked in');
    addParagraph(open.owner.document, 'After');
    await until(() => documentText(open.reader.document).includes('After'), 'the reader to go on hearing the owner');
    await expect.poll(() => storedText(id), { timeout: 15_000 }).toBe('Before\nAfter');
    expect(documentText(open.owner.document)).toBe('Before\nAfter');
    expect(open.reader.outcome.closed).toBeUndefined();
  });
});
