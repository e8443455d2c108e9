import { createHash, randomBytes } from 'node:crypto';
import { workspacesApi } from '@cabinet/contracts';
import { describe, expect, it, vi } from 'vitest';
import { statementsOf } from '../../testing/statements.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { davUrl } from '../../testing/dav-client.ts';

const test = useTestApp();

/** rclone's PROPFIND after each file it sends (its webdav backend, vendor owncloud). */
const RCLONE_PROPS = `<?xml version="1.0"?>
<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
 <d:prop><d:displayname/><d:getlastmodified/><d:getcontentlength/><d:resourcetype/><d:getcontenttype/><oc:checksums/></d:prop>
</d:propfind>`;

/** A person with an app password, their workspace's slug, and a request of theirs handled in the caller's context (its statements count). */
async function davPerson() {
  const ada = await test.given.person('Ada');
  const slug = (await ada.call(workspacesApi.get, { params: { ws: ada.workspace.id } })).body.slug;
  const password = await test.given.appPassword(ada);
  const authorization = `Basic ${Buffer.from(`ada:${password}`).toString('base64')}`;
  const send = (method: string, url: string, headers: Record<string, string> = {}, payload?: string | Buffer) =>
    test.app.app.inject({ method: method as 'GET', url, headers: { authorization, ...headers }, ...(payload !== undefined ? { payload } : {}) });
  return { ada, slug, send };
}

describe('a small file sent as rclone sends it', () => {
  it('costs a bounded number of statements: the folder made (already there), the file put, its properties read', async () => {
    const { slug, send } = await davPerson();
    const folder = davUrl(slug, 'My files', 'Reports');
    expect((await send('MKCOL', folder + '/')).statusCode).toBe(201);
    // The password's first use of the minute notes so (a write, once a minute); the requests counted below only read it.
    expect((await send('PROPFIND', folder + '/', { depth: '0' })).statusCode).toBe(207);

    // The clock held: each request comes within the second its password's sign-in is kept (ADR 0075), as rclone's do.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const counted = [];
    for (let i = 0; i < 3; i++) {
      const bytes = randomBytes(3000);
      const file = `${folder}/file ${i}.bin`;
      const mkcol = await statementsOf(() => send('MKCOL', folder + '/'));
      expect(mkcol.result.statusCode).toBe(405);
      const put = await statementsOf(() =>
        send(
          'PUT',
          file,
          {
            'content-type': 'application/octet-stream',
            'x-oc-mtime': '1796285898',
            'oc-checksum': `SHA1:${createHash('sha1').update(bytes).digest('hex')}`,
          },
          bytes,
        ),
      );
      expect(put.result.statusCode, put.result.body).toBe(201);
      const propfind = await statementsOf(() => send('PROPFIND', file, { depth: '1', 'content-type': 'application/xml' }, RCLONE_PROPS));
      expect(propfind.result.statusCode).toBe(207);
      counted.push({ mkcol: mkcol.statements, put: put.statements, propfind: propfind.statements });
    }
    // Each request takes the sign-in kept from the request before (a password and its person are read once a second)
    // and finds its workspace, its path and the caller's access to each step of it in one statement, which also says
    // whether any lock bears on the path and what clients said of the file. A PUT then starts an upload (one statement:
    // the workspace's room and the name read, the upload written as they let it, ADR 0076; the folder's access the path
    // gave; no lock above the folder, so none looked for) and completes it (the upload as its start answered it, not read again; a
    // transaction whose one statement makes the file, with the client's time and checksums kept on its version); the
    // PROPFIND takes what clients said of the file from its path's row. Each file's statements are the same.
    for (const c of counted) {
      expect(c.mkcol.length, c.mkcol.join('\n\n')).toBe(1);
      expect(c.put.length, c.put.join('\n\n')).toBe(5);
      expect(c.propfind.length, c.propfind.join('\n\n')).toBe(1);
    }
    // Past its second, a request reads its password again.
    vi.setSystemTime(Date.now() + 1_001);
    const later = await statementsOf(() => send('PROPFIND', `${folder}/file 0.bin`, { depth: '1', 'content-type': 'application/xml' }, RCLONE_PROPS));
    vi.useRealTimers();
    expect(later.result.statusCode).toBe(207);
    expect(later.statements.length, later.statements.join('\n\n')).toBe(2);
    expect(later.statements[0]).toContain('from "api_tokens"');
  });
});

describe('a file sent again under its name', () => {
  it('becomes a new version of the file the path found, whose access it takes: a bounded number of statements', async () => {
    const { ada, slug, send } = await davPerson();
    const put = (url: string, bytes: Buffer) => send('PUT', url, { 'content-type': 'application/octet-stream' }, bytes);
    const file = davUrl(slug, 'My files', 'notes.txt');
    expect((await put(file, randomBytes(100))).statusCode).toBe(201);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const again = await statementsOf(() => put(file, randomBytes(200)));
    vi.useRealTimers();
    expect(again.result.statusCode, again.result.body).toBe(204);
    // The path (with the file and the caller's access to it), the upload opened in one statement as a new version of the
    // file (neither the file's access nor its name read again), then the new version made the careful way: a transaction
    // of 9 statements (the upload and the file locked, the access read again, the version, the file, the upload, the
    // visit, the activity, the usage). The file had bytes: no empty first version to take away.
    expect(again.statements.length, again.statements.join('\n\n')).toBe(13);
    expect(again.statements.filter((s) => /^\s*BEGIN\s*$/i.test(s))).toHaveLength(1);
    const { db } = test.app.ctx;
    const item = await db
      .selectFrom('items')
      .select('id')
      .where('workspace_id', '=', ada.workspace.id)
      .where('name', '=', 'notes.txt')
      .executeTakeFirstOrThrow();
    const versions = await db.selectFrom('file_versions').select('size_bytes').where('item_id', '=', item.id).orderBy('number').execute();
    expect(versions.map((v) => Number(v.size_bytes))).toEqual([100, 200]);
  });
});
