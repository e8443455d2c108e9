import { uploadsApi } from '@cabinet/contracts';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { inTransaction, type Db } from '../../db/client.ts';
import { type Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { recordCreated } from '../events/events.ts';
import { insertUploadedFiles } from './files.repo.ts';

/** The one-statement completion of new files, and what it tells its caller when it cannot be the whole answer. */
const test = useTestApp();
let ada: Person;

beforeAll(async () => {
  ada = await test.given.person('Ada');
});

async function openUpload(name: string, size = 10): Promise<string> {
  const res = await ada.call(uploadsApi.start, { params: { ws: ada.workspace.id }, body: { parentId: ada.workspace.homeId, name, size } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const file = (uploadId: string, name: string) => ({
  uploadId,
  workspaceId: ada.workspace.id,
  parentId: ada.workspace.homeId,
  name,
  ownerId: ada.id,
  size: 10,
  mimeType: 'text/plain',
  blobKey: `${ada.workspace.id}/test-${uploadId}`,
  sha256: '0'.repeat(64),
});
const completeAll = (files: ReturnType<typeof file>[], db: Db = test.app.ctx.db) =>
  inTransaction(db, (tx) => insertUploadedFiles(tx, files, recordCreated('item', null)));
const complete = (uploadId: string, name: string, db: Db = test.app.ctx.db) => completeAll([file(uploadId, name)], db);

const filesNamed = (name: string) =>
  test.app.ctx.db
    .selectFrom('items')
    .select('id')
    .where('parent_id', '=', ada.workspace.homeId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .execute();
const uploadState = async (id: string) => (await test.app.ctx.db.selectFrom('uploads').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

it('makes each file, its version and the visit, completes each upload and counts the bytes, in the order given', async () => {
  const ids = [await openUpload('made.txt'), await openUpload('also made.txt')];
  const used = async () =>
    Number((await test.app.ctx.db.selectFrom('workspaces').select('used_bytes').where('id', '=', ada.workspace.id).executeTakeFirstOrThrow()).used_bytes);
  const before = await used();
  const made = await completeAll([file(ids[0]!, 'made.txt'), file(ids[1]!, 'also made.txt')]);
  expect(made).toMatchObject({
    whole: true,
    counted: true,
    items: [{ name: 'made.txt', kind: 'file', parent_id: ada.workspace.homeId }, { name: 'also made.txt' }],
  });
  for (const id of ids) expect(await uploadState(id)).toBe('completed');
  expect(await used()).toBe(before + 20);
  for (const item of made.items) {
    const version = await test.app.ctx.db.selectFrom('file_versions').selectAll().where('item_id', '=', item.id).executeTakeFirstOrThrow();
    expect(version).toMatchObject({ number: 1, size_bytes: 10, id: item.current_version_id });
    expect(await test.app.ctx.db.selectFrom('item_visits').select('user_id').where('item_id', '=', item.id).execute()).toEqual([{ user_id: ada.id }]);
  }
});

it('makes no file when the name was taken after the checks (the caller then takes the careful path)', async () => {
  const id = await openUpload('taken.txt');
  await test.given.folder(ada, ada.workspace.homeId, 'Taken.TXT');
  await expect(complete(id, 'taken.txt')).resolves.toMatchObject({ whole: false, items: [] });
  expect(await filesNamed('taken.txt')).toHaveLength(1);
  expect(await uploadState(id)).toBe('created');
});

it('makes no file for an upload that ended meanwhile', async () => {
  const id = await openUpload('cancelled.txt');
  expect((await ada.call(uploadsApi.abort, { params: { id } })).status).toBe(204);
  await expect(complete(id, 'cancelled.txt')).resolves.toMatchObject({ whole: false, items: [] });
  expect(await filesNamed('cancelled.txt')).toHaveLength(0);
});

it('says when the quota refuses the bytes, so the caller rolls back', async () => {
  const id = await openUpload('big.txt');
  await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: 1 }).where('id', '=', ada.workspace.id).execute();
  try {
    await expect(
      inTransaction(test.app.ctx.db, async (tx) => {
        const made = await complete(id, 'big.txt', tx);
        expect(made).toMatchObject({ whole: true, counted: false });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
  } finally {
    await test.app.ctx.db.updateTable('workspaces').set({ quota_bytes: null }).where('id', '=', ada.workspace.id).execute();
  }
  expect(await filesNamed('big.txt')).toHaveLength(0);
  expect(await uploadState(id)).toBe('created');
});
