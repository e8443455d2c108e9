import { documentsApi, itemsApi, workspacesApi } from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { afterAll, describe, expect, it } from 'vitest';
import { addParagraph, collabClients, until } from '../testing/collab-client.ts';
import { serverProcess } from '../testing/server-process.ts';

/**
 * The server is killed (SIGKILL) while three people type into one document, and they go on
 * typing while it is down. Once it is back every client reconnects by itself, all three converge
 * on the same document, no edit anyone made is missing, and what is stored holds it all.
 */
describe('a server killed during editing', () => {
  let server: Awaited<ReturnType<typeof serverProcess>>;
  let clients: ReturnType<typeof collabClients> | undefined;
  afterAll(async () => {
    clients?.destroyAll();
    await server?.dispose();
  });

  it('loses no edit: three editors converge after a restart', async () => {
    server = await serverProcess();
    const token = server.person('crash.editor@example.com', 'Crash Editor');
    await server.start();
    const workspaces = (await server.as(token).call(workspacesApi.list)).body.items;
    expect(workspaces).toHaveLength(1);
    const workspace = workspaces[0]!;
    const doc = (
      await server.as(token).call(itemsApi.create, { params: { ws: workspace.id }, body: { kind: 'document', name: 'Under fire', parentId: workspace.homeId } })
    ).body;
    // Tries to connect again at least every second: the server is down for as long as a restart takes, and
    // what is tested is that nothing is lost, not how long the provider's backoff grows.
    clients = collabClients(server.url, { retryMs: 1000 });
    const editors = [0, 1, 2].map(() => clients!.connect(doc.id, token));
    await until(() => editors.every((e) => e.outcome.synced), 'three editors to sync');

    const PER_EDITOR = 30;
    const written: string[] = [];
    const acknowledgedBeforeKill: string[] = [];
    const type = async (n: number) => {
      for (const [i, e] of editors.entries()) {
        const line = `editor ${i} line ${n}`;
        addParagraph(e.document, line);
        written.push(line);
      }
      await new Promise((r) => setTimeout(r, 30));
    };
    for (let n = 0; n < PER_EDITOR / 2; n++) await type(n);
    // What the server had confirmed to every editor when it died.
    await until(() => editors.every((e) => e.provider.unsyncedChanges === 0), 'the first half to be acknowledged');
    acknowledgedBeforeKill.push(...written);
    await server.kill();
    for (let n = PER_EDITOR / 2; n < PER_EDITOR; n++) await type(n);

    await server.start();
    await until(
      () => editors.every((e) => documentText(e.document) === documentText(editors[0]!.document) && e.provider.unsyncedChanges === 0),
      'the editors to converge',
      60_000,
    );
    const lines = documentText(editors[0]!.document).split('\n');
    expect(new Set(lines)).toEqual(new Set(written));
    expect(lines).toHaveLength(written.length);
    for (const line of acknowledgedBeforeKill) expect(lines).toContain(line);

    // Once everyone has left, what is stored is the whole document: a fresh reader after another restart sees it.
    clients.destroyAll();
    // The last editor's leaving saves the document (and records a revision).
    await expect
      .poll(async () => (await server.as(token).call(documentsApi.revisions, { params: { id: doc.id } })).body.items.length, { timeout: 15_000 })
      .toBeGreaterThan(0);
    await server.stop();
    await server.start();
    clients = collabClients(server.url);
    const reader = clients.connect(doc.id, token);
    await until(() => reader.outcome.synced, 'a reader to sync', 30_000);
    expect(new Set(documentText(reader.document).split('\n'))).toEqual(new Set(written));
    // Two starts of a server process beside the browser tests on two cores: 181 s on a slow day's machine.
  }, 360_000);
});
