import { grantsApi, itemsApi, membersApi, searchApi, type TSearchQuery } from '@cabinet/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addParagraph, collabTestApp, until } from '../../testing/collab-client.ts';
import type { Person } from '../../testing/given.ts';
import { statementsOf } from '../../testing/statements.ts';
import { insertItem } from '../items/items.repo.ts';
import { createWorkspace } from '../workspaces/index.ts';
import { countTasks, indexPending } from './index.ts';
import { parseSearch, wantedQuery, wantedTextPrefixQuery, wantedTextQuery } from './search-query.ts';
import { findByTextPrefix, type Scope } from './search.repo.ts';

const app = collabTestApp();

const indexHere = () => indexPending({ db: app.t.ctx.db, storage: app.t.ctx.storage, extractors: app.t.ctx.extractors });

/** Everything queued for search is done: here, or by the server's own indexer, which may hold some of it. */
async function settled() {
  for (;;) {
    await indexHere();
    if ((await countTasks(app.t.ctx.db)) === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const find = async (p: Person, query: TSearchQuery, ws = p.workspace.id) => {
  const res = await p.call(searchApi.search, { params: { ws }, query });
  expect(res.status, JSON.stringify(res.error)).toBe(200);
  return res.body;
};
/** Every page of a search, `limit` at a time, following the cursors: the names in order. */
const allPages = async (p: Person, q: string, limit: number) => {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await find(p, { q, limit, ...(cursor ? { cursor } : {}) });
    seen.push(...page.results.map((r) => r.item.name));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return seen;
};
const names = async (p: Person, q: string, extra: TSearchQuery = {}, ws?: string) => (await find(p, { q, ...extra }, ws)).results.map((r) => r.item.name);
/**
 * The texts of `ids` read again by one pass here, with the statements it ran. They are queued without a word to the
 * server's own indexer (it hears of items by their events); a pass of its still under way, or its catch-up pass every
 * 30 s, may still take them first, and then they are queued and counted again.
 */
async function indexedAgain(ids: string[]): Promise<{ result: number; statements: string[] }> {
  const db = app.t.ctx.db;
  let pass: { result: number; statements: string[] } | undefined;
  for (let tries = 0; tries < 5 && pass?.result !== ids.length; tries++) {
    // A pass of the server's indexer still under way (woken by the changes before) claims what is
    // queued while it runs: it is let finish first (on a slow machine it took all three tries).
    await settled();
    await new Promise((r) => setTimeout(r, 300 * tries));
    await sql`UPDATE search_entries SET text_version_id = NULL, text_state = 'pending' WHERE item_id = ANY(${ids}::uuid[])`.execute(db);
    await sql`SELECT cabinet_search_queue(item_id, 'text') FROM search_entries WHERE item_id = ANY(${ids}::uuid[])`.execute(db);
    pass = await statementsOf(indexHere);
  }
  return pass!;
}
const upload = async (p: Person, parentId: string, name: string, text: string) => {
  const res = await app.g.upload(p, parentId, name, new TextEncoder().encode(text));
  expect(res.status, JSON.stringify(res.error)).toBe(200);
  return res.body.item;
};
const doc = (p: Person, name: string, parentId = p.workspace.rootId) => app.g.document(p, parentId, name);

describe('search', () => {
  it('finds a file by any part of its name, as a prefix, names before text, with where the words are', async () => {
    const ada = await app.g.person('Ada');
    await upload(ada, ada.workspace.rootId, 'Q3-report_final.pdf', 'not really a pdf');
    await upload(ada, ada.workspace.rootId, 'QuarterlyReview.txt', 'the report is late');
    await upload(ada, ada.workspace.rootId, 'notes.txt', 'nothing to see');
    await settled();
    expect(await names(ada, 'report')).toEqual(['Q3-report_final.pdf', 'QuarterlyReview.txt']);
    const [byName, byText] = (await find(ada, { q: 'report' })).results;
    expect(byName).toMatchObject({
      matchedIn: 'name',
      matches: [{ field: 'name', start: 3, end: 9 }],
      parent: { id: ada.workspace.rootId, name: expect.any(String) },
    });
    expect(byText).toMatchObject({ matchedIn: 'text', snippet: 'the report is late', matches: [{ field: 'snippet', start: 4, end: 10 }] });
    // As you type: from the first letters, and by the words a name is made of.
    expect(await names(ada, 'quart')).toEqual(['QuarterlyReview.txt']);
    expect(await names(ada, 'review')).toEqual(['QuarterlyReview.txt']);
    expect(await names(ada, 'final')).toEqual(['Q3-report_final.pdf']);
    // A phrase in quotes; a word left out.
    expect(await names(ada, '"report is late"')).toEqual(['QuarterlyReview.txt']);
    // Words not in that order are no match (at most a name like what was typed).
    expect((await find(ada, { q: '"late report"' })).results.filter((r) => r.matchedIn !== 'similar')).toEqual([]);
    expect(await names(ada, 'report -late')).toEqual(['Q3-report_final.pdf']);
    // A name with a typo, when nothing matches exactly.
    const similar = await find(ada, { q: 'reprot' });
    expect(similar.results.map((r) => [r.item.name, r.matchedIn])).toContainEqual(['Q3-report_final.pdf', 'similar']);
    // Typos in two words: the name close to both first.
    await upload(ada, ada.workspace.rootId, 'annual-report.txt', 'x');
    await upload(ada, ada.workspace.rootId, 'annual-budget-plan.txt', 'x');
    await settled();
    expect((await find(ada, { q: 'anual budgte' })).results.map((r) => [r.item.name, r.matchedIn])[0]).toEqual(['annual-budget-plan.txt', 'similar']);
    // A phrase of one word said twice is the words side by side, not the word used twice anywhere.
    await upload(ada, ada.workspace.rootId, 'apart.txt', 'bora is far from the other bora');
    await upload(ada, ada.workspace.rootId, 'together.txt', 'we sailed to bora bora');
    await settled();
    expect(await names(ada, '"bora bora"')).toEqual(['together.txt']);
  });

  it('finds what is made in a new workspace at once, before the indexer has run: its root and its owner’s files have their lists from the start', async () => {
    const ada = await app.g.person('Ada');
    const user = await app.t.ctx.db.selectFrom('users').selectAll().where('id', '=', ada.id).executeTakeFirstOrThrow();
    // Read inside the transaction that makes them, which the server's indexer cannot see: what it would work out must
    // already be there.
    const { w, lists, queued } = await app.t.ctx.db.transaction().execute(async (tx) => {
      const w = await createWorkspace(tx, user, { name: 'Fresh' });
      const made = [];
      for (const parentId of [w.rootId, w.homeId]) {
        made.push((await insertItem(tx, { kind: 'document', workspaceId: w.id, parentId, name: 'Kestrel notes', ownerId: ada.id })).id);
      }
      const ids = [w.rootId, w.homeId, ...made];
      const entries = await tx.selectFrom('search_entries').select(['item_id', 'acl', 'access_at']).where('item_id', 'in', ids).execute();
      const byId = new Map(entries.map((e) => [e.item_id, e]));
      const queued = await tx.selectFrom('search_tasks').select('item_id').where('kind', '=', 'access').where('item_id', 'in', made).execute();
      return { w, lists: ids.map((id) => ({ acl: byId.get(id)?.acl, current: byId.get(id)?.access_at != null })), queued: queued.length };
    });
    expect(lists).toEqual([
      { acl: [w.id], current: true },
      { acl: [ada.id], current: true },
      { acl: [w.id], current: true },
      { acl: [ada.id], current: true },
    ]);
    expect(queued).toBe(0);
  });

  it('finds words typed into a document once it is saved', async () => {
    const ada = await app.g.person('Ada');
    const plan = await doc(ada, 'Plan');
    const { document, outcome } = app.clients.connect(plan.id, ada.token);
    await until(() => outcome.synced, 'sync');
    addParagraph(document, 'The zanzibar budget for the next year');
    // Saved as the editor saves (debounced), then indexed.
    for (let i = 0; ; i++) {
      await settled();
      const found = await find(ada, { q: 'zanzibar' });
      if (found.results.length) {
        expect(found.results[0]).toMatchObject({ item: { id: plan.id, kind: 'document' }, matchedIn: 'text' });
        expect(found.results[0]!.snippet).toContain('zanzibar budget');
        break;
      }
      if (i > 100) throw new Error('the document was never found');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Stemmed in the workspace's language: "budgets" finds "budget".
    expect(await names(ada, 'budgets')).toEqual(['Plan']);
  });

  it('finds only what the caller may see: not others\u2019 files, and not a moment after a share is withdrawn, before the index has caught up', async () => {
    const [ada, bea, cal] = [await app.g.person('Ada'), await app.g.person('Bea'), await app.g.person('Cal')];
    await app.g.membership(bea, ada.workspace.id, 'member');
    const secret = await app.g.folder(ada, ada.workspace.homeId, 'Private');
    const inside = await upload(ada, secret.id, 'okapi-plans.txt', 'okapi');
    await upload(ada, ada.workspace.rootId, 'okapi-shared.txt', 'okapi');
    await settled();
    expect(await names(ada, 'okapi')).toEqual(['okapi-plans.txt', 'okapi-shared.txt']);
    // Bea is a member: the shared root's file, not Ada's own files.
    expect(await names(bea, 'okapi', {}, ada.workspace.id)).toEqual(['okapi-shared.txt']);
    // Cal is not in the workspace at all.
    expect((await cal.call(searchApi.search, { params: { ws: ada.workspace.id }, query: { q: 'okapi' } })).status).toBe(404);

    const grant = await ada.call(grantsApi.create, { params: { id: secret.id }, body: { principal: { type: 'user', id: bea.id }, role: 'viewer' } });
    expect(grant.status).toBe(201);
    await settled();
    expect((await names(bea, 'okapi', {}, ada.workspace.id)).sort()).toEqual(['okapi-plans.txt', 'okapi-shared.txt']);

    // Withdrawn: gone at once, though the index has not caught up.
    expect((await ada.call(grantsApi.remove, { params: { id: secret.id, grantId: grant.body.id } })).status).toBe(204);
    expect(await names(bea, 'okapi', {}, ada.workspace.id)).toEqual(['okapi-shared.txt']);
    // In the trash: gone for everyone at once, and out of the index after.
    expect((await ada.call(itemsApi.trash, { params: { id: inside.id } })).status).toBe(200);
    expect(await names(ada, 'okapi')).toEqual(['okapi-shared.txt']);
    await settled();
    const entry = await app.t.ctx.db.selectFrom('search_entries').select('acl').where('item_id', '=', inside.id).executeTakeFirstOrThrow();
    expect(entry.acl).toEqual([]);
    // Out of the workspace: nothing of it is found any more.
    expect((await ada.call(membersApi.remove, { params: { ws: ada.workspace.id, userId: bea.id }, query: { filesTo: ada.id } })).status).toBe(204);
    expect((await bea.call(searchApi.search, { params: { ws: ada.workspace.id }, query: { q: 'okapi' } })).status).toBe(404);
  });

  it('lets a guest find only what is shared with them, through a folder above it', async () => {
    const [ada, gus] = [await app.g.person('Ada'), await app.g.person('Gus')];
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Shared');
    const sub = await app.g.folder(ada, folder.id, 'Sub');
    await upload(ada, sub.id, 'wombat.txt', 'x');
    await upload(ada, ada.workspace.rootId, 'wombat-other.txt', 'x');
    expect((await ada.call(grantsApi.create, { params: { id: folder.id }, body: { principal: { type: 'user', id: gus.id }, role: 'viewer' } })).status).toBe(
      201,
    );
    // Gus's own workspace has one too (his name in its lists): searching Ada's finds only hers.
    await upload(gus, gus.workspace.homeId, 'wombat-mine.txt', 'wombat wombat');
    await settled();
    expect(await names(gus, 'wombat', {}, ada.workspace.id)).toEqual(['wombat.txt']);
    expect(await names(gus, 'wombat')).toEqual(['wombat-mine.txt']);
  });

  it('narrows by type, owner, time and folder, and lists by filters alone', async () => {
    const [ada, bea] = [await app.g.person('Ada'), await app.g.person('Bea')];
    await app.g.membership(bea, ada.workspace.id, 'member');
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Kestrel folder');
    await upload(ada, folder.id, 'kestrel.csv', 'a,b');
    await doc(ada, 'Kestrel notes');
    const beas = await app.g.document(bea, ada.workspace.rootId, 'Kestrel by Bea', ada.workspace.id);
    await settled();
    expect((await names(ada, 'kestrel')).sort()).toEqual(['Kestrel by Bea', 'Kestrel folder', 'Kestrel notes', 'kestrel.csv']);
    expect(await names(ada, 'kestrel', { type: 'folder' })).toEqual(['Kestrel folder']);
    expect(await names(ada, 'kestrel', { type: 'spreadsheet' })).toEqual(['kestrel.csv']);
    expect((await names(ada, 'kestrel', { type: 'document' })).sort()).toEqual(['Kestrel by Bea', 'Kestrel notes']);
    expect(await names(ada, 'kestrel', { ownerId: bea.id })).toEqual(['Kestrel by Bea']);
    expect(await names(ada, 'kestrel', { parentId: folder.id })).toEqual(['kestrel.csv']);
    expect(await names(ada, 'kestrel', { modifiedAfter: '2000-01-01', modifiedBefore: new Date(Date.now() + 60_000).toISOString() })).toHaveLength(4);
    expect(await names(ada, 'kestrel', { modifiedAfter: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    const listed = await find(ada, { ownerId: bea.id });
    expect(listed.results.map((r) => [r.item.id, r.matchedIn])).toEqual([[beas.id, 'filters']]);
    // Neither words nor filters: nothing to look for.
    expect(await find(ada, { q: '' })).toEqual({ results: [], nextCursor: null });
  });

  it('ranks text by how often the word is used, whether or not a page of items uses it twice', async () => {
    const ada = await app.g.person('Ada');
    await upload(ada, ada.workspace.rootId, 'a.txt', 'ibis');
    await upload(ada, ada.workspace.rootId, 'b.txt', 'ibis ibis ibis and more');
    await upload(ada, ada.workspace.rootId, 'c.txt', 'an ibis, another ibis');
    await upload(ada, ada.workspace.rootId, 'd.txt', 'ibis '.repeat(40));
    await settled();
    expect(await names(ada, 'ibis')).toEqual(['d.txt', 'b.txt', 'c.txt', 'a.txt']);
    // Pages of one: each from the few that use it most, then those that use it once.
    expect(await allPages(ada, 'ibis', 1)).toEqual(['d.txt', 'b.txt', 'c.txt', 'a.txt']);
    expect(await names(ada, 'ibis another')).toEqual(['c.txt']);
    // Several words: the items with all of them, those using them most first, whichever step of use each is found at.
    await upload(ada, ada.workspace.rootId, 'e.txt', 'egret heron egret heron egret heron egret');
    await upload(ada, ada.workspace.rootId, 'f.txt', 'egret and a heron');
    await upload(ada, ada.workspace.rootId, 'g.txt', 'egret egret egret egret egret egret');
    await upload(ada, ada.workspace.rootId, 'h.txt', 'egret egret, heron heron');
    await settled();
    expect(await names(ada, 'egret heron')).toEqual(['e.txt', 'h.txt', 'f.txt']);
    expect(await names(ada, 'heron egret')).toEqual(['e.txt', 'h.txt', 'f.txt']);
  });

  it('finds the start of a word in text as it is typed, after the whole word', async () => {
    const ada = await app.g.person('Ada');
    await upload(ada, ada.workspace.rootId, 'herd.txt', 'a zebracorn grazes by the river');
    await upload(ada, ada.workspace.rootId, 'zoo.txt', 'the zebra sleeps');
    await upload(ada, ada.workspace.rootId, 'stripes.txt', 'zebras, a zebra and a zebracorn');
    await settled();
    // Whole words (stemmed: "zebras" is "zebra") first, then words that only start with it.
    expect(await names(ada, 'zebra')).toEqual(['stripes.txt', 'zoo.txt', 'herd.txt']);
    expect(await allPages(ada, 'zebra', 1)).toEqual(['stripes.txt', 'zoo.txt', 'herd.txt']);
    const herd = (await find(ada, { q: 'zebra' })).results[2]!;
    expect(herd).toMatchObject({ matchedIn: 'text', snippet: 'a zebracorn grazes by the river', matches: [{ field: 'snippet', start: 2, end: 11 }] });
    // Only the last word typed is a prefix; the others are whole words.
    expect(await names(ada, 'grazes zeb')).toEqual(['herd.txt']);
    expect(await names(ada, 'river zebrac')).toEqual(['herd.txt']);
    // A stop word before the prefix is no word to look up first: the prefix alone decides.
    expect((await names(ada, 'the zebrac')).sort()).toEqual(['herd.txt', 'stripes.txt']);
    expect(await names(ada, 'graz zebracorn')).toEqual([]);
    expect(await names(ada, 'zebracorn -river')).toEqual(['stripes.txt']);
  });

  it('finds the same by a prefix after a word whether the word’s entries are read for it or, past the budget, the index is asked', async () => {
    const ada = await app.g.person('Ada');
    const files: Array<[string, string]> = [
      ['a.txt', 'the river bends'],
      ['b.txt', 'the river zebracorn'],
      ['c.txt', 'a river of zebrafish'],
      ['d.txt', 'no water, a zebrawood'],
    ];
    for (const [name, text] of files) await upload(ada, ada.workspace.rootId, name, text);
    await settled();
    const scope: Scope = { workspaceId: ada.workspace.id, principals: null, narrow: false, filters: {} };
    const terms = parseSearch('river zebr');
    const q = {
      names: wantedQuery(terms)!,
      text: wantedTextQuery(terms)!,
      excluded: null,
      lang: 'english',
      prefix: wantedTextPrefixQuery(terms)!,
      narrow: wantedTextQuery(terms.slice(0, -1)),
    };
    const named = async (ids: string[]) => (await app.t.ctx.db.selectFrom('items').select('name').where('id', 'in', ids).execute()).map((r) => r.name).sort();
    const page = { limit: 20, offset: 0 };
    // The word's three entries read for the prefix; then a budget of two, spent before all are read: the index is asked.
    expect(await named(await findByTextPrefix(app.t.ctx.db, scope, q, page, 10))).toEqual(['b.txt', 'c.txt']);
    expect(await named(await findByTextPrefix(app.t.ctx.db, scope, q, page, 2))).toEqual(['b.txt', 'c.txt']);
    expect(await named(await findByTextPrefix(app.t.ctx.db, scope, { ...q, narrow: null }, page))).toEqual(['b.txt', 'c.txt']);
  });

  it('pages through many results, each once', async () => {
    const ada = await app.g.person('Ada');
    for (let i = 0; i < 12; i++) await doc(ada, `Heron ${String(i).padStart(2, '0')}`);
    for (let i = 0; i < 3; i++) await upload(ada, ada.workspace.rootId, `file-${i}.txt`, 'heron in the text');
    await settled();
    const seen = await allPages(ada, 'heron', 4);
    expect(seen).toHaveLength(15);
    expect(new Set(seen).size).toBe(15);
    // Names first, then text.
    expect(seen.slice(0, 12).every((n) => n.startsWith('Heron'))).toBe(true);
  });

  it('answers any query, however odd, with results or none, never an error', async () => {
    const ada = await app.g.person('Ada');
    await upload(ada, ada.workspace.rootId, 'データ-東京.txt', 'مرحبا بالعالم');
    await settled();
    for (const q of [
      '&|!():*',
      "'; DROP TABLE items; --",
      '"unbalanced',
      '""',
      '-',
      '-"',
      'a'.repeat(10_000),
      '\\',
      'x:*',
      '!!!',
      'the',
      '<mark>x</mark>',
      '🙂',
    ]) {
      const res = await ada.call(searchApi.search, { params: { ws: ada.workspace.id }, query: { q } });
      expect(res.status, q).toBe(200);
    }
    expect(await names(ada, '東京')).toEqual(['データ-東京.txt']);
    expect(await names(ada, 'مرحبا')).toEqual(['データ-東京.txt']);
    // Raw: a type the declaration does not allow.
    const bad = await ada.raw('GET', `/workspaces/${ada.workspace.id}/search?q=x&limit=0&type=nope&cursor=zz`);
    expect(bad).toFail('invalid_input');
    expect((await ada.call(searchApi.search, { params: { ws: ada.workspace.id }, query: { q: 'y'.repeat(10_001) } })).status).toBe(400);
  });

  it('reads texts a batch at a time: files with no text to read, as most small uploads are, cost four statements a batch, not three each', async () => {
    const ada = await app.g.person('Ada');
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Archives');
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) ids.push((await app.g.upload(ada, folder.id, `archive-${i}.bin`, new Uint8Array([0, 1, 2, 3, i]))).body.item.id);
    const readme = await upload(ada, folder.id, 'readme.txt', 'zebracorn');
    await settled();
    const counted = await indexedAgain(ids);
    expect(counted.result).toBe(16);
    // No access list to claim; then claim, sources, save, finish; then the claim that finds nothing left.
    expect(counted.statements.length, counted.statements.join('\n\n')).toBeLessThanOrEqual(6);
    for (const id of ids) expect((await ada.call(searchApi.textState, { params: { id } })).body).toMatchObject({ state: 'unsupported', error: null });
    expect(await countTasks(app.t.ctx.db)).toBe(0);
    // A file whose text is read goes in the same batches and is found; past four such files a claim gives the rest
    // back for the next one, so that a claim ends well within its lease, and every one is read.
    expect(await names(ada, 'zebracorn')).toEqual([readme.name]);
    const notes = [];
    for (let i = 0; i < 7; i++) notes.push((await upload(ada, folder.id, `note-${i}.txt`, `quagga number${i}`)).id);
    await settled();
    const read = await indexedAgain(notes);
    expect(read.result).toBe(7);
    expect(read.statements.filter((q) => q.includes('attempts = greatest(attempts - 1')).length, 'three given back once').toBe(1);
    expect(await names(ada, 'quagga')).toHaveLength(7);
  });

  it('answers a word found in text in ten statements: the workspace, the caller’s groups and its language read in one, the parents found by the page’s access check', async () => {
    const ada = await app.g.person('Ada');
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Savanna');
    await upload(ada, folder.id, 'field-notes.txt', 'a wombat grazes, a wombat sleeps');
    await settled();
    const url = `/api/v1/workspaces/${ada.workspace.id}/search?q=wombat`;
    const call = () => app.t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ada.token}` } });
    // The token's first use is noted (a write, at most once an hour): counted after it, a call only reads.
    expect((await call()).statusCode).toBe(200);
    const { result, statements } = await statementsOf(call);
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json().results).toMatchObject([{ item: { name: 'field-notes.txt' }, parent: { id: folder.id, name: 'Savanna' }, matchedIn: 'text' }]);
    // The caller; the workspace with their groups and its language; names beside the words' lexemes; how many use the
    // word at each step, those who use it twice or more ranked, those who use it once; words that start with it; the
    // page's access with its parents beside the snippets. (Before: thirteen, the workspace, the groups, the language
    // and the parents each a statement of its own.)
    expect(statements, statements.join('\n\n')).toHaveLength(10);
  });

  it("says whether a file's text is searchable, and why not", async () => {
    const ada = await app.g.person('Ada');
    const text = await upload(ada, ada.workspace.rootId, 'readme.txt', 'hello');
    const binary = await app.g.upload(ada, ada.workspace.rootId, 'archive.bin', new Uint8Array([0, 1, 2, 3, 0, 0]));
    // Pending until read (the server may have read it already).
    expect(['pending', 'ready']).toContain((await ada.call(searchApi.textState, { params: { id: text.id } })).body.state);
    await settled();
    expect((await ada.call(searchApi.textState, { params: { id: text.id } })).body).toMatchObject({
      state: 'ready',
      error: null,
      indexedAt: expect.any(String),
    });
    expect((await ada.call(searchApi.textState, { params: { id: binary.body.item.id } })).body).toMatchObject({ state: 'unsupported' });
    const bea = await app.g.person('Bea');
    expect((await bea.call(searchApi.textState, { params: { id: text.id } })).status).toBe(404);
  });
});
