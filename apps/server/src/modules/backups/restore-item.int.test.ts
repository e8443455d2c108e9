import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { itemsApi } from '@cabinet/contracts';
import { documentNode, documentText, documentUpdate, fromMarkdown, stateDoc, toMarkdown } from '@cabinet/doc-schema/server';
import { describe, expect, it } from 'vitest';
import { storeDocument } from '../documents/index.ts';
import { deleteBlobIfUnused } from '../items/index.ts';
import type { Person } from '../../testing/given.ts';
import { tempFolders } from '../../testing/temp-folders.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { blobPath } from './backup-folder.ts';
import { BackupRefused, createBackup } from './backup.service.ts';
import { restoreItemFromBackup } from './restore-item.ts';

const test = useTestApp();
const newFolder = tempFolders('cabinet-restore-item');
const quiet = { progress: () => {} };
/** Each restore loads a backup's database anew (an embedded one in a worker of its own): seconds each, more on a busy machine. */
const RESTORES = 240_000;
const bytes = (text: string) => new TextEncoder().encode(text);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const markdown = (state: Uint8Array) => toMarkdown(documentNode(stateDoc(state)));

/** A folder holding a file of three versions and a document with a picture of its own and two revisions, all Ada's. */
async function reportsFolder(ada: Person) {
  const ctx = test.app.ctx;
  const folder = await test.given.folder(ada, ada.workspace.rootId, `Reports ${Math.random().toString(36).slice(2, 7)}`);
  for (const text of ['plan, first draft', 'plan, second draft', 'plan, as agreed'])
    expect((await test.given.upload(ada, folder.id, 'plan.txt', bytes(text), { onConflict: 'replace' })).status).toBe(200);
  const notes = await test.given.document(ada, folder.id, 'Notes');
  const picture = await test.given.upload(ada, notes.id, 'chart.png', bytes('a chart, as a picture'));
  if (picture.status !== 200) throw new Error('the picture was not uploaded');
  const pictureId = picture.body.item.id;
  const write = async (md: string) => {
    const node = fromMarkdown(md);
    await storeDocument(ctx.db, notes.id, { state: documentUpdate(node), text: documentText(node) }, { by: null, revision: { authorIds: [ada.id] } });
  };
  await write('# Notes\n\nThe first thoughts.');
  await write(`# Notes\n\nThe first thoughts, and a chart:\n\n![chart](/api/v1/items/${pictureId}/content)`);
  return { folder, notes, pictureId };
}

/** What a tree holds, as names and hashes a person would compare: each file's versions and each document's text and revisions. */
async function contentsOf(rootId: string) {
  const { db, storage } = test.app.ctx;
  const items = await db
    .withRecursive('sub(id)', (qb) =>
      qb
        .selectFrom('items')
        .select('id')
        .where('id', '=', rootId)
        .unionAll((u) => u.selectFrom('items as i').innerJoin('sub', 'sub.id', 'i.parent_id').select('i.id').where('i.state', '=', 'active')),
    )
    .selectFrom('items')
    .innerJoin('sub', 'sub.id', 'items.id')
    .selectAll('items')
    .orderBy('items.name')
    .execute();
  const out: Record<string, unknown> = {};
  for (const item of items) {
    if (item.kind === 'file') {
      const versions = await db.selectFrom('file_versions').selectAll().where('item_id', '=', item.id).orderBy('number').execute();
      const hashes = [];
      for (const v of versions) hashes.push(`${v.number}:${sha(await buffer(await storage.read(v.blob_key)))}:${v.sha256}`);
      const current = versions.find((v) => v.id === item.current_version_id)?.number;
      out[item.name] = { current, hashes };
    } else if (item.kind === 'document') {
      const content = await db.selectFrom('document_contents').select(['text']).where('item_id', '=', item.id).executeTakeFirst();
      const revisions = await db.selectFrom('document_revisions').select(['text']).where('item_id', '=', item.id).orderBy('created_at').execute();
      out[item.name] = { text: content?.text, revisions: revisions.map((r) => r.text) };
    } else out[item.name] = item.id === rootId ? 'top' : 'folder';
  }
  return out;
}

