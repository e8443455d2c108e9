import { uuidv7 } from '@cabinet/contracts';
import { sql } from 'kysely';
import { insertMembership } from '../apps/server/src/modules/workspaces/index.ts';
import { indexPending } from '../apps/server/src/modules/search/index.ts';
import { findRanked } from '../apps/server/src/modules/search/search.service.ts';
import { findSearcher, type Scope } from '../apps/server/src/modules/search/search.repo.ts';
import { parseSearch, wantedTextPrefixQuery } from '../apps/server/src/modules/search/search-query.ts';
import { userForIdentity } from '../apps/server/src/modules/auth/sign-in.service.ts';
import { createApiToken } from '../apps/server/src/modules/tokens/tokens.service.ts';
import { percentile, report } from './report.ts';
import { startBenchApp, type BenchApp } from './setup.ts';

/** 1,000,000 items on PostgreSQL (DATABASE_URL); 100,000 on PGlite, or BENCH_SEARCH_ITEMS. */
const ITEMS = Number(process.env.BENCH_SEARCH_ITEMS ?? (process.env.DATABASE_URL ? 1_000_000 : 100_000));
const FOLDERS = Math.round(ITEMS / 20);
const TOP = Math.round(FOLDERS / 50);
const VOCABULARY = 20_000;
const SAMPLES = 60;
/** The name a built workspace is given when it is whole (its size in it). */
const builtName = `search-1m bench, ${ITEMS} items`;
const RUNS = 3;

/** Numbers in [0, 1) that are the same every run from the same seed (mulberry32: Math.random cannot be seeded). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Words of `words` picked as in real text: the word of rank r about as often as r^(-1/power). */
function wordPicker(words: string[], seed: number): (power: number) => string {
  const random = seeded(seed);
  return (power) => words[Math.floor(VOCABULARY * random() ** power)]!;
}

/** A fixed vocabulary of pronounceable words (the same every run), to write names and text with. */
function vocabulary(): string[] {
  const random = seeded(42);
  const onsets = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'st', 'tr', 'pl', 'gr', 'ch', 'sh'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
  const codas = ['', '', 'n', 'r', 's', 't', 'l', 'nd', 'st', 'ck'];
  const words = new Set<string>();
  while (words.size < VOCABULARY) {
    const syllables = 1 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < syllables; i++)
      w += onsets[Math.floor(random() * onsets.length)]! + vowels[Math.floor(random() * vowels.length)]! + codas[Math.floor(random() * codas.length)]!;
    if (w.length >= 4) words.add(w);
  }
  return [...words];
}

/** Waits for `done`, at most two minutes (an indexer that stopped must fail the benchmark, not hang it). */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Waited two minutes for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * search-1m: a workspace of ITEMS items (FOLDERS folders in two levels, the rest files and
 * documents with names and text written from a 20,000-word vocabulary, word use falling off as in
 * real text), searched through the API by two people: its owner, who sees everything, and a guest
 * who sees about 5% (the folders shared with them). p50 and p95 per query class; baseline: the same
 * tiers' SQL without any access list (what the index costs to answer with no permission at all),
 * in the same run. Also: building the text indexes from scratch, and how long a grant on a folder
 * of 10,000 items takes to reach search.
 */
