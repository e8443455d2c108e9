import { documentsApi } from '@cabinet/contracts';
import { randomBytes } from 'node:crypto';
import { Redis as IORedis } from 'ioredis';
import { documentText } from '@cabinet/doc-schema/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParagraph, collabClients, until } from '../testing/collab-client.ts';
import { given } from '../testing/given.ts';
import { freePort, useTestApp, type TestApp } from '../testing/test-app.ts';
import { buildCollabServer } from './collab-server.ts';
import { rawGet } from '../testing/raw-get.ts';

/** Two instances on one database and one Redis (TEST_REDIS_URL), each with its own editors. */
const settings = { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: `test-${randomBytes(4).toString('hex')}` };
const first = useTestApp(settings);
const second = useTestApp(settings, () => ({ db: first.app.db }));
let a: TestApp;
let b: TestApp;
let clientsA: ReturnType<typeof collabClients>;
let clientsB: ReturnType<typeof collabClients>;
beforeAll(() => {
  [a, b] = [first.app, second.app];
  clientsA = collabClients(a.url);
  clientsB = collabClients(b.url);
});
afterAll(() => {
  clientsA.destroyAll();
  clientsB.destroyAll();
});

describe('several instances through Redis', () => {
  it('carries edits and presence between editors on different instances, and a restore on one reaches editors on the other', async () => {
    const g = given(a.ctx, a.url);
    const ada = await g.person('Ada');
    const doc = await g.document(ada, ada.workspace.homeId, 'Shared');
    const onA = clientsA.connect(doc.id, ada.token);
    const onB = clientsB.connect(doc.id, ada.token);
    await until(() => onA.outcome.synced && onB.outcome.synced, 'both to sync');
    onA.provider.setAwarenessField('user', { name: 'Ada on A', color: '#aa0000' });
    addParagraph(onA.document, 'Typed on A');
    await until(() => documentText(onB.document) === 'Typed on A', 'the edit to reach B', 15_000);
    addParagraph(onB.document, 'Typed on B');
    await until(() => documentText(onA.document) === 'Typed on A\nTyped on B', 'the edit to reach A', 15_000);
    await until(() => [...onB.provider.awareness!.getStates().values()].some((s) => s.user?.name === 'Ada on A'), 'A’s presence to reach B', 15_000);

    // Everyone leaves: one revision is kept; then a restore made through instance A reaches an editor on B.
    onA.provider.destroy();
    onB.provider.destroy();
    await expect
      .poll(async () => (await ada.call(documentsApi.revisions, { params: { id: doc.id } })).body.items.length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    const revision = (await ada.call(documentsApi.revisions, { params: { id: doc.id } })).body.items[0]!;
    const later = clientsB.connect(doc.id, ada.token);
    await until(() => later.outcome.synced, 'a later editor on B to sync');
    addParagraph(later.document, 'Added later on B');
    await until(() => documentText(later.document).includes('Added later'), 'the later edit');
    // Ada calls instance A, which loads the document from the database, without the paragraph B has not stored yet. Redis
    // holds every message for a while (as a busy machine does): A must still have B's paragraph before it restores.
    const redis = new IORedis(settings.REDIS_URL);
    try {
      await redis.call('CLIENT', 'PAUSE', '800', 'WRITE');
      const restored = await ada.call(documentsApi.restoreRevision, { params: { id: doc.id, revisionId: revision.id } });
      expect(restored.status).toBe(201);
    } finally {
      redis.disconnect();
    }
    await until(() => documentText(later.document) === 'Typed on A\nTyped on B', 'the restore to reach the editor on B', 15_000);
    // What the document was just before is kept as a revision, the paragraph written on B included.
    const kept = (await ada.call(documentsApi.revisions, { params: { id: doc.id } })).body.items;
    const before = await ada.call(documentsApi.revision, { params: { id: doc.id, revisionId: kept[1]!.id } });
    expect(JSON.stringify(before.body.content)).toContain('Added later on B');
  });

  it('serves the socket from a process of its own (cabinet collab) in step with the main server', async () => {
    const collabOnly = await buildCollabServer(b.ctx);
    const port = await freePort();
    await collabOnly.listen({ port, host: '127.0.0.1' });
    const clientsC = collabClients(`http://127.0.0.1:${port}`);
    try {
      const g = given(a.ctx, a.url);
      const ada = await g.person('Ada');
      const doc = await g.document(ada, ada.workspace.homeId, 'Apart');
      const main = clientsA.connect(doc.id, ada.token);
      const apart = clientsC.connect(doc.id, ada.token);
      await until(() => main.outcome.synced && apart.outcome.synced, 'both to sync');
      addParagraph(apart.document, 'Through the collaboration server');
      await until(() => documentText(main.document) === 'Through the collaboration server', 'the edit to reach the main server', 15_000);
      // Its own /metrics, to this machine: the socket it holds.
      const scraped = await rawGet(`http://127.0.0.1:${port}/metrics`, { host: `localhost:${port}` });
      expect(scraped.status).toBe(200);
      expect(scraped.body.toString()).toMatch(/^cabinet_collab_sockets 1$/m);
      // The collaboration server checks access as the main one does.
      const eve = await g.person('Eve');
      const refused = clientsC.connect(doc.id, eve.token);
      await until(() => refused.outcome.failed !== undefined, 'an outsider to be refused');
      expect(refused.outcome.failed).toBe('not_found');
    } finally {
      clientsC.destroyAll();
      await collabOnly.close();
    }
  });
});