/** Deletes a trashed item for good, and its bytes, as the jobs that follow a purge do. */
async function deleteForever(ada: Person, id: string) {
  const { db, storage } = test.app.ctx;
  const keys = (
    await db
      .selectFrom('file_versions')
      .innerJoin('items', 'items.id', 'file_versions.item_id')
      .select('blob_key')
      .where('items.id', 'in', (await allBelow(id)).concat(id))
      .execute()
  ).map((r) => r.blob_key);
  expect((await ada.call(itemsApi.trash, { params: { id } })).status).toBe(200);
  expect((await ada.call(itemsApi.purge, { params: { id } })).status).toBe(204);
  for (const key of keys) await deleteBlobIfUnused(db, storage, key);
  for (const key of keys) expect(await storage.stat(key)).toBeNull();
}

async function allBelow(id: string): Promise<string[]> {
  const children = await test.app.ctx.db.selectFrom('items').select('id').where('parent_id', '=', id).execute();
  const ids = children.map((c) => c.id);
  for (const c of children) ids.push(...(await allBelow(c.id)));
  return ids;
}

describe('cabinet restore-item', () => {
  it(
    'brings a folder deleted for good back from a backup, with every version and revision, under its own ids; once',
    async () => {
      const ctx = test.app.ctx;
      const ada = await test.given.person('Ada');
      const { folder, notes, pictureId } = await reportsFolder(ada);
      const before = await contentsOf(folder.id);
      expect(before['plan.txt']).toMatchObject({ current: 3, hashes: [expect.any(String), expect.any(String), expect.any(String)] });
      expect((before['Notes'] as { revisions: string[] }).revisions).toHaveLength(2);
      const usedBefore = (await ctx.db.selectFrom('workspaces').select('used_bytes').where('id', '=', ada.workspace.id).executeTakeFirstOrThrow()).used_bytes;
      const location = await newFolder();
      const { manifest } = await createBackup(ctx, location, { trigger: 'command' });
      await deleteForever(ada, folder.id);

      // In a worker of its own, as a large backup's database is loaded (a small one is loaded here, as the others below).
      const restored = await restoreItemFromBackup(ctx, location, { itemId: folder.id, io: quiet, loadIn: 'worker' });
      expect(restored).toMatchObject({
        backup: manifest.name,
        already: false,
        item: { id: folder.id, name: folder.name, kind: 'folder' },
        folder: { id: ada.workspace.rootId, which: 'original' },
        items: 4,
        versions: 4,
        documents: 1,
        revisions: 2,
        leftOut: [],
      });
      // Every version's bytes, read back from storage, and every text, as they were.
      expect(await contentsOf(folder.id)).toEqual(before);
      // The picture the document shows is the one that came back with it (the same id).
      expect(
        markdown((await ctx.db.selectFrom('document_contents').select('state').where('item_id', '=', notes.id).executeTakeFirstOrThrow()).state),
      ).toContain(`/api/v1/items/${pictureId}/content`);
      // Ada sees it where it was, and the workspace counts its bytes again.
      const listed = await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: ada.workspace.rootId }, query: {} });
      expect(listed.body.items.map((i) => i.name)).toContain(folder.name);
      const usedAfter = (await ctx.db.selectFrom('workspaces').select('used_bytes').where('id', '=', ada.workspace.id).executeTakeFirstOrThrow()).used_bytes;
      expect(usedAfter).toBe(usedBefore);
      const activity = await ctx.db
        .selectFrom('activity_events')
        .select(['action', 'data'])
        .where('item_id', '=', folder.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(activity).toMatchObject({ action: 'item.restored', data: { fromBackup: manifest.name } });

      // Run again (as after a kill once it had ended): it says where it is, and brings back nothing more.
      const again = await restoreItemFromBackup(ctx, location, { itemId: folder.id, io: quiet });
      expect(again).toMatchObject({ already: true, item: { id: folder.id }, items: 0 });
      expect((await ctx.db.selectFrom('items').select('id').where('name', '=', folder.name).execute()).length).toBe(1);
    },
    RESTORES,
  );

  it(
    'brings it back as a new item, its document showing its own picture, when the original is still there; into the folder given',
    async () => {
      const ctx = test.app.ctx;
      const ada = await test.given.person('Ada');
      const { folder, pictureId } = await reportsFolder(ada);
      const before = await contentsOf(folder.id);
      const location = await newFolder();
      await createBackup(ctx, location, { trigger: 'command' });
      const archive = await test.given.folder(ada, ada.workspace.rootId, 'Archive');

      const copy = await restoreItemFromBackup(ctx, location, { itemId: folder.id, to: archive.id, io: quiet });
      expect(copy).toMatchObject({ already: false, folder: { id: archive.id, which: 'chosen' }, items: 4, versions: 4, revisions: 2, copiedBytes: 0 });
      expect(copy.item.id).not.toBe(folder.id);
      expect(await contentsOf(copy.item.id)).toEqual(before);
      // Bytes still in use are shared with the original, not copied.
      const keys = await ctx.db
        .selectFrom('file_versions')
        .select('blob_key')
        .where('item_id', 'in', await allBelow(copy.item.id))
        .execute();
      const originalKeys = await ctx.db
        .selectFrom('file_versions')
        .select('blob_key')
        .where('item_id', 'in', await allBelow(folder.id))
        .execute();
      expect(new Set(keys.map((k) => k.blob_key))).toEqual(new Set(originalKeys.map((k) => k.blob_key)));
      const notes = await ctx.db.selectFrom('items').selectAll().where('parent_id', '=', copy.item.id).where('name', '=', 'Notes').executeTakeFirstOrThrow();
      const picture = await ctx.db.selectFrom('items').select('id').where('parent_id', '=', notes.id).executeTakeFirstOrThrow();
      expect(picture.id).not.toBe(pictureId);
      const state = (await ctx.db.selectFrom('document_contents').select('state').where('item_id', '=', notes.id).executeTakeFirstOrThrow()).state;
      expect(markdown(state)).toContain(`/api/v1/items/${picture.id}/content`);
      expect(markdown(state)).not.toContain(pictureId);
      // Its revisions are its own: new ids, naming its own picture.
      const revisions = await ctx.db.selectFrom('document_revisions').select(['id', 'state']).where('item_id', '=', notes.id).orderBy('created_at').execute();
      expect(markdown(revisions[1]!.state)).toContain(picture.id);

      // In the trash, the one brought back is not "there": the next run brings back another, with a free name.
      expect((await ada.call(itemsApi.trash, { params: { id: copy.item.id } })).status).toBe(200);
      await test.given.folder(ada, archive.id, folder.name);
      const next = await restoreItemFromBackup(ctx, location, { itemId: folder.id, to: archive.id, io: quiet });
      expect(next.item.name).toBe(`${folder.name} (2)`);
    },
    RESTORES,
  );

  it(
    'names what has no bytes to bring back, and refuses what it cannot do, changing nothing',
    async () => {
      const ctx = test.app.ctx;
      const ada = await test.given.person('Ada');
      const { folder } = await reportsFolder(ada);
      const location = await newFolder();
      const { manifest, dir } = await createBackup(ctx, location, { trigger: 'command' });
      const count = async () =>
        (
          await ctx.db
            .selectFrom('items')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n;
      const items = await count();

      await expect(restoreItemFromBackup(ctx, location, { itemId: '0190a0a0-0000-7000-8000-000000000000', io: quiet })).rejects.toThrow(
        /holds no item 0190a0a0-0000-7000-8000-000000000000/,
      );
      await expect(restoreItemFromBackup(ctx, location, { itemId: 'not an id', io: quiet })).rejects.toBeInstanceOf(BackupRefused);
      const file = (await ctx.db.selectFrom('items').select('id').where('parent_id', '=', folder.id).where('kind', '=', 'file').executeTakeFirstOrThrow()).id;
      await expect(restoreItemFromBackup(ctx, location, { itemId: folder.id, to: file, io: quiet })).rejects.toThrow(/is not a folder here/);
      await expect(restoreItemFromBackup(ctx, location, { itemId: ada.workspace.rootId, io: quiet })).rejects.toThrow(/top of a workspace/);
      // Over the quota: refused, nothing written.
      await ctx.db.updateTable('workspaces').set({ quota_bytes: 1 }).where('id', '=', ada.workspace.id).execute();
      await deleteForever(ada, folder.id);
      const left = await count();
      await expect(restoreItemFromBackup(ctx, location, { itemId: folder.id, io: quiet })).rejects.toThrow(/over its quota/);
      expect(await count()).toBe(left);
      await ctx.db.updateTable('workspaces').set({ quota_bytes: null }).where('id', '=', ada.workspace.id).execute();
      expect(left).toBeLessThan(items);

      // The first version's bytes gone from the backup (and from storage): the other two come back, and it is said.
      const first = sha(bytes('plan, first draft'));
      await rm(blobPath(location, first));
      const partial = await restoreItemFromBackup(ctx, location, { itemId: folder.id, io: quiet });
      expect(partial.leftOut).toEqual([`${folder.name}/plan.txt: version 1 (its bytes are in neither the backup nor storage)`]);
      expect(await contentsOf(folder.id)).toMatchObject({ 'plan.txt': { current: 3, hashes: [expect.stringMatching(/^2:/), expect.stringMatching(/^3:/)] } });

      // A damaged dump: refused before anything.
      await writeFile(path.join(dir, manifest.database.file), 'not a dump');
      await expect(restoreItemFromBackup(ctx, location, { itemId: folder.id, io: quiet })).rejects.toThrow(/is not whole/);
    },
    RESTORES,
  );
});

