import {
  encodeCursor,
  MAX_SEARCH_OFFSET,
  type TSearchPage,
  type TSearchResult,
  type TSearchTextState,
  type TSearchType,
  type ZSearchQuery,
} from '@cabinet/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { AppError } from '../../errors.ts';
import { findAccesses, presentItem, requireItem } from '../items/index.ts';
import {
  excludedQuery,
  MARK_END,
  MARK_START,
  nameMatches,
  parseSearch,
  readHeadline,
  wantedQuery,
  wantedTextPrefixQuery,
  wantedTextQuery,
  wantedWords,
  type SearchTerm,
} from './search-query.ts';
import {
  findByName,
  findByText,
  findByTextPrefix,
  findEntry,
  findFiltered,
  findHeadlines,
  findLexemes,
  findSearcher,
  findSimilarNames,
  type Page,
  type Scope,
  type SearchFilters,
} from './search.repo.ts';

const SPREADSHEETS = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/vnd.oasis.opendocument.spreadsheet',
  'text/csv',
  'text/tab-separated-values',
];
const PRESENTATIONS = [
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.ms-powerpoint',
  'application/vnd.oasis.opendocument.presentation',
];

/** What each `type` finds: kinds of item, and for families of files their mime types (`image/`: any image). */
const TYPES: Record<TSearchType, Pick<SearchFilters, 'kinds' | 'mimePrefixes'>> = {
  folder: { kinds: ['folder'] },
  document: { kinds: ['document'] },
  file: { kinds: ['file'] },
  image: { kinds: ['file'], mimePrefixes: ['image/'] },
  pdf: { kinds: ['file'], mimePrefixes: ['application/pdf'] },
  spreadsheet: { kinds: ['file'], mimePrefixes: SPREADSHEETS },
  presentation: { kinds: ['file'], mimePrefixes: PRESENTATIONS },
  video: { kinds: ['file'], mimePrefixes: ['video/'] },
  audio: { kinds: ['file'], mimePrefixes: ['audio/'] },
  text: { kinds: ['file'], mimePrefixes: ['text/', 'application/json', 'application/xml'] },
};

const HEADLINE_OPTIONS = `StartSel="${MARK_START}", StopSel="${MARK_END}", MaxWords=30, MinWords=12, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "`;

type Query = z.output<typeof ZSearchQuery>;
export type Found = { id: string; matchedIn: TSearchResult['matchedIn'] };

/**
 * Search (ADR 0036): names first, then text, then names close to a typo; each tier answered by
 * the index's access lists, and the page checked again against the policy, so an item whose access
 * list is behind a change (a share withdrawn a moment ago, the trash) is never shown.
 */
export async function search(db: Db, actor: Actor, ws: string, query: Query): Promise<TSearchPage> {
  // The workspace, the caller's groups in it and its language, in one statement.
  const searcher = await findSearcher(db, actor.user.id, ws);
  if (!searcher) throw new AppError('not_found', 'No such workspace.');
  const offset = query.cursor?.o ?? 0;
  const limit = Math.min(query.limit, MAX_SEARCH_OFFSET - offset);
  const filters: SearchFilters = {
    ...(query.type ? TYPES[query.type] : {}),
    ...(query.ownerId ? { ownerId: query.ownerId } : {}),
    ...(query.modifiedAfter ? { modifiedAfter: new Date(query.modifiedAfter) } : {}),
    ...(query.modifiedBefore ? { modifiedBefore: new Date(query.modifiedBefore) } : {}),
    ...(query.parentId ? { parentId: query.parentId } : {}),
  };
  const terms = parseSearch(query.q);
  const wanted = wantedQuery(terms);
  const filtered = Object.keys(filters).length > 0;
  if (limit <= 0 || (!wanted && !filtered)) return { results: [], nextCursor: null };

  const scope: Scope = { workspaceId: searcher.workspaceId, principals: searcher.principals, narrow: searcher.guest, filters };
  const { lang } = searcher;
  let found: Found[];
  let more: boolean;
  if (!wanted) {
    const ids = await findFiltered(db, scope, { limit: limit + 1, offset });
    found = ids.slice(0, limit).map((id) => ({ id, matchedIn: 'filters' }));
    more = ids.length > limit;
  } else {
    ({ found, more } = await findRanked(db, scope, terms, lang, { limit, offset }));
  }
  const nextCursor = more && offset + limit < MAX_SEARCH_OFFSET ? encodeCursor({ o: offset + limit }) : null;
  // Snippets show the words as found, the last one as a prefix.
  const text = wantedTextPrefixQuery(terms);
  return { results: await present(db, actor, found, wanted && text ? { wanted: text, lang, words: wantedWords(terms) } : null), nextCursor };
}

/**
 * One page of what the words find, in order: names first (their posting lists are short), then
 * text by whole words, read only when names do not fill the page, then text whose words start with
 * the last one typed, then names close to what was typed when none finds anything (ADR 0036).
 * Exported for the benchmark, whose baseline is this without access lists.
 */
