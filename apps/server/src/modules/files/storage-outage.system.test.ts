import { itemsApi, uploadsApi } from '@cabinet/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, putParts, sha256Hex, type Person } from '../../testing/given.ts';
import { TcpProxy } from '../../testing/tcp-proxy.ts';
import { storageSettings, testS3Settings } from '../../testing/test-s3.ts';
import { freePort, startTestApp, type TestApp } from '../../testing/test-app.ts';

const s3 = testS3Settings();

/** The bucket goes away (a TCP relay in front of the real S3 is cut) and comes back. */
describe.skipIf(!s3)('uploads while the storage is unreachable', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let g: ReturnType<typeof given>;

  beforeAll(async () => {
    const endpoint = new URL(s3!.S3_ENDPOINT!);
    proxy = new TcpProxy(endpoint.hostname, Number(endpoint.port), await freePort());
    await proxy.up();
    const port = await freePort();
    t = await startTestApp({ ...(await storageSettings({ ...s3!, S3_ENDPOINT: `http://127.0.0.1:${proxy.port}` }, port)), PORT: String(port) });
    g = given(t.ctx, t.url);
  });
  afterAll(async () => {
    await proxy.down();
    await t.close();
  });

  const rows = async (p: Person) => ({
    uploads: await t.ctx.db.selectFrom('uploads').select('state').where('author_id', '=', p.id).execute(),
    items: (await p.call(itemsApi.children, { params: { ws: p.workspace.id, id: p.workspace.homeId } })).body.items,
  });

  it('answers storage_unavailable and leaves no upload, item or version behind; a retry then succeeds', async () => {
    const ada = await g.person();
    const bytes = randomBytes(2000);
    await proxy.down();
    const start = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: { parentId: ada.workspace.homeId, name: 'a.bin', size: bytes.length },
    });
    expect(start).toFail('storage_unavailable');
    expect(await rows(ada)).toEqual({ uploads: [], items: [] });

    await proxy.up();
    const retried = await g.upload(ada, ada.workspace.homeId, 'a.bin', bytes);
    expect(retried.status).toBe(200);
    expect(retried.body.item.size).toBe(2000);
  });

  it('keeps an upload open when the storage drops during completion, and completes it once it is back', async () => {
    const ada = await g.person();
    const bytes = randomBytes(3000);
    const start = await ada.call(uploadsApi.start, {
      params: { ws: ada.workspace.id },
      body: { parentId: ada.workspace.homeId, name: 'b.bin', size: bytes.length },
    });
    await putParts(ada, start.body, bytes);
    await proxy.down();
    const failed = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: { sha256: sha256Hex(bytes) } });
    expect(failed).toFail('storage_unavailable');
    expect((await rows(ada)).items).toEqual([]);
    expect(await t.ctx.db.selectFrom('file_versions').select('id').where('author_id', '=', ada.id).execute()).toEqual([]);

    await proxy.up();
    const done = await ada.call(uploadsApi.complete, { params: { id: start.body.id }, body: { sha256: sha256Hex(bytes) } });
    expect(done.status).toBe(200);
    expect(done.body.item.name).toBe('b.bin');
  });
});
