import { itemsApi, tokensApi, versionsApi, workspacesApi } from '@cabinet/contracts';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { davClient, davUrl } from '../../testing/dav-client.ts';
import type { Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

const FINDER = 'WebDAVFS/3.0.0 (03008000) Darwin/22.1.0 (x86_64)';
const WINDOWS = 'Microsoft-WebDAV-MiniRedir/10.0.19045';
const lockInfo = (owner: string) =>
  `<?xml version="1.0" encoding="utf-8" ?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>${owner}</D:href></D:owner></D:lockinfo>`;

/** Requests as macOS Finder and the Windows mini-redirector send them when they copy a file in (ADR 0067). */
describe('WebDAV as Finder and Windows use it', () => {
  const test = useTestApp();
  const signIn = async (p: Person, agent: string) => {
    const password = await test.given.appPassword(p);
    const client = davClient(test.app.url, password);
    return (method: string, path: string, o: { headers?: Record<string, string>; body?: string | Uint8Array } = {}) =>
      client.send(method, path, { ...o, headers: { 'user-agent': agent, ...o.headers } });
  };
  /** A PUT of `length` bytes whose body is sent as the test says, chunk by chunk (`null` ends it). */
  const streamedPut = (password: string, path: string, length: number) => {
    let send!: (chunk: Uint8Array | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = (chunk) => (chunk ? controller.enqueue(chunk) : controller.close());
      },
    });
    const answer = fetch(`${test.app.url}${path}`, {
      method: 'PUT',
      headers: { authorization: `Basic ${Buffer.from(`ada:${password}`).toString('base64')}`, 'content-length': String(length) },
      body,
      duplex: 'half',
    } as RequestInit);
    return { send, answer };
  };
  const slugOf = async (p: Person) => (await p.call(workspacesApi.get, { params: { ws: p.workspace.id } })).body.slug;
  const names = async (p: Person, folderId: string) =>
    (await p.call(itemsApi.children, { params: { ws: p.workspace.id, id: folderId }, query: {} })).body.items.map((i) => i.name);

  it('takes a file from Finder: an empty file, locked, then its bytes in chunks, its ._ file and .DS_Store kept aside', async () => {
    const ada = await test.given.person('Ada');
    const bob = await test.given.person('Bob');
    await test.given.membership(bob, ada.workspace.id, 'member');
    const slug = await slugOf(ada);
    const finder = await signIn(ada, FINDER);
    const folder = davUrl(slug, 'Workspace');
    const file = davUrl(slug, 'Workspace', 'report.pdf');
    const side = davUrl(slug, 'Workspace', '._report.pdf');
    const bytes = randomBytes(300_000);

    expect((await finder('PROPFIND', file, { headers: { depth: '0' } })).status).toBe(404);
    expect((await finder('PUT', file, { headers: { 'content-length': '0' }, body: new Uint8Array() })).status).toBe(201);
    const lock = await finder('LOCK', file, { headers: { depth: '0', timeout: 'Second-600' }, body: lockInfo('http://www.apple.com/webdav_fs/') });
    expect(lock.status).toBe(200);
    const token = lock.headers.get('lock-token')!;
    // Finder sends the bytes chunked, saying their length in X-Expected-Entity-Length.
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.subarray(i, i + 65_536));
        controller.close();
      },
    });
    const put = await fetch(`${test.app.url}${file}`, {
      method: 'PUT',
      headers: {
        authorization: `Basic ${Buffer.from(`ada:${await test.given.appPassword(ada)}`).toString('base64')}`,
        'user-agent': FINDER,
        'x-expected-entity-length': String(bytes.length),
        if: `(${token})`,
      },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(put.status).toBe(204);
    // Without the token, the lock holds even against the holder's own requests.
    expect((await finder('PUT', file, { body: 'overwritten' })).status).toBe(423);
    expect((await finder('PUT', side, { body: randomBytes(4096) })).status).toBe(201);
    expect((await finder('PUT', davUrl(slug, 'Workspace', '.DS_Store'), { body: randomBytes(6148) })).status).toBe(201);
    expect((await finder('UNLOCK', file, { headers: { 'lock-token': token } })).status).toBe(204);

    expect(Buffer.from(await (await finder('GET', file)).arrayBuffer()).equals(bytes)).toBe(true);
    // The empty file Finder made first is not a version of its own.
    const made = (await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: ada.workspace.rootId }, query: {} })).body.items[0]!;
    expect((await ada.call(versionsApi.list, { params: { id: made.id } })).body.items.map((v) => v.size)).toEqual([bytes.length]);
    expect((await finder('PROPFIND', side, { headers: { depth: '0' } })).status).toBe(207);
    expect((await finder('GET', side)).status).toBe(200);
    // Out of the tree: the browser's listing and Finder's own listing show the file alone, and Bob has no ._ file.
    expect(await names(ada, ada.workspace.rootId)).toEqual(['report.pdf']);
    const listing = await (await finder('PROPFIND', `${folder}/`, { headers: { depth: '1' } })).text();
    expect(listing).toContain('report.pdf');
    expect(listing).not.toContain('._report.pdf');
    expect(listing).not.toContain('.DS_Store');
    const bobs = await signIn(bob, FINDER);
    expect((await bobs('GET', side)).status).toBe(404);
    // Renamed in Finder: the file and its ._ file move together.
    const to = (name: string) => ({ headers: { destination: `${test.app.url}${davUrl(slug, 'Workspace', name)}` } });
    expect((await finder('MOVE', file, to('final.pdf'))).status).toBe(201);
    expect((await finder('MOVE', side, to('._final.pdf'))).status).toBe(201);
    expect((await finder('GET', davUrl(slug, 'Workspace', '._final.pdf'))).status).toBe(200);
    expect((await finder('DELETE', davUrl(slug, 'Workspace', '._final.pdf'))).status).toBe(204);
  });

  it('takes a file from Windows: locked before it exists, written, its times set, unlocked', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const windows = await signIn(ada, WINDOWS);
    const file = davUrl(slug, 'My files', 'Budget.xlsx');
    expect((await windows('PROPFIND', file, { headers: { depth: '0' } })).status).toBe(404);
    const lock = await windows('LOCK', file, { headers: { timeout: 'Second-3600' }, body: lockInfo('ADA-PC\\ada') });
    expect(lock.status).toBe(201);
    const token = lock.headers.get('lock-token')!;
    expect(await names(ada, ada.workspace.homeId)).toEqual(['Budget.xlsx']);
    expect((await windows('PUT', file, { headers: { if: `(${token})` }, body: 'numbers' })).status).toBe(204);
    const times = await windows('PROPPATCH', file, {
      headers: { if: `(${token})`, 'content-type': 'text/xml; charset="utf-8"' },
      body:
        '<?xml version="1.0" encoding="utf-8" ?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop>' +
        '<Z:Win32CreationTime>Thu, 03 Dec 2026 10:00:00 GMT</Z:Win32CreationTime><Z:Win32LastModifiedTime>Thu, 03 Dec 2026 10:00:00 GMT</Z:Win32LastModifiedTime>' +
        '<Z:Win32FileAttributes>00000020</Z:Win32FileAttributes></D:prop></D:set></D:propertyupdate>',
    });
    expect(times.status).toBe(207);
    expect(await times.text()).not.toMatch(/HTTP\/1.1 (4|5)\d\d/);
    expect((await windows('UNLOCK', file, { headers: { 'lock-token': token } })).status).toBe(204);
    expect(await (await windows('GET', file)).text()).toBe('numbers');
    const options = await fetch(`${test.app.url}/dav/`, { method: 'OPTIONS', headers: { 'user-agent': WINDOWS } });
    expect(options.headers.get('ms-author-via')).toBe('DAV');
    expect(options.headers.get('dav')).toBe('1, 2');
  });

  it('takes a body of no declared length (sent in chunks), and an empty one', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const password = await test.given.appPassword(ada);
    const bytes = randomBytes(200_000);
    const res = await fetch(`${test.app.url}${davUrl(slug, 'My files', 'streamed.bin')}`, {
      method: 'PUT',
      headers: { authorization: `Basic ${Buffer.from(`ada:${password}`).toString('base64')}` },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 100_000));
          controller.enqueue(bytes.subarray(100_000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    const got = await davClient(test.app.url, password).send('GET', davUrl(slug, 'My files', 'streamed.bin'));
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('makes a file made under the same name while its bytes came a version of it: one file, the bytes sent last', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const password = await test.given.appPassword(ada);
    const { send, answer } = streamedPut(password, davUrl(slug, 'My files', 'race.txt'), 18);
    send(new TextEncoder().encode('sent by the'));
    // The PUT's upload has started (its name free then) when the same name is taken through the API.
    await new Promise((r) => setTimeout(r, 100));
    expect((await test.given.upload(ada, ada.workspace.homeId, 'race.txt', new TextEncoder().encode('made meanwhile'))).status).toBe(200);
    send(new TextEncoder().encode(' WebDAV'));
    send(null);
    expect([201, 204]).toContain((await answer).status);
    expect(await names(ada, ada.workspace.homeId)).toEqual(['race.txt']);
    const got = await davClient(test.app.url, password).send('GET', davUrl(slug, 'My files', 'race.txt'));
    expect(await got.text()).toBe('sent by the WebDAV');
    const file = (await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: ada.workspace.homeId }, query: {} })).body.items[0]!;
    expect((await ada.call(versionsApi.list, { params: { id: file.id } })).body.items.map((v) => v.size)).toEqual([18, 14]);
  });

  it('refuses a revoked app password at once when revoked here, and within a second when revoked by another instance (ADR 0075)', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const home = davUrl(slug, 'My files') + '/';
    const revokedHere = davClient(test.app.url, await test.given.appPassword(ada));
    expect((await revokedHere.send('PROPFIND', home, { headers: { depth: '0' } })).status).toBe(207);
    const [newest] = (await ada.call(tokensApi.list)).body.items.filter((t) => t.scopes.includes('dav'));
    expect((await ada.call(tokensApi.revoke, { params: { id: newest!.id } })).status).toBe(204);
    expect((await revokedHere.send('PROPFIND', home, { headers: { depth: '0' } })).status).toBe(401);

    const elsewhere = davClient(test.app.url, await test.given.appPassword(ada));
    expect((await elsewhere.send('PROPFIND', home, { headers: { depth: '0' } })).status).toBe(207);
    // Revoked as another instance would, in the database alone: this one took the sign-in it read a moment ago.
    await test.app.ctx.db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('user_id', '=', ada.id).execute();
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await elsewhere.send('PROPFIND', home, { headers: { depth: '0' } })).status).toBe(401);
  });

  it('finishes no file whose app password was revoked while its bytes came', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const password = await test.given.appPassword(ada);
    const { send, answer } = streamedPut(password, davUrl(slug, 'My files', 'cut.bin'), 20);
    send(new Uint8Array(10));
    // Past the second after which a PUT signs in again before it finishes.
    await new Promise((r) => setTimeout(r, 1_200));
    const tokens = (await ada.call(tokensApi.list)).body.items;
    const app = tokens.find((t) => t.scopes.includes('dav'))!;
    expect((await ada.call(tokensApi.revoke, { params: { id: app.id } })).status).toBe(204);
    send(new Uint8Array(10));
    send(null);
    expect((await answer).status).toBe(401);
    expect(await names(ada, ada.workspace.homeId)).toEqual([]);
  });
});
