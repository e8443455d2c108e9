import { activityApi, itemsApi, workspacesApi, type TItem } from '@cabinet/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { davClient, davUrl } from '../../testing/dav-client.ts';
import type { Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

/** A WebDAV client's write lock as the browser meets it: on the items the API answers, and broken from there. */
describe('a WebDAV lock in the browser', () => {
  const test = useTestApp();
  const FINDER = 'WebDAVFS/3.0.0 (03008000) Darwin/22.1.0';
  const lockBody = (scope: 'exclusive' | 'shared', owner: string) =>
    `<?xml version="1.0"?><d:lockinfo xmlns:d="DAV:"><d:lockscope><d:${scope}/></d:lockscope><d:locktype><d:write/></d:locktype><d:owner>${owner}</d:owner></d:lockinfo>`;
  const dav = async (p: Person) => davClient(test.app.url, await test.given.appPassword(p));

  /** Ada's workspace with a file in its shared root, and Bob, a member, holding a lock on it taken in Finder. */
  async function lockedFile(o: { scope?: 'exclusive' | 'shared'; client?: string } = {}) {
    const ada = await test.given.person('Ada');
    const bob = await test.given.person('Bob');
    await test.given.membership(bob, ada.workspace.id, 'member');
    const slug = (await ada.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body.slug;
    const url = davUrl(slug, 'Workspace', 'notes.txt');
    const adaDav = await dav(ada);
    expect((await adaDav.send('PUT', url, { body: 'v1' })).status).toBe(201);
    const bobDav = await dav(bob);
    const token = await takeLock(bobDav, url, o);
    const file = (await childrenOf(ada, ada.workspace.rootId)).find((i) => i.name === 'notes.txt')!;
    return { ada, bob, slug, url, file, token, adaDav, bobDav };
  }

  async function takeLock(client: ReturnType<typeof davClient>, url: string, o: { scope?: 'exclusive' | 'shared'; client?: string } = {}) {
    const res = await client.send('LOCK', url, {
      headers: { timeout: 'Second-600', 'user-agent': o.client ?? FINDER },
      body: lockBody(o.scope ?? 'exclusive', 'Bob'),
    });
    expect(res.status).toBe(200);
    return /^<(.+)>$/.exec(res.headers.get('lock-token') ?? '')![1]!;
  }

  const childrenOf = async (p: Person, folderId: string, ws = p.workspace.id): Promise<TItem[]> => {
    const res = await p.call(itemsApi.children, { params: { ws, id: folderId }, query: {} });
    expect(res.status).toBe(200);
    return res.body.items;
  };
  const itemOf = async (p: Person, id: string) => (await p.call(itemsApi.get, { params: { id } })).body;
  const breakLock = (p: Person, id: string) => p.call(itemsApi.breakLock, { params: { id } });

  it('shows on the file, in its folder and alone, who holds it with which client, until when, and whether the caller may break it', async () => {
    const { ada, bob, file } = await lockedFile();
    const cleo = await test.given.person('Cleo');
    await test.given.membership(cleo, ada.workspace.id, 'member');
    const seconds = (t: string) => (new Date(t).getTime() - Date.now()) / 1000;

    expect(file.lock).toMatchObject({ by: { id: bob.id, name: 'Bob' }, client: 'Finder', scope: 'exclusive', breakable: true });
    expect(seconds(file.lock!.expiresAt)).toBeGreaterThan(590);
    expect(seconds(file.lock!.expiresAt)).toBeLessThanOrEqual(600);
    // The item itself, as the file viewer and the details panel read it.
    expect((await itemOf(ada, file.id)).lock).toEqual(file.lock);
    // Its holder may break it; a member who neither holds nor manages it may not.
    expect((await itemOf(bob, file.id)).lock).toMatchObject({ by: { id: bob.id }, breakable: true });
    expect((await itemOf(cleo, file.id)).lock).toMatchObject({ by: { id: bob.id }, breakable: false });
    expect((await childrenOf(cleo, ada.workspace.rootId, ada.workspace.id)).find((i) => i.id === file.id)!.lock?.breakable).toBe(false);
    // A rename's answer keeps it: the lock is on the file, whatever its name.
    const renamed = await ada.call(itemsApi.update, { params: { id: file.id }, body: { name: 'notes (2).txt' } });
    expect(renamed.body.lock).toEqual(file.lock);
    // What is not locked says so.
    const other = await test.given.folder(ada, ada.workspace.rootId, 'Other');
    expect((await childrenOf(ada, ada.workspace.rootId)).find((i) => i.id === other.id)!.lock).toBeUndefined();
    expect((await itemOf(ada, other.id)).lock).toBeUndefined();
  });

  it('shows the latest of several shared locks', async () => {
    const { ada, bob, url, file } = await lockedFile({ scope: 'shared' });
    const cleo = await test.given.person('Cleo');
    await test.given.membership(cleo, ada.workspace.id, 'member');
    await takeLock(await dav(cleo), url, { scope: 'shared', client: 'rclone/v1.60.1' });
    const lock = (await itemOf(ada, file.id)).lock;
    expect(lock).toMatchObject({ by: { id: cleo.id, name: 'Cleo' }, client: 'rclone', scope: 'shared' });
    // Bob holds one of them, not Cleo's: he may not break them all.
    expect(await breakLock(bob, file.id)).toFail('forbidden');
    expect((await breakLock(ada, file.id)).status).toBe(204);
    expect((await itemOf(ada, file.id)).lock).toBeUndefined();
  });

  it('is gone once past its expiry, whether or not its row is', async () => {
    const { ada, file } = await lockedFile();
    await sql`UPDATE dav_locks SET expires_at = now() - interval '1 second' WHERE item_id = ${file.id}`.execute(test.app.ctx.db);
    expect((await childrenOf(ada, ada.workspace.rootId)).find((i) => i.id === file.id)!.lock).toBeUndefined();
    expect((await itemOf(ada, file.id)).lock).toBeUndefined();
    // Nothing left to break.
    expect((await breakLock(ada, file.id)).status).toBe(204);
  });

  it('is broken by whoever manages the file, after which a WebDAV client changes it without the token, and the old token no longer holds', async () => {
    const { ada, bob, file, url, token, adaDav, bobDav } = await lockedFile();
    const cleo = await test.given.person('Cleo');
    await test.given.membership(cleo, ada.workspace.id, 'member');
    const gus = await test.given.person('Gus');
    await test.given.membership(gus, ada.workspace.id, 'guest');
    await test.given.grant(file.id, { user: gus }, 'viewer');
    const dana = await test.given.person('Dana');
    await test.given.membership(dana, ada.workspace.id, 'member');
    await test.given.grant(file.id, { user: dana }, 'manager');
    const stranger = await test.given.person('Stranger');

    expect((await adaDav.send('PUT', url, { body: 'v2' })).status).toBe(423);
    // An editor and a viewer who do not hold it: refused; someone who cannot see the file: it is not there.
    expect(await breakLock(cleo, file.id)).toFail('forbidden');
    expect(await breakLock(gus, file.id)).toFail('forbidden');
    expect(await breakLock(stranger, file.id)).toFail('not_found');
    // A token that may only read breaks nothing.
    expect(await breakLock(await test.given.readOnly(dana), file.id)).toFail('forbidden');
    expect((await itemOf(ada, file.id)).lock).not.toBeNull();

    expect((await breakLock(dana, file.id)).status).toBe(204);
    expect((await itemOf(ada, file.id)).lock).toBeUndefined();
    expect((await adaDav.send('PUT', url, { body: 'v2' })).status).toBe(204);
    expect((await bobDav.send('PUT', url, { headers: { if: `(<${token}>)` }, body: 'v3' })).status).toBe(412);
    expect(await (await adaDav.send('GET', url)).text()).toBe('v2');

    // Recorded once, naming whose lock it was.
    const history = await ada.call(activityApi.item, { params: { id: file.id }, query: {} });
    const broken = history.body.items.filter((e) => e.action === 'item.unlocked');
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ actor: { id: dana.id }, subject: { kind: 'user', id: bob.id, name: 'Bob' }, data: { client: 'Finder' } });
  });

  it('is broken by its holder, and by the workspace’s owner and admins and the instance’s administrators, who need not manage the file', async () => {
    const { ada, bob, file, url, bobDav } = await lockedFile();
    expect((await breakLock(bob, file.id)).status).toBe(204);
    expect((await itemOf(ada, file.id)).lock).toBeUndefined();

    // Bob's own file in his My files, shared with people who only view it.
    const slug = (await ada.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body.slug;
    const bobHome = (await bob.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body.homeId;
    const own = davUrl(slug, 'My files', 'mine.txt');
    expect((await bobDav.send('PUT', own, { body: 'mine' })).status).toBe(201);
    const mine = (await childrenOf(bob, bobHome, ada.workspace.id)).find((i) => i.name === 'mine.txt')!;
    const wanda = await test.given.person('Wanda');
    await test.given.membership(wanda, ada.workspace.id, 'admin');
    const ian = await test.given.person('Ian');
    await test.given.membership(ian, ada.workspace.id, 'member');
    await test.app.ctx.db.updateTable('users').set({ is_instance_admin: true }).where('id', '=', ian.id).execute();
    const cleo = await test.given.person('Cleo');
    await test.given.membership(cleo, ada.workspace.id, 'member');
    for (const viewer of [wanda, ian, cleo]) await test.given.grant(mine.id, { user: viewer }, 'viewer');

    // Ada owns the workspace and so manages its shared root; Wanda and Ian only view Bob's file.
    for (const [breaker, at, id] of [
      [ada, url, file.id],
      [wanda, own, mine.id],
      [ian, own, mine.id],
    ] as const) {
      await takeLock(bobDav, at);
      expect((await itemOf(breaker, id)).lock?.breakable).toBe(true);
      expect((await breakLock(breaker, id)).status).toBe(204);
      expect((await itemOf(bob, id)).lock).toBeUndefined();
    }
    // Another member who views it, as they do, may not.
    await takeLock(bobDav, own);
    expect((await itemOf(cleo, mine.id)).lock?.breakable).toBe(false);
    expect(await breakLock(cleo, mine.id)).toFail('forbidden');
  });
});
