import { grantsApi, groupsApi, itemsApi, membersApi } from '@cabinet/contracts';
import { documentText } from '@cabinet/doc-schema/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { addParagraph, collabClients, until } from '../../testing/collab-client.ts';
import type { Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

/**
 * As collab/revocation.int.test.ts, for access that comes from a group: two instances on one
 * database; the group changes through instance A while the sockets are open on instance B, and the
 * reader never sends anything, so only the announcement of migration 0012's triggers can close them.
 */
const a = useTestApp({ LOG_LEVEL: 'error' });
const b = useTestApp({ LOG_LEVEL: 'error' }, () => ({ db: a.app.db }));
let clients: ReturnType<typeof collabClients>;
beforeAll(() => {
  clients = collabClients(b.app.url);
});
afterAll(() => clients.destroyAll());

const storedText = async (id: string) =>
  (await a.app.ctx.db.selectFrom('document_contents').select('text').where('item_id', '=', id).executeTakeFirst())?.text ?? '';

/** Ada's document in a folder of her My files shared with a group Bea (a member of the workspace) is in. */
async function sharedThroughGroup() {
  const ada = await a.given.person('Ada');
  const bea = await a.given.person('Bea');
  const ws = ada.workspace.id;
  await a.given.membership(bea, ws, 'member');
  const group = (await ada.call(groupsApi.create, { params: { ws }, body: { name: 'Readers' } })).body.id;
  await ada.call(groupsApi.addMembers, { params: { ws, groupId: group }, body: { userIds: [bea.id] } });
  const folder = await a.given.folder(ada, ada.workspace.homeId, 'Shared');
  const { id } = await a.given.document(ada, folder.id, 'Plan');
  await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'group', id: group }, role: 'viewer' } });
  return { ada, bea, ws, group, id };
}

/** Ada and Bea have the document open on instance B; Bea hears Ada's edits, and from then on her socket sends nothing at all. */
async function openTogether(ada: Person, bea: Person, id: string) {
  const owner = clients.connect(id, ada.token);
  const reader = clients.connect(id, bea.token);
  await until(() => owner.outcome.synced && reader.outcome.synced, 'both to sync');
  addParagraph(owner.document, 'Before');
  await until(() => documentText(reader.document) === 'Before', 'the reader to hear the owner');
  const socket = reader.provider.configuration.websocketProvider.webSocket as unknown as WebSocket;
  socket.send = () => {};
  return { owner, reader };
}

async function expectCutOff({ owner, reader }: Awaited<ReturnType<typeof openTogether>>, id: string) {
  await until(() => reader.outcome.closed !== undefined, 'the reader’s connection to be closed', 15_000);
  addParagraph(owner.document, 'After');
  await expect.poll(() => storedText(id), { timeout: 15_000 }).toBe('Before\nAfter');
  expect(documentText(reader.document)).toBe('Before');
  return reader.outcome.closed;
}

describe('a silent reader on another instance loses a document shared with their group within seconds', () => {
  it('when they are taken out of the group', async () => {
    const { ada, bea, ws, group, id } = await sharedThroughGroup();
    const open = await openTogether(ada, bea, id);
    expect((await ada.call(groupsApi.removeMember, { params: { ws, groupId: group, userId: bea.id } })).status).toBe(204);
    expect(await expectCutOff(open, id)).toBe('not_found');
    expect((await bea.call(itemsApi.get, { params: { id } })).status).toBe(404);
  });

  it('when the group is deleted', async () => {
    const { ada, bea, ws, group, id } = await sharedThroughGroup();
    const open = await openTogether(ada, bea, id);
    expect((await ada.call(groupsApi.remove, { params: { ws, groupId: group } })).status).toBe(204);
    expect(await expectCutOff(open, id)).toBe('not_found');
  });

  it('when they leave the workspace', async () => {
    const { ada, bea, ws, id } = await sharedThroughGroup();
    const open = await openTogether(ada, bea, id);
    expect((await ada.call(membersApi.remove, { params: { ws, userId: bea.id }, query: { filesTo: ada.id } })).status).toBe(204);
    expect(await expectCutOff(open, id)).toBe('not_found');
  });
});
