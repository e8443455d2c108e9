import { MAX_SEARCH_QUERY } from '@cabinet/contracts';

/**
 * What a person typed, read as search terms: words match as prefixes (results as you type),
 * "words in quotes" match in that order, -word leaves out what has it. A word is a run of letters
 * and digits in any script; everything else separates words, so tsquery's own syntax
 * (`& | ! ( ) : *`), quotes left open and SQL never reach the database as syntax: the query
 * built here quotes every word it passes on.
 */
export interface SearchTerm {
  /** Lower-cased, NFC; several for a phrase (or a word written with hyphens, as `Q3-report`). */
  words: string[];
  exclude: boolean;
}

const MAX_TERMS = 16;
const MAX_WORD = 100;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export function parseSearch(input: string): SearchTerm[] {
  const text = input.normalize('NFC').slice(0, MAX_SEARCH_QUERY);
  const terms: SearchTerm[] = [];
  // A quoted phrase (closed or left open at the end), or a run without spaces, either maybe after a minus.
  for (const m of text.matchAll(/(-?)(?:"([^"]*)"?|([^\s"]+))/g)) {
    const words = ((m[2] ?? m[3] ?? '').toLowerCase().match(WORD) ?? []).map((w) => w.slice(0, MAX_WORD));
    if (words.length === 0) continue;
    terms.push({ words, exclude: m[1] === '-' });
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

const quote = (word: string) => `'${word}'`;

/**
 * The terms to find in names as `to_tsquery` text, all of them: every word quoted, the last word of
 * each term a prefix (names are found as you type). Null when there is none.
 */
export function wantedQuery(terms: SearchTerm[]): string | null {
  const wanted = terms.filter((t) => !t.exclude).map((t) => phrase(t, true));
  return wanted.length ? wanted.join(' & ') : null;
}

/**
 * The terms to find in text as `to_tsquery` text: whole words (stemmed by the workspace's
 * language), no prefixes: ranking by how often a word is used needs the word. Words that only start
 * with the last one typed are a tier of their own, after these (`wantedTextPrefixQuery`).
 */
export function wantedTextQuery(terms: SearchTerm[]): string | null {
  const wanted = terms.filter((t) => !t.exclude).map((t) => phrase(t, false));
  return wanted.length ? wanted.join(' & ') : null;
}

/**
 * The terms to find in text with the last word typed as a prefix (search as you type: "zebra"
 * finds "zebracorn"), as `to_tsquery` text; the other words whole. Null when there is none.
 */
export function wantedTextPrefixQuery(terms: SearchTerm[]): string | null {
  const wanted = terms.filter((t) => !t.exclude);
  if (wanted.length === 0) return null;
  return wanted.map((t, i) => phrase(t, i === wanted.length - 1)).join(' & ');
}

/** The terms to leave out as `to_tsquery` text, any of them, matched exactly ("-draft" must not drop "drafting"). Null when there is none. */
export function excludedQuery(terms: SearchTerm[]): string | null {
  const excluded = terms.filter((t) => t.exclude).map((t) => phrase(t, false));
  return excluded.length ? excluded.join(' | ') : null;
}

function phrase(t: SearchTerm, prefix: boolean): string {
  const words = t.words.map((w, i) => (prefix && i === t.words.length - 1 ? `${quote(w)}:*` : quote(w)));
  return words.length > 1 ? `(${words.join(' <-> ')})` : words[0]!;
}

/** The words to look for, for highlighting a name: each term's words, not those left out. */
export function wantedWords(terms: SearchTerm[]): string[] {
  return [...new Set(terms.filter((t) => !t.exclude).flatMap((t) => t.words))];
}

/**
 * Where the wanted words start words of a name (case and accents as typed aside), as [start, end)
 * UTF-16 offsets, merged. A word starts at the start, after anything not a letter or digit, or at a
 * capital after a small letter (`QuarterlyReport`), as the index splits names.
 */
export function nameMatches(name: string, words: string[]): Array<{ start: number; end: number }> {
  const lower = name.toLowerCase();
  // Lower-casing may change a string's length (a few scripts); then offsets would not line up.
  if (lower.length !== name.length || words.length === 0) return [];
  const spans: Array<{ start: number; end: number }> = [];
  for (const word of words) {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      const before = name[at - 1];
      const startsWord =
        at === 0 ||
        !/[\p{L}\p{N}]/u.test(before!) ||
        (/\p{Ll}/u.test(before!) && /\p{Lu}/u.test(name[at]!)) ||
        (/\p{L}/u.test(before!) && /\p{N}/u.test(name[at]!));
      if (startsWord) spans.push({ start: at, end: at + word.length });
    }
  }
  spans.sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const s of spans) {
    const last = merged.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/** Marks `ts_headline` puts around what it found: private-use characters, which indexed text never holds (they are taken out before). */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

/** A headline with marks → its plain text and where the marked stretches were. */
export function readHeadline(marked: string): { snippet: string; matches: Array<{ start: number; end: number }> } {
  let snippet = '';
  const matches: Array<{ start: number; end: number }> = [];
  let open = -1;
  for (const ch of marked) {
    if (ch === MARK_START) open = snippet.length;
    else if (ch === MARK_END) {
      if (open >= 0 && snippet.length > open) matches.push({ start: open, end: snippet.length });
      open = -1;
    } else snippet += ch;
  }
  return { snippet, matches };
}
