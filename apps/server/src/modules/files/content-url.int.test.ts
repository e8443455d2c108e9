import { filesApi, linksApi, publicLinksApi, uploadsApi, versionsApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { putParts } from '../../testing/given.ts';
import { linkVisitor } from '../../testing/link-visitor.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp({ LOG_LEVEL: 'error', TRUST_PROXY: 'true' });

/** Uploads a file and answers its item id. */
async function uploaded(person: Awaited<ReturnType<typeof test.given.person>>, parentId: string, name: string, text: string) {
  const res = await test.given.upload(person, parentId, name, Buffer.from(text));
  if (res.status !== 200) throw new Error(`could not upload ${name}: ${JSON.stringify(res.error)}`);
  return res.body.item;
}

describe("a file's content URL for the viewer", () => {
  it('is given to whoever may view the file, answers Range, and is not_found for anyone else', async () => {
    const owner = await test.given.person('Owner');
    const [viewer, commenter, stranger] = await Promise.all(['Viewer', 'Commenter', 'Stranger'].map((n) => test.given.person(n)));
    await test.given.membership(viewer!, owner.workspace.id, 'guest');
    await test.given.membership(commenter!, owner.workspace.id, 'member');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Reports');
    await test.given.grant(folder.id, { user: viewer! }, 'viewer');
    await test.given.grant(folder.id, { user: commenter! }, 'commenter');
    const file = await uploaded(owner, folder.id, 'notes.txt', 'hello, viewer');

    for (const who of [owner, viewer!, commenter!]) {
      const res = await who.call(filesApi.contentUrl, { params: { id: file.id } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ size: 13, mimeType: 'text/plain' });
      expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now());
      expect(res.headers.get('cache-control')).toBe('no-store');
      // A reader of ranges asks for a part of the bytes and gets that part alone.
      const part = await fetch(new URL(res.body.url, test.app.url), { headers: { range: 'bytes=7-12' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe('bytes 7-12/13');
      expect(await part.text()).toBe('viewer');
    }
    expect(await stranger!.call(filesApi.contentUrl, { params: { id: file.id } })).toFail('not_found');
    // A folder and a document have no bytes of their own to show.
    expect(await owner.call(filesApi.contentUrl, { params: { id: folder.id } })).toFail('not_found');
    const doc = await test.given.document(owner, folder.id, 'Plan');
    expect(await owner.call(filesApi.contentUrl, { params: { id: doc.id } })).toFail('not_found');
  });

  it('opens an older version of the same file, never a version of another file', async () => {
    const owner = await test.given.person();
    const file = await uploaded(owner, owner.workspace.homeId, 'draft.txt', 'first');
    const start = await owner.call(versionsApi.start, { params: { id: file.id }, body: { size: 6 } });
    await putParts(owner, start.body, Buffer.from('second'));
    expect((await owner.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} })).status).toBe(200);
    const versions = (await owner.call(versionsApi.list, { params: { id: file.id } })).body.items;
    const first = versions.find((v) => v.number === 1)!;

    const current = await owner.call(filesApi.contentUrl, { params: { id: file.id } });
    expect(await (await fetch(new URL(current.body.url, test.app.url))).text()).toBe('second');
    const old = await owner.call(filesApi.contentUrl, { params: { id: file.id }, query: { version: first.id } });
    expect(old.body.size).toBe(5);
    expect(await (await fetch(new URL(old.body.url, test.app.url))).text()).toBe('first');

    const other = await uploaded(owner, owner.workspace.homeId, 'other.txt', 'other');
    expect(await owner.call(filesApi.contentUrl, { params: { id: other.id }, query: { version: first.id } })).toFail('not_found');
    // Someone who may see the other file but not this one learns nothing about this version either.
    const guest = await test.given.person();
    await test.given.membership(guest, owner.workspace.id, 'guest');
    await test.given.grant(other.id, { user: guest }, 'viewer');
    expect(await guest.call(filesApi.contentUrl, { params: { id: other.id }, query: { version: first.id } })).toFail('not_found');
    expect(await guest.call(filesApi.contentUrl, { params: { id: file.id }, query: { version: first.id } })).toFail('not_found');
  });
});

describe("a public link's content URL for the viewer", () => {
  it('shows a viewable file even when downloads are off (uncounted), and another type only when downloads are on', async () => {
    const owner = await test.given.person();
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Press kit');
    const text = await uploaded(owner, folder.id, 'readme.md', '# Press kit');
    const binary = await uploaded(owner, folder.id, 'archive.bin', 'not for the page');
    const outside = await uploaded(owner, owner.workspace.rootId, 'outside.txt', 'elsewhere');
    const link = (await owner.call(linksApi.create, { params: { id: folder.id }, body: { kind: 'view', downloadAllowed: false } })).body;
    const token = link.url!.split('/s/')[1]!;
    const v = linkVisitor(test.app.url);

    const shown = await v.call(publicLinksApi.contentUrl, { params: { token, itemId: text.id } });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ size: 11 });
    const part = await fetch(new URL(shown.body.url, test.app.url), { headers: { range: 'bytes=2-6' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('Press');
    expect(await v.call(publicLinksApi.contentUrl, { params: { token, itemId: binary.id } })).toFail('forbidden');
    expect(await v.call(publicLinksApi.contentUrl, { params: { token, itemId: folder.id } })).toFail('unsupported_media_type');
    expect(await v.call(publicLinksApi.contentUrl, { params: { token, itemId: outside.id } })).toFail('not_found');
    const counted = await owner.call(linksApi.list, { params: { id: folder.id } });
    expect(counted.body.items.find((l) => l.id === link.id)).toMatchObject({ downloads: 0 });

    await owner.call(linksApi.update, { params: { id: folder.id, linkId: link.id }, body: { downloadAllowed: true } });
    expect((await v.call(publicLinksApi.contentUrl, { params: { token, itemId: binary.id } })).status).toBe(200);

    await owner.call(linksApi.revoke, { params: { id: folder.id, linkId: link.id } });
    expect(await v.call(publicLinksApi.contentUrl, { params: { token, itemId: text.id } })).toFail('link_expired');
  });
});
