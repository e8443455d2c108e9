import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { groupsApi, itemsApi, linksApi } from '@cabinet/contracts';
import { documentText, documentUpdate, fromMarkdown } from '@cabinet/doc-schema/server';
import { describe, expect, it } from 'vitest';
import { storeDocument } from '../documents/index.ts';
import { tempFolders } from '../../testing/temp-folders.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { exportWorkspace, ExportRefused } from './export-workspace.ts';

const test = useTestApp();
const newFolder = tempFolders('cabinet-export');
const quiet = { progress: () => {} };
const bytes = (text: string) => new TextEncoder().encode(text);

/** Every file under `dir`, as paths relative to it, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('cabinet export', () => {
  it('writes a workspace as plain files: folders and files as named, documents as Markdown with what is inside them beside, who had access', async () => {
    const ctx = test.app.ctx;
    const ada = await test.given.person('Ada Export');
    const bea = await test.given.person('Bea Export');
    const ws = ada.workspace.id;
    const beaHome = await test.given.membership(bea, ws, 'member');
    const plans = await test.given.folder(ada, ada.workspace.rootId, 'Plans');
    const upload = async (parentId: string, name: string, text: string, who = ada) => {
      const done = await test.given.upload(who, parentId, name, bytes(text));
      if (done.status !== 200) throw new Error(`could not upload ${name}`);
      return done.body.item.id;
    };
    const budget = await upload(plans.id, 'budget.csv', 'item,cost\nchairs,120\n');
    await upload(plans.id, 'a:b.txt', 'a name no disk takes as it is');
    await upload(plans.id, 'con.txt', 'a name Windows keeps for itself');
    const roadmap = await test.given.document(ada, plans.id, 'Roadmap');
    const chart = await upload(roadmap.id, 'chart.png', 'a chart, as a picture');
    const md = `# Roadmap\n\nSee the [budget](/api/v1/items/${budget}/content?download=1).\n\n![chart](/api/v1/items/${chart}/content)`;
    const node = fromMarkdown(md);
    await storeDocument(ctx.db, roadmap.id, { state: documentUpdate(node), text: documentText(node) }, { by: null });
    await upload(ada.workspace.homeId, 'diary.txt', 'dear diary');
    await upload(beaHome, 'notes.txt', 'Bea’s own notes', { ...bea, workspace: { id: ws, rootId: ada.workspace.rootId, homeId: beaHome } });
    const binned = await upload(plans.id, 'old.txt', 'in the trash');
    expect((await ada.call(itemsApi.trash, { params: { id: binned } })).status).toBe(200);
    // Shared with Bea, with a group of hers, and by a link.
    await test.given.grant(plans.id, { user: bea }, 'editor');
    const group = (await ada.call(groupsApi.create, { params: { ws }, body: { name: 'Design' } })).body.id;
    await ada.call(groupsApi.addMembers, { params: { ws, groupId: group }, body: { userIds: [bea.id] } });
    await test.given.grant(roadmap.id, { group }, 'viewer');
    expect((await ada.call(linksApi.create, { params: { id: budget }, body: { kind: 'view', password: '=cmd-secret' } })).status).toBe(201);
    const slug = (await ctx.db.selectFrom('workspaces').select('slug').where('id', '=', ws).executeTakeFirstOrThrow()).slug;

    const out = await newFolder();
    const result = await exportWorkspace(ctx, slug, out, quiet);
    expect(result).toMatchObject({ files: 6, documents: 1, kept: 0, problems: [] });
    expect(await tree(out)).toEqual(
      [
        'Workspace/Plans/budget.csv',
        'Workspace/Plans/a_b.txt',
        'Workspace/Plans/_con.txt',
        'Workspace/Plans/Roadmap.md',
        'Workspace/Plans/Roadmap/chart.png',
        'My files/Ada Export/diary.txt',
        'My files/Bea Export/notes.txt',
        'access.csv',
        'cabinet-export.json',
      ].sort(),
    );
    expect(await readFile(path.join(out, 'Workspace/Plans/budget.csv'), 'utf8')).toBe('item,cost\nchairs,120\n');
    expect(await readFile(path.join(out, 'My files/Bea Export/notes.txt'), 'utf8')).toBe('Bea’s own notes');
    // A file keeps the time it last changed.
    const item = await ctx.db.selectFrom('items').select('updated_at').where('id', '=', budget).executeTakeFirstOrThrow();
    expect(Math.abs((await stat(path.join(out, 'Workspace/Plans/budget.csv'))).mtimeMs - item.updated_at.getTime())).toBeLessThan(1000);
    // The document links to what sits beside it, by relative paths.
    const roadmapMd = await readFile(path.join(out, 'Workspace/Plans/Roadmap.md'), 'utf8');
    expect(roadmapMd).toContain('[budget](budget.csv)');
    expect(roadmapMd).toContain('![chart](Roadmap/chart.png)');
    expect(roadmapMd).not.toContain('/api/v1/items');

    const access = (await readFile(path.join(out, 'access.csv'), 'utf8')).split('\r\n');
    expect(access[0]).toBe('path,kind,who,email,role,through,expires');
    const email = (id: string) => ctx.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow();
    const [adaEmail, beaEmail] = [(await email(ada.id)).email, (await email(bea.id)).email];
    expect(access).toEqual(
      expect.arrayContaining([
        `Workspace,folder,Ada Export,${adaEmail},owner,workspace member,`,
        `Workspace,folder,Bea Export,${beaEmail},member,workspace member,`,
        `My files/Ada Export,folder,Ada Export,${adaEmail},owner,their own files,`,
        `Workspace/Plans,folder,Bea Export,${beaEmail},editor,shared with them,`,
        `Workspace/Plans/Roadmap.md,document,Bea Export,${beaEmail},viewer,group “Design”,`,
        'Workspace/Plans/budget.csv,file,anyone with the link and its password,,viewer,public link,',
      ]),
    );
    expect(JSON.parse(await readFile(path.join(out, 'cabinet-export.json'), 'utf8'))).toMatchObject({
      format: 'cabinet-export',
      workspace: { id: ws, slug },
      finishedAt: expect.any(String),
    });

    // Run again into the same folder: what is there whole is kept, what is missing or changed is written again, and a
    // file that became a folder is one.
    const diary = (
      await ctx.db.selectFrom('items').select('id').where('name', '=', 'diary.txt').where('parent_id', '=', ada.workspace.homeId).executeTakeFirstOrThrow()
    ).id;
    expect((await ada.call(itemsApi.trash, { params: { id: diary } })).status).toBe(200);
    await test.given.folder(ada, ada.workspace.homeId, 'diary.txt');
    await writeFile(path.join(out, 'Workspace/Plans/budget.csv'), 'half');
    await rm(path.join(out, 'Workspace/Plans/a_b.txt'));
    const again = await exportWorkspace(ctx, ws, out, quiet);
    expect(again).toMatchObject({ files: 5, kept: 3, problems: [] });
    expect((await stat(path.join(out, 'My files/Ada Export/diary.txt'))).isDirectory()).toBe(true);
    expect(await readFile(path.join(out, 'Workspace/Plans/a_b.txt'), 'utf8')).toBe('a name no disk takes as it is');
    expect(await readFile(path.join(out, 'Workspace/Plans/budget.csv'), 'utf8')).toBe('item,cost\nchairs,120\n');
    expect((await tree(out)).some((f) => f.includes('partial'))).toBe(false);

    // Bytes storage lost are named, the rest written; a folder of other things, or another workspace's export, is refused.
    const key = (await ctx.db.selectFrom('file_versions').select('blob_key').where('item_id', '=', budget).executeTakeFirstOrThrow()).blob_key;
    await ctx.storage.delete(key);
    const lacking = await exportWorkspace(ctx, ws, await newFolder(), quiet);
    expect(lacking.problems).toEqual(['Workspace/Plans/budget.csv: storage does not have its bytes']);
    expect(lacking.files).toBe(4);
    const other = await newFolder();
    await writeFile(path.join(other, 'mine.txt'), 'not an export');
    await expect(exportWorkspace(ctx, ws, other, quiet)).rejects.toBeInstanceOf(ExportRefused);
    await expect(exportWorkspace(ctx, bea.workspace.id, out, quiet)).rejects.toThrow(/export of another workspace/);
    await expect(exportWorkspace(ctx, 'no-such-place', await newFolder(), quiet)).rejects.toThrow('No workspace has the address no-such-place.');
  });
});