describe('cabinet restore-item, where things go', () => {
  it(
    'puts a picture back in its document, an item whose folder is gone in the nearest one above; two runs at once bring back one',
    async () => {
      const ctx = test.app.ctx;
      const ada = await test.given.person('Ada');
      const outer = await test.given.folder(ada, ada.workspace.rootId, 'Outer');
      const inner = await test.given.folder(ada, outer.id, 'Inner');
      const notes = await test.given.document(ada, inner.id, 'Notes');
      const picture = await test.given.upload(ada, notes.id, 'chart.png', bytes('a chart'));
      if (picture.status !== 200) throw new Error('the picture was not uploaded');
      const location = await newFolder();
      await createBackup(ctx, location, { trigger: 'command' });

      await deleteForever(ada, picture.body.item.id);
      const back = await restoreItemFromBackup(ctx, location, { itemId: picture.body.item.id, io: quiet });
      expect(back).toMatchObject({ item: { id: picture.body.item.id }, folder: { id: notes.id, which: 'original' } });

      await deleteForever(ada, inner.id);
      const runs = await Promise.all([0, 1].map(() => restoreItemFromBackup(ctx, location, { itemId: notes.id, io: quiet })));
      expect(runs.map((r) => r.already).sort()).toEqual([false, true]);
      expect(runs.find((r) => !r.already)).toMatchObject({ item: { id: notes.id }, folder: { id: outer.id, which: 'nearest' } });
      const there = await ctx.db.selectFrom('items').select('id').where('parent_id', '=', outer.id).where('state', '=', 'active').execute();
      expect(there.map((r) => r.id)).toEqual([notes.id]);
    },
    RESTORES,
  );
});
