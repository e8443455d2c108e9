import { itemsApi, workspacesApi } from '@cabinet/contracts';
import { randomBytes } from 'node:crypto';
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
  const dav = (p: Person) => davClient(test.app.url, p.token);
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

    const reader = await test.given.readOnly(ada);
    expect((await dav(reader).send('MKCOL', davUrl(slug, 'My files', 'New'))).status).toBe(403);
    expect((await dav(reader).propfind(davUrl(slug, 'My files'))).status).toBe(207);
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
});
