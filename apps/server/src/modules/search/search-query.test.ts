import { describe, expect, it } from 'vitest';
import {
  excludedQuery,
  nameMatches,
  parseSearch,
  readHeadline,
  wantedQuery,
  wantedTextPrefixQuery,
  wantedTextQuery,
  MARK_END,
  MARK_START,
} from './search-query.ts';

describe('reading what a person typed', () => {
  it('reads words as prefixes, quotes as phrases and a minus as leaving out', () => {
    const terms = parseSearch('Report "quarterly results" -draft');
    expect(terms).toEqual([
      { words: ['report'], exclude: false },
      { words: ['quarterly', 'results'], exclude: false },
      { words: ['draft'], exclude: true },
    ]);
    expect(wantedQuery(terms)).toBe("'report':* & ('quarterly' <-> 'results':*)");
    expect(excludedQuery(terms)).toBe("'draft'");
    // Text is matched by whole words: no prefixes.
    expect(wantedTextQuery(terms)).toBe("'report' & ('quarterly' <-> 'results')");
    // As you type, the last word typed is a prefix in text too (a tier after whole words).
    expect(wantedTextPrefixQuery(terms)).toBe("'report' & ('quarterly' <-> 'results':*)");
    expect(wantedTextPrefixQuery(parseSearch('-draft'))).toBeNull();
  });

  it('splits a hyphenated name into a phrase and keeps letters of every script', () => {
    expect(wantedQuery(parseSearch('Q3-report'))).toBe("('q3' <-> 'report':*)");
    expect(parseSearch('данные 東京 مرحبا')).toEqual([
      { words: ['данные'], exclude: false },
      { words: ['東京'], exclude: false },
      { words: ['مرحبا'], exclude: false },
    ]);
  });

  it("passes none of tsquery's or SQL's syntax on, whatever is typed", () => {
    for (const input of ["a & b | !c (d):* 'e'", "'; DROP TABLE items; --", '"unbalanced', '&|!():*', '\\\\', 'x'.repeat(10_000)]) {
      const query = wantedQuery(parseSearch(input)) ?? '';
      // Every lexeme is a quoted run of letters and digits; only the builder's operators are between them.
      expect(query.replace(/'[\p{L}\p{N}\p{M}]+'(:\*)?/gu, 'w')).toMatch(/^(?:\(?w(?: <-> w)*\)?(?: & \(?w(?: <-> w)*\)?)*)?$/);
    }
    expect(parseSearch('&|!():*')).toEqual([]);
    expect(parseSearch('x'.repeat(10_000))[0]!.words[0]).toHaveLength(100);
  });

  it('has nothing to look for when every term is left out or nothing is a word', () => {
    expect(wantedQuery(parseSearch('-draft'))).toBeNull();
    expect(wantedQuery(parseSearch('  ... '))).toBeNull();
    expect(excludedQuery(parseSearch('draft'))).toBeNull();
  });
});

describe('highlights', () => {
  it('finds words at the start of words of a name, split as the index splits names', () => {
    expect(nameMatches('Q3-report_final.pdf', ['report'])).toEqual([{ start: 3, end: 9 }]);
    expect(nameMatches('QuarterlyReport.docx', ['report'])).toEqual([{ start: 9, end: 15 }]);
    expect(nameMatches('Support.txt', ['port'])).toEqual([]);
    expect(nameMatches('plan plan', ['pl', 'plan'])).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 9 },
    ]);
  });

  it('reads the marks of a headline into plain text and offsets', () => {
    expect(readHeadline(`the ${MARK_START}budget${MARK_END} for ${MARK_START}2027${MARK_END}`)).toEqual({
      snippet: 'the budget for 2027',
      matches: [
        { start: 4, end: 10 },
        { start: 15, end: 19 },
      ],
    });
  });
});
