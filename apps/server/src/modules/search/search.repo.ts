import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { memberWorkspaceQuery } from '../workspaces/index.ts';

/*
 * What a search reads (ADR 0036): the caller's principals, the entries ranked tier by tier, snippets
 * and places. What the indexer writes is in search-indexer.repo.ts.
 */

type Q = Kysely<Database>;

/** Who searches a workspace: its id, whether they are a guest there, who they are to access lists, the language of its text. */
export interface Searcher {
  workspaceId: string;
  guest: boolean;
  /** Themselves; and, unless a guest, the workspace and their groups in it. */
  principals: string[];
  /** The PostgreSQL text search configuration its text is indexed and searched in. */
  lang: string;
}

/** The workspace (by id or slug) as the caller searches it, in one statement; none when they are not in it. */
export async function findSearcher(db: Q, userId: string, idOrSlug: string): Promise<Searcher | undefined> {
  const row = await memberWorkspaceQuery(db, userId, idOrSlug)
    .select([
      sql<string>`coalesce(w.settings->>'searchLanguage', 'english')`.as('lang'),
      sql<string[]>`ARRAY(SELECT gm.group_id FROM group_members gm WHERE gm.workspace_id = w.id AND gm.user_id = m.user_id AND m.role <> 'guest')`.as('groups'),
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  const guest = row.role === 'guest';
  return { workspaceId: row.id, guest, principals: guest ? [userId] : [userId, row.id, ...row.groups], lang: row.lang };
}

export interface SearchFilters {
  kinds?: Array<'folder' | 'file' | 'document'>;
  /** Mime types that start with one of these (`image/`), or are one of them. */
  mimePrefixes?: string[];
  ownerId?: string;
  modifiedAfter?: Date;
  modifiedBefore?: Date;
  parentId?: string;
}

export interface Scope {
  workspaceId: string;
  /** Who the caller is to access lists; null: no access list is looked at (the benchmark's baseline). */
  principals: string[] | null;
  /**
   * The caller sees a small part of the workspace (a guest, through what is shared with them): the
   * index answers their access list together with the words. Otherwise most of what has the words
   * is theirs to see, and each entry found is checked on its row instead, which is cheaper than
   * intersecting with a posting list as long as the workspace.
   */
  narrow: boolean;
  filters: SearchFilters;
}

/** Whether a filter needs the item's row (kind, type, owner, time), not only its entry. */
function needsItems(f: SearchFilters): boolean {
  return !!(f.kinds?.length || f.mimePrefixes?.length || f.ownerId || f.modifiedAfter || f.modifiedBefore);
}

/** The entries searched, with their items only when a filter reads them (a join per entry found costs at a million). */
function entries(s: Scope): RawBuilder<unknown> {
  return needsItems(s.filters) ? sql`search_entries e JOIN items i ON i.id = e.item_id` : sql`search_entries e`;
}

/** The conditions every search shares: the workspace, what the caller may find, not a root, the filters. */
function scoped(s: Scope): RawBuilder<unknown> {
  const f = s.filters;
  // For a narrow caller the list bounds the scan (what is shared with them, anywhere): the workspace
  // is checked on each entry found, rather than by intersecting with a posting list as long as it.
  const workspace = s.narrow && s.principals ? sql`(e.workspace_id = ${s.workspaceId}) IS TRUE` : sql`e.workspace_id = ${s.workspaceId}`;
  const parts: RawBuilder<unknown>[] = [workspace, sql`cardinality(e.path) > 0`];
  // `IS TRUE` keeps the condition out of the index (checked on each row found): see `narrow`.
  if (s.principals) parts.push(s.narrow ? sql`e.acl && ${s.principals}::uuid[]` : sql`(e.acl && ${s.principals}::uuid[]) IS TRUE`);
  if (f.kinds?.length) parts.push(sql`i.kind = ANY(${f.kinds}::text[])`);
  if (f.mimePrefixes?.length)
    parts.push(
      sql`(${sql.join(
        f.mimePrefixes.map((m) => (m.endsWith('/') ? sql`i.mime_type LIKE ${`${m}%`}` : sql`i.mime_type = ${m}`)),
        sql` OR `,
      )})`,
    );
  if (f.ownerId) parts.push(sql`i.owner_id = ${f.ownerId}`);
  if (f.modifiedAfter) parts.push(sql`i.updated_at >= ${f.modifiedAfter}`);
  if (f.modifiedBefore) parts.push(sql`i.updated_at < ${f.modifiedBefore}`);
  if (f.parentId) parts.push(sql`e.path @> ARRAY[${f.parentId}]::uuid[]`);
  return sql.join(parts, sql` AND `);
}

export interface Page {
  limit: number;
  offset: number;
}

/** What is looked for: in names (words as prefixes), in text (whole words), and what is left out of both. */
export interface Wanted {
  names: string;
  text: string;
  excluded: string | null;
  lang: string;
}

/** Names ranked at most: a word in one name of fifty at a million items is 20,000 names to read. */
const NAME_CANDIDATES = 2000;

/**
 * Items whose name has every wanted word (as prefixes) and which have none left out, best first:
 * ranked among the first NAME_CANDIDATES found (all of them, for all but the commonest words).
 */
export async function findByName(db: Q, s: Scope, q: Wanted, page: Page): Promise<string[]> {
  const rows = await sql<{ item_id: string }>`
    SELECT e.item_id FROM (
      SELECT e.item_id, e.name, e.name_tsv FROM ${entries(s)}
      WHERE ${scoped(s)} AND e.name_tsv @@ to_tsquery('simple', ${q.names}) ${excluding(q)}
      LIMIT ${Math.max(NAME_CANDIDATES, page.offset + page.limit)}) e
    ORDER BY ts_rank(e.name_tsv, to_tsquery('simple', ${q.names})) DESC, length(e.name), e.item_id
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.item_id);
}

/**
 * The lexemes each word is indexed as in a language (none for a stop word), in the order given;
 * `one`: the word's query is that one lexeme (a word the parser splits into tokens, even the same
 * one twice, is a phrase, which `body_tf` cannot stand in for).
 */
export async function findLexemes(db: Q, words: string[], lang: string): Promise<Array<{ lexemes: string[]; one: boolean }>> {
  if (words.length === 0) return [];
  const rows = await sql<{ lexemes: string[]; one: boolean }>`
    SELECT tsvector_to_array(to_tsvector(${lang}::regconfig, w)) AS lexemes, numnode(to_tsquery(${lang}::regconfig, quote_literal(w))) = 1 AS one
    FROM unnest(${words}::text[]) WITH ORDINALITY AS u(w, n) ORDER BY n`.execute(db);
  return rows.rows;
}

/** How often a word is used, in `body_tf`'s steps (migration 0020), most first. */
const TF_STEPS = [192, 128, 96, 64, 48, 32, 24, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
/** Candidates ranked for several words: enough that the best by the lead word's use are among them. */
const MULTI_CANDIDATES = 100;
/** The steps probed for several words. */
const MULTI_STEPS = [24, 16, 12, 8, 6, 4, 3, 2];

const tsLexeme = (lexeme: string) => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
/** `body_tf`'s words for using `lexeme` `counts` times, as one query. */
const usedTimes = (lexeme: string, counts: number[]) => counts.map((n) => tsLexeme(`${lexeme}#${n}`)).join(' | ');

/**
 * Items whose text has every wanted word and whose name does not (those were found by name), best
 * first (ts_rank), without scoring every item that has the words (ADR 0036). `lead` is the lexeme
 * of one wanted word (null: none has exactly one). The index is asked for the entries that use the
 * lead 192 or more, 128 to 191, … 2 times (`body_tf`), a step at a time, until there are enough for
 * the page, and only those are ranked. For a single word that is exact: ts_rank grows with how
 * often the word is used and with nothing else. For several words it ranks the entries that use
 * the lead most (at least MULTI_CANDIDATES of them), so an item using the lead less but the others
 * far more can rank lower than it would among all.
 */
export async function findByText(db: Q, s: Scope, q: Wanted & { lead: string | null; single: boolean; rest: string | null }, page: Page): Promise<string[]> {
  const need = page.offset + page.limit;
  const cap = Math.max(need, MULTI_CANDIDATES);
  const textQuery = sql`to_tsquery(${q.lang}::regconfig, ${q.text})`;
  // Where a step of `body_tf` is asked for, its words imply the lead: the index need not intersect
  // with the lead's posting list (as long as the workspace, for a common word) too, only with the rest's.
  const base = (implied: boolean) => {
    const text = !implied ? sql`AND e.body_tsv @@ ${textQuery}` : q.rest ? sql`AND e.body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.rest})` : sql``;
    return sql`${scoped(s)} AND NOT e.name_tsv @@ to_tsquery('simple', ${q.names}) ${excluding(q)} ${text}`;
  };
  const rankedAmong = async (candidates: RawBuilder<unknown>, limit = page.limit, offset = page.offset) =>
    (
      await sql<{ item_id: string }>`
        SELECT e.item_id FROM search_entries e WHERE e.item_id IN (${candidates})
        ORDER BY ts_rank(e.body_tsv, ${textQuery}) DESC, e.item_id LIMIT ${limit} OFFSET ${offset}`.execute(db)
    ).rows.map((r) => r.item_id);
  // No word to rank by: the best of a capped set, as found.
  if (!q.lead) return rankedAmong(sql`SELECT e.item_id FROM ${entries(s)} WHERE ${base(false)} LIMIT ${cap}`);
  const lead = q.lead;

  // The steps, most uses first, each as the counts it adds (disjoint: each probe reads only its own
  // entries and looks up only its own words); for several words fewer, coarser steps, as every
  // probe also intersects the other words' long posting lists.
  const bounds = q.single ? TF_STEPS : MULTI_STEPS;
  const steps = bounds.map((low, k) =>
    usedTimes(
      lead,
      TF_STEPS.filter((n) => n >= low && (k === 0 || n < bounds[k - 1]!)),
    ),
  );
  const usedAtLeast = (k: number) => steps.slice(0, k).join(' | ');
  const stepEntries = (tf: RawBuilder<unknown>, implied: boolean) =>
    sql`SELECT e.item_id FROM ${entries(s)} WHERE ${base(implied)} AND e.body_tf @@ ${tf}::tsquery`;

  if (!q.single) {
    // The entries of each step, going down until there are `cap`; those (the last step's at most
    // `cap`) ranked, read by key: the index is not asked again.
    const probe = await sql<{ ids: string[] }>`
      WITH RECURSIVE probe(k, ids) AS (
        SELECT 1, ARRAY(${stepEntries(sql`(${steps}::text[])[1]`, q.rest !== null)} LIMIT ${cap})
        UNION ALL
        SELECT p.k + 1, p.ids || ARRAY(${stepEntries(sql`(${steps}::text[])[p.k + 1]`, q.rest !== null)} LIMIT ${cap})
        FROM probe p WHERE cardinality(p.ids) < ${cap} AND p.k < ${steps.length}
      )
      SELECT ids FROM probe ORDER BY k DESC LIMIT 1`.execute(db);
    const ids = probe.rows[0]!.ids;
    // Fewer than `cap` use the lead twice or more: some of those that use it once join them.
    if (ids.length < cap) return rankedAmong(sql`SELECT unnest(${ids}::uuid[]) UNION (SELECT e.item_id FROM ${entries(s)} WHERE ${base(false)} LIMIT ${cap})`);
    return rankedAmong(sql`SELECT unnest(${ids}::uuid[])`);
  }

  // One word: how many use it at each step, down to the first step with enough (each probe
  // counting no further than it must).
  const probe = await sql<{ k: number; n: number }>`
    WITH RECURSIVE probe(k, n) AS (
      SELECT 1, (SELECT count(*)::int FROM (${stepEntries(sql`(${steps}::text[])[1]`, true)} LIMIT ${need}) x)
      UNION ALL
      SELECT p.k + 1, p.n + (SELECT count(*)::int FROM (${stepEntries(sql`(${steps}::text[])[p.k + 1]`, true)} LIMIT ${need} - p.n) x)
      FROM probe p WHERE p.n < ${need} AND p.k < ${steps.length}
    )
    SELECT k, n FROM probe ORDER BY k DESC LIMIT 1`.execute(db);
  const { k, n } = probe.rows[0]!;
  // Every entry of that step and above ranks above every entry below it: ranked among themselves.
  if (n >= need) return rankedAmong(stepEntries(sql`${usedAtLeast(k)}`, true));
  // Fewer than enough use it twice or more; the rest use it once and rank alike: they follow by id, their vectors unread.
  const often = n > 0 ? await rankedAmong(stepEntries(sql`${usedAtLeast(k)}`, true), need, 0) : [];
  const once = (
    await sql<{ item_id: string }>`
      SELECT e.item_id FROM ${entries(s)} WHERE ${base(false)} AND e.item_id <> ALL(${often}::uuid[])
      ORDER BY e.item_id LIMIT ${need - often.length}`.execute(db)
  ).rows.map((r) => r.item_id);
  return [...often, ...once].slice(page.offset, need);
}

/** Items whose text starts a word with the last one typed, at most: the same ones on every page, ranked. */
const PREFIX_CANDIDATES = 100;
/** Entries of the words typed before the prefix read for it, at most, before the index is asked for the prefix after all. */
const NARROW_READ = 1000;

/**
 * Items whose text has every wanted word with the last one as a prefix ("zebra" in "zebracorn") and
 * which neither name nor whole words found: the tier after text. It holds the first
 * PREFIX_CANDIDATES found, ranked among themselves, and no more: a prefix of three letters starts
 * thousands of words, how often each is used says little of which was meant, and a set that grew
 * with the page asked for would be ranked anew on each page (repeating and skipping results).
 * Typing on narrows it.
 *
 * The index gathers every entry a prefix starts a word of before it intersects (GIN's partial match): for three
 * letters, close to half of a million entries (180 ms). With other words typed before it (`narrow`), the index is
 * asked for those and the prefix is read in each of their entries (ts_match_vq is not an indexed operator), at most
 * NARROW_READ of them: a common word before a rare prefix would otherwise read every entry of the common word (5,000
 * took 0.3–0.9 s at a million items). When that many were read without enough found, the index is asked for the prefix
 * as before (cheap then, the prefix being rare beside the word).
 */
export async function findByTextPrefix(
  db: Q,
  s: Scope,
  q: Wanted & { prefix: string; narrow: string | null },
  page: Page,
  budget = NARROW_READ,
): Promise<string[]> {
  const prefixQuery = sql`to_tsquery(${q.lang}::regconfig, ${q.prefix})`;
  const notFoundBefore = sql`NOT e.body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.text})
    AND NOT e.name_tsv @@ to_tsquery('simple', ${q.names}) ${excluding(q)}`;
  if (q.narrow) {
    // The entries read in the order the index gives them, each numbered: those the prefix is in, and the last one
    // the budget allows (which says it ran out), until PREFIX_CANDIDATES are found.
    const read = await sql<{ item_id: string; hit: boolean; n: string; rank: number | null }>`
      SELECT e.item_id, e.hit, e.n, CASE WHEN e.hit THEN ts_rank(e.body_tsv, ${prefixQuery}) END AS rank FROM (
        SELECT e.item_id, e.body_tsv, row_number() OVER () AS n, (ts_match_vq(e.body_tsv, ${prefixQuery}) AND ${notFoundBefore}) AS hit
        FROM (
          SELECT e.item_id, e.body_tsv, e.name_tsv FROM ${entries(s)}
          WHERE ${scoped(s)} AND e.body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.narrow}) LIMIT ${budget}
        ) e
      ) e WHERE e.hit OR e.n = ${budget} LIMIT ${PREFIX_CANDIDATES + 1}`.execute(db);
    const hits = read.rows.filter((r) => r.hit).slice(0, PREFIX_CANDIDATES);
    if (hits.length === PREFIX_CANDIDATES || !read.rows.some((r) => Number(r.n) === budget)) {
      // Ranked as the statement below ranks: by ts_rank, best first, then by id (a uuid's text sorts as its bytes).
      hits.sort((a, b) => b.rank! - a.rank! || (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0));
      return hits.slice(page.offset, page.offset + page.limit).map((r) => r.item_id);
    }
  }
  const rows = await sql<{ item_id: string }>`
    SELECT e.item_id FROM (
      SELECT e.item_id, e.body_tsv FROM ${entries(s)}
      WHERE ${scoped(s)} AND e.body_tsv @@ ${prefixQuery} AND ${notFoundBefore}
      LIMIT ${PREFIX_CANDIDATES}) e
    ORDER BY ts_rank(e.body_tsv, ${prefixQuery}) DESC, e.item_id
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.item_id);
}

function excluding(q: { excluded: string | null; lang: string }): RawBuilder<unknown> {
  if (!q.excluded) return sql``;
  return sql`AND NOT e.name_tsv @@ to_tsquery('simple', ${q.excluded}) AND NOT e.body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.excluded})`;
}

/** Words of names looked at per typed word, the closest. */
const NEAR_WORDS = 8;
/** Names read per word close to a typed one. */
const NAMES_PER_WORD = 40;

/**
 * Items whose name has a word close to what was typed (a typo), most alike first: the words of
 * names (`search_words`) close to each typed word by trigrams, then names that have them through
 * the names index, and of those the ones alike enough to all that was typed. Candidates: at most
 * NAMES_PER_WORD names for each close word (all such names are about as alike to one typed word);
 * for several typed words, also the names that have a close word for each of them, the likeliest
 * to be meant, which a few names per close word could miss. So a typo of a word in a hundred
 * thousand names reads hundreds of rows, not all of them.
 */
export async function findSimilarNames(db: Q, s: Scope, words: string[], limit: number): Promise<string[]> {
  if (words.length === 0) return [];
  return db.transaction().execute(async (tx) => {
    // The operator, not the function, is what the trigram index answers; its threshold is a setting.
    await sql`SET LOCAL pg_trgm.word_similarity_threshold = 0.4`.execute(tx);
    // The planner prices a scan of the words below the index, not counting a similarity per word.
    await sql`SET LOCAL enable_seqscan = off`.execute(tx);
    const typed = words.join(' ');
    // One lookup per typed word, each with the word as a constant: the trigram index answers it.
    // The close words of each typed word (n), looked up once: one lookup per typed word, each with
    // the word as a constant, which the trigram index answers.
    const close = sql.join(
      words.map(
        (w, n) => sql`(SELECT ${n}::int AS n, word FROM search_words WHERE ${w} <% word ORDER BY word_similarity(${w}, word) DESC, word LIMIT ${NEAR_WORDS})`,
      ),
      sql` UNION ALL `,
    );
    const perWord = sql`
      SELECT c.item_id, c.name FROM (SELECT DISTINCT word FROM close) near CROSS JOIN LATERAL (
        SELECT e.item_id, e.name FROM ${entries(s)}
        WHERE ${scoped(s)} AND e.name_tsv @@ to_tsquery('simple', quote_literal(near.word))
        LIMIT ${NAMES_PER_WORD}) c`;
    // A close word for each typed word, in one query: (a | b) & (c | d); none (null) when a typed word has none.
    const each = sql`
      SELECT CASE WHEN count(*) = ${words.length} THEN string_agg(g.words, ' & ') END
      FROM (SELECT '(' || string_agg(quote_literal(word), ' | ') || ')' AS words FROM close GROUP BY n) g`;
    const all = sql`
      (SELECT e.item_id, e.name FROM ${entries(s)}
      WHERE ${scoped(s)} AND e.name_tsv @@ to_tsquery('simple', (${each}))
      LIMIT ${NAMES_PER_WORD * NEAR_WORDS})`;
    // The likeness to all that was typed is checked on each name read (`IS TRUE`: not through the
    // names' trigram index, which would answer every name sharing a trigram with it).
    const rows = await sql<{ item_id: string }>`
      WITH close AS MATERIALIZED (${close})
      SELECT c.item_id FROM (${perWord} ${words.length > 1 ? sql`UNION ${all}` : sql``}) c
      WHERE (${typed} <% lower(c.name)) IS TRUE
      ORDER BY word_similarity(${typed}, lower(c.name)) DESC, c.item_id
      LIMIT ${limit}`.execute(tx);
    return rows.rows.map((r) => r.item_id);
  });
}

/** With no words, only filters: what matches them, most recently modified first. */
export async function findFiltered(db: Q, s: Scope, page: Page): Promise<string[]> {
  const rows = await sql<{ item_id: string }>`
    SELECT e.item_id FROM search_entries e JOIN items i ON i.id = e.item_id
    WHERE ${scoped(s)}
    ORDER BY i.updated_at DESC, e.item_id
    LIMIT ${page.limit} OFFSET ${page.offset}`.execute(db);
  return rows.rows.map((r) => r.item_id);
}

/**
 * A passage of each item's text around the words, the words between `marks` (only items whose text
 * has them). The passage is looked for in the first 100,000 characters: finding it costs time in
 * proportion to the text read.
 */
export async function findHeadlines(db: Q, ids: string[], q: { wanted: string; lang: string }, options: string): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<{ item_id: string; headline: string }>`
    SELECT item_id, ts_headline(${q.lang}::regconfig, left(body, 100000), to_tsquery(${q.lang}::regconfig, ${q.wanted}), ${options}) AS headline
    FROM search_entries WHERE item_id = ANY(${ids}::uuid[]) AND body_tsv @@ to_tsquery(${q.lang}::regconfig, ${q.wanted})`.execute(db);
  return new Map(rows.rows.map((r) => [r.item_id, r.headline]));
}

export async function findEntry(db: Q, itemId: string) {
  return db.selectFrom('search_entries').select(['text_state', 'text_error', 'indexed_at']).where('item_id', '=', itemId).executeTakeFirst();
}
