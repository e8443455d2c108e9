import { describe, expect, it } from 'vitest';
import { itemsApi, LIMITS, linksApi, publicLinksApi } from '@cabinet/contracts';
import type { Person } from '../../testing/given.ts';
import { linkVisitor } from '../../testing/link-visitor.ts';
import { useTestApp } from '../../testing/test-app.ts';

/** Folders a file request's visitor sends (ADR 0035): where their limits count, and what names they get. */
describe('folders made through a file request', () => {
  // Behind a proxy, so each visitor's address can be told apart (X-Forwarded-For).
  const test = useTestApp({ LOG_LEVEL: 'error', TRUST_PROXY: 'true' });

  async function request(owner: Person, folderId: string): Promise<string> {
    const res = await owner.call(linksApi.create, { params: { id: folderId }, body: { kind: 'file_request' } });
    if (res.status !== 201 || !res.body.url) throw new Error(`no file request: ${JSON.stringify(res.error)}`);
    return res.body.url.split('/s/')[1]!;
  }
  const createFolder = (token: string, ip: string, name: string, parentId?: string) =>
    linkVisitor(test.app.url, ip).call(publicLinksApi.createFolder, { params: { token }, body: { name, ...(parentId ? { parentId } : {}) } });

  it('counts the folders of an IPv6 visitor by its /64, as their uploads: another address of the network is the same visitor', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Drop box');
    const token = await request(owner, folder.id);
    expect((await createFolder(token, '2001:db8:7:1::1', 'First')).status).toBe(201);
    // The rest of the hour's folders from that address, as the record holds them (making each through the API is slow).
    const { db } = test.app.ctx;
    const first = await db
      .selectFrom('activity_events')
      .selectAll()
      .where('action', '=', 'item.created')
      .where('ip', '=', '2001:db8:7:1::1')
      .executeTakeFirstOrThrow();
    const { id: _id, created_at: _at, ...row } = first;
    await db
      .insertInto('activity_events')
      .values(Array.from({ length: LIMITS.linkFoldersPerHour - 1 }, () => ({ ...row, data: JSON.stringify(row.data) })))
      .execute();

    expect(await createFolder(token, '2001:db8:7:1::1', 'Again')).toFail('rate_limited');
    expect(await createFolder(token, '2001:db8:7:1::2', 'From next door')).toFail('rate_limited');
    expect((await createFolder(token, '2001:db8:7:2::1', 'Another network')).status).toBe(201);
  });

  it('gives a folder whose name is taken a free name that is still a name (at most 255 bytes)', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Long names');
    const token = await request(owner, folder.id);
    const long = `${'é'.repeat(120)}.${'x'.repeat(14)}`;
    expect(new TextEncoder().encode(long).length).toBe(255);
    for (let i = 0; i < 3; i++) expect((await createFolder(token, '203.0.113.9', long)).status).toBe(201);
    const names = (await owner.call(itemsApi.children, { params: { ws: owner.workspace.id, id: folder.id } })).body.items.map((c) => c.name);
    expect(names).toHaveLength(3);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(3);
    for (const name of names) expect(new TextEncoder().encode(name).length, name).toBeLessThanOrEqual(255);
    expect(names).toContain(long);
  });
});
