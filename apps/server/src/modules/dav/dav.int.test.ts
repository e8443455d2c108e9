import { itemsApi, workspacesApi } from '@cabinet/contracts';
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { davClient, davUrl } from '../../testing/dav-client.ts';
import type { Person } from '../../testing/given.ts';
import { storageDrivers, storageSettings } from '../../testing/test-s3.ts';
import { freePort, useTestApp } from '../../testing/test-app.ts';

/** WebDAV's reading and writing methods (ADR 0067) against a real server, on every storage driver. */
describe.each(storageDrivers())('WebDAV on %s', (_name, driver) => {
  const test = useTestApp(async () => {
    const port = await freePort();
    return { ...(await storageSettings(driver, port)), PORT: String(port), UPLOAD_PART_SIZE: '5MiB' };
  });
  const slugOf = async (p: Person) => (await p.call(workspacesApi.get, { params: { ws: p.workspace.id } })).body.slug;
  const passwords = new Map<string, Promise<string>>();
  /** A WebDAV client signed in with the person's app password (one each). */
  const dav = (p: Person) => {
    if (!passwords.has(p.id)) passwords.set(p.id, test.given.appPassword(p));
    const client = passwords.get(p.id)!.then((password) => davClient(test.app.url, password));
    return {
      send: async (...a: Parameters<ReturnType<typeof davClient>['send']>) => (await client).send(...a),
      propfind: async (...a: Parameters<ReturnType<typeof davClient>['propfind']>) => (await client).propfind(...a),
    };
  };
  const childrenOf = async (p: Person, folderId: string) =>
    (await p.call(itemsApi.children, { params: { ws: p.workspace.id, id: folderId }, query: {} })).body.items;

  it('answers OPTIONS to anyone, and asks everything else to sign in', async () => {
    const options = await fetch(`${test.app.url}/dav/`, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(options.headers.get('dav')).toMatch(/^1/);
    expect(options.headers.get('allow')).toContain('PROPFIND');
    const anonymous = await fetch(`${test.app.url}/dav/`, { method: 'PROPFIND', headers: { depth: '0' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Cabinet"/);
    const wrong = await davClient(test.app.url, 'not-a-token').propfind('/dav/', '0');
    expect(wrong.status).toBe(401);
  });

  it('lists workspaces, their places, folders and documents with their properties', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const plans = await test.given.folder(ada, ada.workspace.rootId, 'Plans');
    await test.given.document(ada, plans.id, 'Roadmap');
    const bytes = Buffer.from('hello, world\n');
    await test.given.upload(ada, plans.id, 'hello.txt', bytes);

    const top = await dav(ada).propfind('/dav/');
    expect(top.status).toBe(207);
    expect(top.entries.map((e) => e.href)).toEqual(['/dav/', `/dav/${slug}/`]);

    const places = await dav(ada).propfind(davUrl(slug) + '/');
    expect(places.entries.map((e) => e.href)).toEqual([`/dav/${slug}/`, `/dav/${slug}/My files/`, `/dav/${slug}/Workspace/`, `/dav/${slug}/Shared with me/`]);

    const listing = await dav(ada).propfind(davUrl(slug, 'Workspace', 'Plans'));
    // The folder first, then what it holds, as the browser sorts it.
    expect(listing.entries.map((e) => e.href)).toEqual([
      `/dav/${slug}/Workspace/Plans/`,
      `/dav/${slug}/Workspace/Plans/hello.txt`,
      `/dav/${slug}/Workspace/Plans/Roadmap.md`,
    ]);
    const file = listing.entries[1]!.props;
    expect(file.get('DAV: getcontentlength')?.text).toBe(String(bytes.length));
    expect(file.get('DAV: getcontenttype')?.text).toBe('text/plain');
    expect(file.get('DAV: getetag')?.text).toMatch(/^"[^"]+"$/);
    expect(file.get('DAV: resourcetype')?.element.children).toEqual([]);
    expect(listing.entries[0]!.props.get('DAV: resourcetype')?.element.children).toHaveLength(1);

    const infinity = await dav(ada).propfind(davUrl(slug, 'Workspace'), 'infinity');
    expect(infinity.status).toBe(403);
    expect(infinity.text).toContain('propfind-finite-depth');

    const missing = await dav(ada).propfind(davUrl(slug, 'Workspace', 'nothing'));
    expect(missing.status).toBe(404);
  });

  it('answers named properties, and 404 for those it does not have', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const res = await dav(ada).propfind(
      davUrl(slug, 'My files'),
      '0',
      '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop><D:displayname/><Z:nothing/><D:getcontentlength/></D:prop></D:propfind>',
    );
    expect(res.status).toBe(207);
    const props = res.entries[0]!.props;
    expect(props.get('DAV: displayname')).toMatchObject({ status: 200, text: 'My files' });
    expect(props.get('urn:z nothing')?.status).toBe(404);
    expect(props.get('DAV: getcontentlength')?.status).toBe(404);
    const broken = await dav(ada).propfind(davUrl(slug), '0', '<propfind');
    expect(broken.status).toBe(400);
  });

  it('serves a file whole, by range and by entity tag, and a document as Markdown', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const bytes = randomBytes(100_000);
    await test.given.upload(ada, ada.workspace.homeId, 'data.bin', bytes);
    const url = davUrl(slug, 'My files', 'data.bin');
    const whole = await dav(ada).send('GET', url);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const etag = whole.headers.get('etag')!;
    const part = await dav(ada).send('GET', url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    expect((await dav(ada).send('GET', url, { headers: { range: 'bytes=200000-' } })).status).toBe(416);
    expect((await dav(ada).send('GET', url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await dav(ada).send('HEAD', url);
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(bytes.length)]);

    const doc = await test.given.document(ada, ada.workspace.homeId, 'Notes');
    const markdown = await dav(ada).send('GET', davUrl(slug, 'My files', 'Notes.md'));
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(doc.kind).toBe('document');
    expect((await dav(ada).send('GET', davUrl(slug, 'My files'))).status).toBe(405);
  });

  it('makes folders, puts files (a new version when the name is taken) and deletes to the trash', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const folder = davUrl(slug, 'Workspace', 'Ünïcode folder');
    expect((await dav(ada).send('MKCOL', folder)).status).toBe(201);
    expect((await dav(ada).send('MKCOL', folder)).status).toBe(405);
    expect((await dav(ada).send('MKCOL', davUrl(slug, 'Workspace', 'no', 'such'))).status).toBe(409);
    expect((await dav(ada).send('MKCOL', davUrl(slug, 'Workspace', 'x'), { body: '<a/>' })).status).toBe(415);
    expect((await dav(ada).send('MKCOL', davUrl(slug, 'Workspace', ' edge'))).status).toBe(400);
    expect((await dav(ada).send('MKCOL', davUrl(slug, 'Elsewhere'))).status).toBe(403);

    const big = randomBytes(12 * 1024 * 1024 + 5);
    const file = `${folder}/big.bin`;
    expect((await dav(ada).send('PUT', file, { body: big })).status).toBe(201);
    expect(Buffer.from(await (await dav(ada).send('GET', file)).arrayBuffer()).equals(big)).toBe(true);
    const small = Buffer.from('second version');
    expect((await dav(ada).send('PUT', file, { body: small })).status).toBe(204);
    expect(await (await dav(ada).send('GET', file)).text()).toBe('second version');
    expect((await dav(ada).send('PUT', `${folder}/empty`, { body: new Uint8Array() })).status).toBe(201);
    expect((await dav(ada).send('GET', `${folder}/empty`)).headers.get('content-length')).toBe('0');
    expect((await dav(ada).send('PUT', davUrl(slug, 'Workspace', 'no', 'such.txt'), { body: 'x' })).status).toBe(409);
    expect((await dav(ada).send('PUT', folder, { body: 'x' })).status).toBe(405);

    const [made] = (await childrenOf(ada, ada.workspace.rootId)).filter((i) => i.name === 'Ünïcode folder');
    expect((await childrenOf(ada, made!.id)).map((i) => [i.name, i.size])).toEqual([
      ['big.bin', small.length],
      ['empty', 0],
    ]);

    expect((await dav(ada).send('DELETE', file)).status).toBe(204);
    expect((await dav(ada).send('GET', file)).status).toBe(404);
    expect((await dav(ada).send('DELETE', davUrl(slug, 'Workspace'))).status).toBe(403);
  });

  it('keeps to what the caller may see and do', async () => {
    const ada = await test.given.person('Ada');
    const bob = await test.given.person('Bob');
    const slug = await slugOf(ada);
    await test.given.membership(bob, ada.workspace.id, 'member');
    const secret = await test.given.folder(ada, ada.workspace.homeId, 'Secret');
    const shared = await test.given.folder(ada, ada.workspace.homeId, 'For Bob');
    await test.given.grant(shared.id, { user: bob }, 'viewer');

    expect((await dav(bob).propfind(davUrl(slug, 'My files', 'Secret'))).status).toBe(404);
    const sharedList = await dav(bob).propfind(davUrl(slug, 'Shared with me') + '/');
    expect(sharedList.entries.map((e) => e.href)).toEqual([`/dav/${slug}/Shared with me/`, `/dav/${slug}/Shared with me/For Bob/`]);
    expect((await dav(bob).send('PUT', davUrl(slug, 'Shared with me', 'For Bob', 'x.txt'), { body: 'x' })).status).toBe(403);
    expect((await dav(bob).send('DELETE', davUrl(slug, 'Shared with me', 'For Bob'))).status).toBe(403);
    expect(secret.name).toBe('Secret');

    // An API token serves too, with its own scopes: one that may only read, reads.
    const reader = davClient(test.app.url, (await test.given.readOnly(ada)).token);
    expect((await reader.send('MKCOL', davUrl(slug, 'My files', 'New'))).status).toBe(403);
    expect((await reader.propfind(davUrl(slug, 'My files'))).status).toBe(207);
  });

  it('refuses paths that are not names', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    for (const bad of [`/dav/${slug}/Workspace/a%2Fb`, `/dav/${slug}/Workspace/%00`, `/dav/${slug}/Workspace/%E0%A4%A`]) {
      expect((await dav(ada).propfind(bad)).status, bad).toBe(400);
    }
    const long = 'n'.repeat(256);
    expect((await dav(ada).send('MKCOL', davUrl(slug, 'Workspace', long))).status).toBe(400);
  });

  it('copies and moves, keeping to Overwrite, and never into itself', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const at = (...names: string[]) => davUrl(slug, 'My files', ...names);
    const to = (...names: string[]) => ({ headers: { destination: `${test.app.url}${at(...names)}` } });
    expect((await dav(ada).send('MKCOL', at('a'))).status).toBe(201);
    expect((await dav(ada).send('PUT', at('a', 'one.txt'), { body: 'one' })).status).toBe(201);
    expect((await dav(ada).send('COPY', at('a'), to('b'))).status).toBe(201);
    expect(await (await dav(ada).send('GET', at('b', 'one.txt'))).text()).toBe('one');
    expect((await dav(ada).send('COPY', at('a', 'one.txt'), { headers: { ...to('b', 'one.txt').headers, overwrite: 'F' } })).status).toBe(412);
    expect((await dav(ada).send('COPY', at('a', 'one.txt'), to('b', 'one.txt'))).status).toBe(204);
    expect((await dav(ada).send('MOVE', at('a'), to('a', 'inside'))).status).toBe(409);
    expect((await dav(ada).send('MOVE', at('a'), to('a'))).status).toBe(403);
    expect((await dav(ada).send('MOVE', at('a', 'one.txt'), to('b', 'two.txt'))).status).toBe(201);
    expect((await dav(ada).send('GET', at('a', 'one.txt'))).status).toBe(404);
    expect(await (await dav(ada).send('GET', at('b', 'two.txt'))).text()).toBe('one');
    expect((await dav(ada).send('MOVE', at('b'), { headers: { destination: 'http://elsewhere.example/dav/x' } })).status).toBe(502);
    await test.given.document(ada, ada.workspace.homeId, 'Plan');
    expect((await dav(ada).send('MOVE', at('Plan.md'), to('Plan.txt'))).status).toBe(403);
    expect((await dav(ada).send('MOVE', at('Plan.md'), to('Renamed.md'))).status).toBe(201);
    expect((await childrenOf(ada, ada.workspace.homeId)).map((i) => i.name)).toContain('Renamed');
    expect((await dav(ada).send('PUT', at('Renamed.md'), { body: '# no' })).status).toBe(403);
  });

  it('keeps dead properties, all or none', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const file = davUrl(slug, 'My files', 'p.txt');
    await dav(ada).send('PUT', file, { body: 'p' });
    const patch = (body: string) => dav(ada).send('PROPPATCH', file, { headers: { 'content-type': 'application/xml' }, body });
    const set = await patch(
      '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:z="urn:z"><d:set><d:prop><z:colour xml:lang="en">blue <z:b>deep</z:b></z:colour></d:prop></d:set></d:propertyupdate>',
    );
    expect(set.status).toBe(207);
    const both = await patch(
      '<d:propertyupdate xmlns:d="DAV:" xmlns:z="urn:z"><d:set><d:prop><z:size>9</z:size><d:getetag>x</d:getetag></d:prop></d:set></d:propertyupdate>',
    );
    const text = await both.text();
    expect(text).toContain('HTTP/1.1 403');
    expect(text).toContain('HTTP/1.1 424');
    const read = await dav(ada).propfind(file, '0', '<d:propfind xmlns:d="DAV:" xmlns:z="urn:z"><d:prop><z:colour/><z:size/></d:prop></d:propfind>');
    expect(read.entries[0]!.props.get('urn:z colour')).toMatchObject({ status: 200, text: 'blue deep' });
    expect(read.entries[0]!.props.get('urn:z size')?.status).toBe(404);
  });

  it('locks for real: a change without the token is refused, and the holder alone unlocks', async () => {
    const ada = await test.given.person('Ada');
    const bob = await test.given.person('Bob');
    const slug = await slugOf(ada);
    await test.given.membership(bob, ada.workspace.id, 'member');
    const file = davUrl(slug, 'Workspace', 'shared.txt');
    expect((await dav(ada).send('PUT', file, { body: 'v1' })).status).toBe(201);
    const lockBody =
      '<?xml version="1.0"?><d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype><d:owner>Bob</d:owner></d:lockinfo>';
    const locked = await dav(bob).send('LOCK', file, {
      headers: { timeout: 'Second-600', 'user-agent': 'WebDAVFS/3.0.0 (03008000) Darwin/22.1.0' },
      body: lockBody,
    });
    expect(locked.status).toBe(200);
    const token = /^<(.+)>$/.exec(locked.headers.get('lock-token') ?? '')![1]!;
    expect(await locked.text()).toContain(token);

    expect((await dav(ada).send('PUT', file, { body: 'v2' })).status).toBe(423);
    expect((await dav(ada).send('DELETE', file)).status).toBe(423);
    expect((await dav(ada).send('LOCK', file, { body: lockBody })).status).toBe(423);
    // Another person's token is theirs alone.
    expect((await dav(ada).send('PUT', file, { headers: { if: `(<${token}>)` }, body: 'v2' })).status).toBe(423);
    expect((await dav(ada).send('UNLOCK', file, { headers: { 'lock-token': `<${token}>` } })).status).toBe(403);
    expect((await dav(bob).send('PUT', file, { headers: { if: `(<${token}>)` }, body: 'v2' })).status).toBe(204);
    expect((await dav(bob).send('PUT', file, { headers: { if: '(<urn:uuid:00000000-0000-0000-0000-000000000000>)' }, body: 'v3' })).status).toBe(412);

    const discovered = await dav(ada).propfind(file, '0', '<d:propfind xmlns:d="DAV:"><d:prop><d:lockdiscovery/></d:prop></d:propfind>');
    expect(discovered.text).toContain(token);
    expect(discovered.text).toContain('<d:exclusive/>');

    expect((await dav(bob).send('UNLOCK', file, { headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
    expect((await dav(ada).send('PUT', file, { body: 'v3' })).status).toBe(204);
    expect(await (await dav(ada).send('GET', file)).text()).toBe('v3');
  });

  it("holds a folder's deep lock over everything below it, however deep, and only there", async () => {
    const ada = await test.given.person('Ada');
    const bob = await test.given.person('Bob');
    const slug = await slugOf(ada);
    await test.given.membership(bob, ada.workspace.id, 'member');
    const top = davUrl(slug, 'Workspace', 'Locked');
    expect((await dav(ada).send('MKCOL', top)).status).toBe(201);
    expect((await dav(ada).send('MKCOL', `${top}/Inner`)).status).toBe(201);
    expect((await dav(ada).send('MKCOL', davUrl(slug, 'Workspace', 'Open'))).status).toBe(201);
    const locked = await dav(bob).send('LOCK', top, {
      headers: { depth: 'infinity', timeout: 'Second-600' },
      body: '<?xml version="1.0"?><d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>',
    });
    expect(locked.status).toBe(200);
    const token = /^<(.+)>$/.exec(locked.headers.get('lock-token') ?? '')![1]!;
    // A new file two folders down, a new folder, a property: each is a change under the lock.
    expect((await dav(ada).send('PUT', `${top}/Inner/new.txt`, { body: 'x' })).status).toBe(423);
    expect((await dav(ada).send('MKCOL', `${top}/Inner/Deeper`)).status).toBe(423);
    expect((await dav(bob).send('PUT', `${top}/Inner/new.txt`, { headers: { if: `(<${token}>)` }, body: 'x' })).status).toBe(201);
    expect((await dav(ada).send('PUT', `${top}/Inner/new.txt`, { body: 'y' })).status).toBe(423);
    // Beside it, nothing is locked.
    expect((await dav(ada).send('PUT', davUrl(slug, 'Workspace', 'Open', 'new.txt'), { body: 'x' })).status).toBe(201);
    expect((await dav(bob).send('UNLOCK', top, { headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
    expect((await dav(ada).send('PUT', `${top}/Inner/new.txt`, { body: 'y' })).status).toBe(204);
  });

  it("keeps a client's modification time", async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const file = davUrl(slug, 'My files', 'old.txt');
    const put = await dav(ada).send('PUT', file, { headers: { 'x-oc-mtime': '1577934245' }, body: 'old' });
    expect(put.headers.get('x-oc-mtime')).toBe('accepted');
    const read = await dav(ada).propfind(file, '0');
    expect(read.entries[0]!.props.get('DAV: getlastmodified')?.text).toBe('Thu, 02 Jan 2020 03:04:05 GMT');
  });

  it("checks the bytes against a client's checksum, and shows every file's SHA-1 and MD5 as its clients compare them", async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const hex = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex');
    const sums = (text: string) => `SHA1:${hex('sha1', text)} MD5:${hex('md5', text)}`;
    const file = davUrl(slug, 'My files', 'summed.txt');
    const asked = `<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><d:getcontentlength/><oc:checksums/></d:prop></d:propfind>`;
    const summed = (path: string) =>
      dav(ada)
        .propfind(path, '0', asked)
        .then((r) => r.entries[0]!.props.get('http://owncloud.org/ns checksums'));

    // Bytes that do not match: refused, nothing made; a known kind of the wrong length too.
    const wrong = await dav(ada).send('PUT', file, { headers: { 'oc-checksum': `SHA1:${hex('sha1', 'other')}` }, body: 'summed' });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toMatch(/do not match the checksum/);
    expect((await dav(ada).send('PUT', file, { headers: { 'oc-checksum': 'MD5:abc' }, body: 'summed' })).status).toBe(400);
    expect((await dav(ada).propfind(file, '0')).status).toBe(404);

    // Bytes that match (any case): made, with their digests shown as ownCloud's clients and rclone read them.
    const put = await dav(ada).send('PUT', file, { headers: { 'oc-checksum': `SHA1:${hex('sha1', 'summed').toUpperCase()}` }, body: 'summed' });
    expect(put.status).toBe(201);
    expect(await summed(file)).toMatchObject({ status: 200, text: sums('summed') });
    // A new version sent with none, or with a kind not checked (ADLER32): its own digests.
    expect((await dav(ada).send('PUT', file, { headers: { 'oc-checksum': 'ADLER32:0a1b2c3d' }, body: 'summed again' })).status).toBe(204);
    expect(await summed(file)).toMatchObject({ status: 200, text: sums('summed again') });
    // A file uploaded otherwise has SHA-256 alone, which these clients do not compare by: none shown.
    await test.given.upload(ada, ada.workspace.homeId, 'uploaded.txt', Buffer.from('uploaded'));
    expect(await summed(davUrl(slug, 'My files', 'uploaded.txt'))).toMatchObject({ status: 404 });
    // A client cannot set them as a dead property.
    const patch = await dav(ada).send('PROPPATCH', file, {
      headers: { 'content-type': 'application/xml' },
      body: `<d:propertyupdate xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:set><d:prop><oc:checksums>SHA1:${hex('sha1', 'x')}</oc:checksums></d:prop></d:set></d:propertyupdate>`,
    });
    expect(await patch.text()).toMatch(/403 Forbidden/);
  });

  it('leaves what a refused COPY or MOVE would have replaced where it was', async () => {
    const ada = await test.given.person('Ada');
    const bob = await test.given.person('Bob');
    await test.given.membership(ada, bob.workspace.id, 'member');
    const slug = await slugOf(ada);
    const other = await slugOf(bob);
    await dav(ada).send('PUT', davUrl(slug, 'My files', 'a.txt'), { body: 'mine' });
    await dav(ada).send('PUT', davUrl(other, 'Workspace', 'precious.txt'), { body: 'precious' });
    const across = { headers: { destination: `${test.app.url}${davUrl(other, 'Workspace', 'precious.txt')}` } };
    expect((await dav(ada).send('MOVE', davUrl(slug, 'My files', 'a.txt'), across)).status).toBe(403);
    expect((await dav(ada).send('COPY', davUrl(slug, 'My files', 'a.txt'), across)).status).toBe(403);
    expect(await (await dav(ada).send('GET', davUrl(other, 'Workspace', 'precious.txt'))).text()).toBe('precious');
  });

  it('gives one exclusive lock when many are asked for at once', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const file = davUrl(slug, 'My files', 'k.txt');
    await dav(ada).send('PUT', file, { body: 'k' });
    const body = '<d:lockinfo xmlns:d="DAV:"><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockinfo>';
    const statuses = await Promise.all(Array.from({ length: 8 }, async () => (await dav(ada).send('LOCK', file, { body })).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 423)).toHaveLength(7);
  });

  it('refuses a body longer than it said, and keeps nothing of it', async () => {
    const ada = await test.given.person('Ada');
    const slug = await slugOf(ada);
    const file = davUrl(slug, 'My files', 'long.txt');
    const res = await dav(ada).send('PUT', file, {
      headers: { 'x-expected-entity-length': '2' },
      body: new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('twenty bytes of text')), c.close()) }),
    });
    expect(res.status).toBe(400);
    expect((await dav(ada).send('GET', file)).status).toBe(404);
  });
});