export async function findRanked(db: Db, scope: Scope, terms: SearchTerm[], lang: string, page: Page): Promise<{ found: Found[]; more: boolean }> {
  const { limit, offset } = page;
  const q = { names: wantedQuery(terms)!, text: wantedTextQuery(terms)!, excluded: excludedQuery(terms), lang };
  const words = wantedWords(terms);
  // Names are a short list: read to the end of this page, so the text tier knows where it starts. Beside them, the
  // words' lexemes, which the text tier needs when names do not fill the page.
  const [byName, lexemes] = await Promise.all([findByName(db, scope, q, { limit: offset + limit + 1, offset: 0 }), findLexemes(db, words, lang)]);
  if (byName.length > offset + limit) return { found: byName.slice(offset, offset + limit).map((id) => ({ id, matchedIn: 'name' })), more: true };
  const fromNames: Found[] = byName.slice(offset).map((id) => ({ id, matchedIn: 'name' }));
  const need = limit - fromNames.length;
  // The word the text tier ranks by: the first that is one lexeme (not a stop word, not split in tokens).
  const leadAt = lexemes.findIndex((l) => l.one && l.lexemes.length === 1);
  const lead = leadAt >= 0 ? lexemes[leadAt]!.lexemes[0]! : null;
  const wanted = terms.filter((t) => !t.exclude);
  // One word alone (a phrase of one word said twice is a phrase).
  const single = wanted.length === 1 && wanted[0]!.words.length === 1;
  // The other terms, when the lead is a term of its own (not in a phrase) and each of theirs is indexed (no stop word alone).
  const leadTerm = wanted.findIndex((t) => t.words.length === 1 && t.words[0] === words[leadAt]);
  const others = wanted.filter((_, i) => i !== leadTerm);
  const isIndexed = (t: SearchTerm) => t.words.every((w) => lexemes[words.indexOf(w)]!.lexemes.length > 0);
  const indexed = others.every(isIndexed);
  const beforeLastIndexed = wanted.slice(0, -1).every(isIndexed);
  const rest = !single && leadTerm >= 0 && others.length > 0 && indexed ? wantedTextQuery(others) : null;
  const textQuery = { ...q, lead, single, rest };
  const textOffset = Math.max(0, offset - byName.length);
  const byText = await findByText(db, scope, textQuery, { limit: need + 1, offset: textOffset });
  const fromText = byText.slice(0, need).map((id): Found => ({ id, matchedIn: 'text' }));
  if (byText.length > need) return { found: [...fromNames, ...fromText], more: true };
  // Text ends on this page or before it: words that start with the last one typed follow, after as
  // many as text found (counted when this page starts past them).
  const textFound =
    byText.length > 0 || textOffset === 0 ? textOffset + byText.length : (await findByText(db, scope, textQuery, { limit: textOffset, offset: 0 })).length;
  const prefixNeed = need - fromText.length;
  const byPrefix = await findByTextPrefix(
    db,
    scope,
    // The terms before the last, as whole words, when each is indexed (a stop word alone would match nothing).
    { ...q, prefix: wantedTextPrefixQuery(terms)!, narrow: wanted.length > 1 && beforeLastIndexed ? wantedTextQuery(wanted.slice(0, -1)) : null },
    { limit: prefixNeed + 1, offset: Math.max(0, textOffset - textFound) },
  );
  let found = [...fromNames, ...fromText, ...byPrefix.slice(0, prefixNeed).map((id): Found => ({ id, matchedIn: 'text' }))];
  const more = byPrefix.length > prefixNeed;
  if (offset === 0 && found.length === 0) {
    found = (await findSimilarNames(db, scope, words, limit)).map((id) => ({ id, matchedIn: 'similar' }));
  }
  return { found, more };
}

/** The page as the caller may see it (checked against the policy), with where each item is and where the words are. */
async function present(db: Db, actor: Actor, found: Found[], q: { wanted: string; lang: string; words: string[] } | null): Promise<TSearchResult[]> {
  const ids = found.map((f) => f.id);
  // The checks of the items and of their parents in one statement, which finds the parents too, beside the snippets:
  // what is not visible is dropped after.
  const [accesses, headlines] = await Promise.all([
    findAccesses(db, actor, ids, { parents: true }),
    q ? findHeadlines(db, ids, q, HEADLINE_OPTIONS) : Promise.resolve(new Map<string, string>()),
  ]);
  const visible = found.filter((f) => accesses.get(f.id)?.abilities.view);
  return visible.map((f) => {
    const access = accesses.get(f.id)!;
    const parent = access.item.parent_id ? accesses.get(access.item.parent_id) : undefined;
    const headline = headlines.get(f.id);
    const { snippet, matches } = headline === undefined ? { snippet: '', matches: [] } : readHeadline(headline);
    return {
      item: presentItem(access.item, access),
      parent: parent?.abilities.view ? { id: parent.item.id, name: parent.item.name } : null,
      snippet,
      matches: [
        ...(q ? nameMatches(access.item.name, q.words).map((m) => ({ field: 'name' as const, ...m })) : []),
        ...matches.map((m) => ({ field: 'snippet' as const, ...m })),
      ],
      matchedIn: f.matchedIn,
    };
  });
}

/** Whether an item's text is searchable yet (its details panel). */
export async function searchTextState(db: Db, actor: Actor, itemId: string): Promise<TSearchTextState> {
  await requireItem(db, actor, itemId, 'view');
  const entry = await findEntry(db, itemId);
  return { state: entry?.text_state ?? 'pending', error: entry?.text_error ?? null, indexedAt: entry?.indexed_at?.toISOString() ?? null };
}