/** The workspace of ITEMS items, its text, indexes and access lists, and the guest, built from nothing (and timed). */
async function build(app: BenchApp, words: string[], RARE: string): Promise<{ id: string; root: string; owner: string; guest: string }> {
  const db = app.t.ctx.db;
  const ws = app.workspace;
  const owner = (await app.raw('GET', '/me')).body.user.id as string;
  const setupStart = performance.now();
  const step = (what: string) => console.log(`  … ${what} (${((performance.now() - setupStart) / 1000).toFixed(0)} s)`);
  // Indexes are built after the rows (as a bulk load or a rebuild would), so the build is measured on its own.
  await sql`DROP INDEX IF EXISTS search_entries_names, search_entries_bodies, search_entries_names_trgm, search_entries_paths`.execute(db);
  const folderIds = Array.from({ length: FOLDERS }, () => uuidv7());
  const tops = folderIds.slice(0, TOP);
  const subfolders = folderIds.slice(TOP);
  const insertItems = async (rows: Array<{ id: string; parent: string; kind: string; name: string; mime: string | null; hoursAgo: number }>) => {
    await sql`
      INSERT INTO items (id, workspace_id, parent_id, kind, name, owner_id, size_bytes, mime_type, updated_by, updated_at)
      SELECT r.id, ${ws.id}, r.parent, r.kind, r.name, ${owner}, 1000, r.mime, ${owner}, now() - r.hours * interval '1 hour'
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.parent)}::uuid[], ${rows.map((r) => r.kind)}::text[], ${rows.map((r) => r.name)}::text[],
        ${rows.map((r) => r.mime)}::text[], ${rows.map((r) => r.hoursAgo)}::int[]) AS r(id, parent, kind, name, mime, hours)`.execute(db);
  };
  await insertItems(tops.map((id, n) => ({ id, parent: ws.rootId, kind: 'folder', name: `Area ${n}`, mime: null, hoursAgo: 0 })));
  for (let i = 0; i < subfolders.length; i += 5000) {
    await insertItems(
      subfolders
        .slice(i, i + 5000)
        .map((id, k) => ({ id, parent: tops[(i + k) % TOP]!, kind: 'folder', name: `${words[(i + k) % VOCABULARY]} ${i + k}`, mime: null, hoursAgo: 0 })),
    );
  }
  step('folders');
  // Word use falls off with rank, as in real text.
  const word = wordPicker(words, 7);
  const leaves = ITEMS - FOLDERS;
  const EXTENSIONS = [
    ['', null],
    ['.pdf', 'application/pdf'],
    ['.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ] as const;
  for (let from = 0; from < leaves; from += 5000) {
    const n = Math.min(5000, leaves - from);
    // Names: two words, a number and an extension; a third are documents. Text: 40 to 160 words; the rare word in one item of 20,000.
    const rows = Array.from({ length: n }, (_, k) => {
      const i = from + k;
      const [ext, mime] = EXTENSIONS[i % 3]!;
      return {
        id: uuidv7(),
        parent: subfolders[i % subfolders.length]!,
        kind: i % 3 === 0 ? 'document' : 'file',
        name: `${word(2)}-${word(2)}_${i}${ext}`,
        mime,
        hoursAgo: i % 1000,
      };
    });
    await insertItems(rows);
    const bodies = rows.map(
      (_, k) => Array.from({ length: 40 + (((from + k) * 31) % 120) }, () => word(3)).join(' ') + ((from + k) % 20_000 === 7 ? ` ${RARE}` : ''),
    );
    await sql`
      UPDATE search_entries e SET body = t.body, text_state = 'ready'
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${bodies}::text[]) AS t(id, body) WHERE e.item_id = t.id`.execute(db);
  }
  // The work the triggers queued item by item is done in bulk here: text above, access lists from the root down below.
  // New items took their parent's list where it was worked out already: cleared, so every list is worked out below.
  await sql`UPDATE search_entries SET acl = '{}', path = '{}', access_at = NULL WHERE item_id NOT IN (${ws.rootId}, ${ws.homeId})`.execute(db);
  await sql`DELETE FROM search_tasks`.execute(db);
  await sql`SELECT cabinet_search_queue(${ws.rootId}, 'access')`.execute(db);
  step('text');
  const loaded = performance.now();
  await sql`UPDATE search_entries SET body_tsv = to_tsvector('english', body) WHERE body <> ''`.execute(db);
  const vectors = performance.now();
  await sql`CREATE INDEX search_entries_names ON search_entries USING gin (workspace_id, name_tsv, acl)`.execute(db);
  await sql`CREATE INDEX search_entries_bodies ON search_entries USING gin (workspace_id, body_tsv, body_tf, acl)`.execute(db);
  await sql`CREATE INDEX search_entries_names_trgm ON search_entries USING gin (lower(name) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX search_entries_paths ON search_entries USING gin (path)`.execute(db);
  const indexed = performance.now();
  // Access lists from the roots down, as the indexer works them out.
  await indexPending({ db, storage: app.t.ctx.storage, extractors: app.t.ctx.extractors });
  const accessDone = performance.now();
  // `cabinet search reindex` over lists that are current: every list worked out again, none written.
  await sql`SELECT cabinet_search_queue(${ws.rootId}, 'access')`.execute(db);
  await indexPending({ db, storage: app.t.ctx.storage, extractors: app.t.ctx.extractors });
  const reindexDone = performance.now();
  // Every entry was rewritten: the old versions are gone in a steady state (autovacuum), so here too.
  await sql`VACUUM ANALYZE`.execute(db);
  const vacuumed = performance.now();

  // The guest: folders shared with them that hold about 5% of the items.
  const guest = await userForIdentity(app.t.ctx, {
    issuer: 'https://bench.example',
    subject: `guest-${uuidv7()}`,
    email: `guest-${Date.now()}@example.com`,
    emailVerified: true,
    name: 'Guest',
    picture: undefined,
    idToken: undefined,
    refreshToken: undefined,
  });
  await insertMembership(db, { workspaceId: ws.id, userId: guest.id, role: 'guest' });
  const shared = Math.max(1, Math.round(TOP / 20));
  await sql`
    INSERT INTO item_grants (id, item_id, principal_type, principal_id, role)
    SELECT gen_random_uuid(), t, 'user', ${guest.id}, 'viewer' FROM unnest(${tops.slice(0, shared)}::uuid[]) t`.execute(db);
  await indexPending({ db, storage: app.t.ctx.storage, extractors: app.t.ctx.extractors });
  console.log(
    `  setup: rows and text ${((loaded - setupStart) / 1000).toFixed(1)} s; index build: text vectors ${((vectors - loaded) / 1000).toFixed(1)} s, GIN and trigram indexes ${((indexed - vectors) / 1000).toFixed(1)} s; access lists ${((accessDone - indexed) / 1000).toFixed(1)} s (every one written), again unchanged ${((reindexDone - accessDone) / 1000).toFixed(1)} s; vacuum ${((vacuumed - reindexDone) / 1000).toFixed(1)} s`,
  );

  // Named last, so a kept database holds a workspace measured again only once it is whole.
  await sql`UPDATE workspaces SET name = ${builtName} WHERE id = ${ws.id}`.execute(db);
  return { id: ws.id, root: ws.rootId, owner, guest: guest.id };
}

export default async function searchBench() {
  const app = await startBenchApp();
  const db = app.t.ctx.db;
  const words = vocabulary();
  // The rare word: in one item of 20,000.
  const RARE = 'quokkaberg';
  // A database kept from an earlier run (BENCH_DATABASE) holds the workspace built then: measured again as it is.
  const kept = await sql<{ id: string; root: string; owner: string; guest: string }>`
    SELECT w.id, w.root_item_id AS root, o.user_id AS owner, g.user_id AS guest FROM workspaces w
    JOIN memberships o ON o.workspace_id = w.id AND o.role = 'owner' JOIN memberships g ON g.workspace_id = w.id AND g.role = 'guest'
    WHERE w.name = ${builtName} LIMIT 1`.execute(db);
  const built = kept.rows[0] ?? (await build(app, words, RARE));
  const ws = { id: built.id, rootId: built.root };
  const owner = built.owner;
  const guest = { id: built.guest };
  const ownerToken = (await createApiToken(db, owner, { name: 'bench' })).token;
  const { token: guestToken } = await createApiToken(db, guest.id, { name: 'bench' });
  const visible = await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_entries WHERE ${guest.id}::uuid = ANY(acl)`.execute(db);
  console.log(
    `  ${ITEMS.toLocaleString('en')} items (${FOLDERS.toLocaleString('en')} folders)${kept.rows[0] ? ', built by an earlier run' : ''}; the guest sees ${visible.rows[0]!.n.toLocaleString('en')}`,
  );
  const as = async (token: string, method: string, p: string, body?: unknown) => {
    const res = await fetch(`${app.t.url}/api/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${p} answered ${res.status}: ${text}`);
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const word = wordPicker(words, 11);

  const frequency = async (query: string) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM search_entries WHERE body_tsv @@ to_tsquery('english', ${query})`.execute(db)).rows[0]!.n;
  const medium = words[3000]!;
  const classes: Record<string, string> = {
    'rare word': RARE,
    'medium word': medium,
    'common word': words[0]!,
    'two words': `${words[1]} ${words[40]}`,
    '3-letter prefix': words[500]!.slice(0, 3),
    // As typed into the box: a word, then the start of the next, which begins common words of text
    // but no name with the first word (names are read first and would fill the page).
    '3-letter prefix in text': `${medium} ${words[20]!.slice(0, 3)}`,
    'name with a typo': `${words[2]!.slice(0, -2)}${words[2]!.at(-1)}${words[2]!.at(-2)}`,
  };
  for (const [name, q] of Object.entries(classes))
    console.log(
      `  ${name}: "${q}": its first word in the text of ${(await frequency(`'${parseSearch(q)[0]!.words[0]!}'`)).toLocaleString('en')} items, all as typed (the last word a prefix) in ${(await frequency(wantedTextPrefixQuery(parseSearch(q))!)).toLocaleString('en')}`,
    );

  const call = async (token: string, q: string) => {
    const url = `${app.t.url}/api/v1/workspaces/${ws.id}/search?q=${encodeURIComponent(q)}&limit=20`;
    // A kept-alive connection the server closed while the setup held the event loop (PGlite) fails once: asked again.
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).catch(() => fetch(url, { headers: { authorization: `Bearer ${token}` } }));
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { results: unknown[] };
  };
  // What the ranking alone costs: the same tiers' SQL (names, then text, then near names), with the caller's access lists or none.
  const ranked = async (scope: Scope, q: string) => findRanked(db, scope, parseSearch(q), 'english', { limit: 20, offset: 0 });
  const bare: Scope = { workspaceId: ws.id, principals: null, narrow: false, filters: {} };
  // An authenticated call that does nothing: what HTTP and signing in by token add to any call.
  const nothing = async (token: string) => {
    const res = await fetch(`${app.t.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
  };

  const people = [
    ['owner (sees all)', ownerToken, { workspaceId: ws.id, principals: (await findSearcher(db, owner, ws.id))!.principals, narrow: false, filters: {} }],
    ['guest (sees ~5%)', guestToken, { workspaceId: ws.id, principals: (await findSearcher(db, guest.id, ws.id))!.principals, narrow: true, filters: {} }],
  ] as const;
  for (const [who, token, scope] of people) {
    for (const [name, q] of Object.entries(classes)) {
      await call(token, q);
      const figures = {
        api50: [] as number[],
        api95: [] as number[],
        apiBase50: [] as number[],
        apiBase95: [] as number[],
        rank95: [] as number[],
        rankBase95: [] as number[],
      };
      for (let run = 0; run < RUNS; run++) {
        const api: number[] = [];
        const apiBase: number[] = [];
        const rank: number[] = [];
        const rankBase: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          api.push(await timed(() => call(token, q)));
          rank.push(await timed(() => ranked(scope, q)));
          const b = await timed(() => ranked(bare, q));
          rankBase.push(b);
          apiBase.push(b + (await timed(() => nothing(token))));
        }
        figures.api50.push(percentile(api, 50));
        figures.api95.push(percentile(api, 95));
        figures.apiBase50.push(percentile(apiBase, 50));
        figures.apiBase95.push(percentile(apiBase, 95));
        figures.rank95.push(percentile(rank, 95));
        figures.rankBase95.push(percentile(rankBase, 95));
      }
      // Through the API (the target), against the ranking without access lists plus an authenticated call that does nothing.
      report(`search-1m ${who} ${name} p50`, 'ms', figures.api50, figures.apiBase50);
      report(`search-1m ${who} ${name} p95`, 'ms', figures.api95, figures.apiBase95);
      // The ranking alone, with the caller's access lists, against the same without any.
      report(`search-1m ${who} ${name} ranking p95`, 'ms', figures.rank95, figures.rankBase95);
    }
  }
  console.log('  baselines: through the API, the ranking with no access list plus GET /me (HTTP and the token); the ranking, the same with no access list');

  // A grant on a folder of 10,000 items: from the call to the guest finding an item inside.
  // (Made once: a run on a kept database uses the folder an earlier run made.)
  const made = await sql<{ id: string }>`SELECT id FROM items WHERE parent_id = ${ws.rootId} AND name LIKE 'Grant target%' LIMIT 1`.execute(db);
  const big = made.rows[0]?.id ?? (await grantTarget());
  async function grantTarget(): Promise<string> {
    const id = (await as(ownerToken, 'POST', `/workspaces/${ws.id}/items`, { kind: 'folder', name: 'Grant target', parentId: ws.rootId })).body.id as string;
    await sql`
      INSERT INTO items (id, workspace_id, parent_id, kind, name, owner_id, size_bytes, updated_by)
      SELECT gen_random_uuid(), ${ws.id}, ${id}, 'document', 'Wallaroo note ' || n, ${owner}, 0, ${owner} FROM generate_series(1, 10000) n`.execute(db);
    // Their text is written here in bulk, not read one by one by the indexer.
    await sql`DELETE FROM search_tasks WHERE kind = 'text'`.execute(db);
    await indexPending({ db, storage: app.t.ctx.storage, extractors: app.t.ctx.extractors });
    // Text like the others' (a grant rewrites every entry below it into the text index too).
    let n = 0;
    const bodies = await sql<{ item_id: string }>`SELECT item_id FROM search_entries WHERE path @> ARRAY[${id}]::uuid[]`.execute(db);
    await sql`
      UPDATE search_entries e SET body = t.body, body_tsv = to_tsvector('english', t.body), text_state = 'ready'
      FROM unnest(${bodies.rows.map((r) => r.item_id)}::uuid[], ${bodies.rows.map(() => Array.from({ length: 40 + ((n++ * 31) % 120) }, () => word(3)).join(' '))}::text[]) AS t(id, body)
      WHERE e.item_id = t.id`.execute(db);
    return id;
  }
  const revoking = async () =>
    (
      await sql<{ busy: boolean }>`
      SELECT EXISTS (SELECT 1 FROM search_tasks WHERE kind = 'access') OR EXISTS (SELECT 1 FROM search_entries WHERE path @> ARRAY[${big}]::uuid[] AND ${guest.id}::uuid = ANY(acl)) AS busy`.execute(
        db,
      )
    ).rows[0]!.busy;
  const grants: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const grant = await as(ownerToken, 'POST', `/items/${big}/grants`, { principal: { type: 'user', id: guest.id }, role: 'viewer' });
    // The server's own indexer works it off, woken by the change.
    await until(async () => (await call(guestToken, 'wallaroo')).results.length > 0, 'the grant to reach search');
    grants.push(performance.now() - started);
    await as(ownerToken, 'DELETE', `/items/${big}/grants/${grant.body.id}`);
    // Measured again only once the server's indexer has taken the guest out of every list below.
    await until(async () => !(await revoking()), 'the withdrawn grant to leave every list');
  }
  const renames: number[] = [];
  for (let run = 0; run < RUNS; run++) renames.push(await timed(() => as(ownerToken, 'PATCH', `/items/${big}`, { name: `Grant target ${run}` })));
  report('search-1m grant on 10,000 items reaches search', 'ms', grants, renames);
  console.log('  baseline: renaming that folder (one change, no access lists)');
  await app.close();
}
