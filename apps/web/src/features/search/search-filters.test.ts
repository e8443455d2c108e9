import { describe, expect, it } from 'vitest';
import { filtersFromParams, hasFilters, isEmptySearch, NO_FILTERS, paramsOf, searchPageUrl, searchQueryOf } from './search-filters.ts';

describe('the search page’s address', () => {
  it('keeps every filter, and reads back the same search', () => {
    const f = {
      q: 'budget "q3 plan" -draft',
      type: 'pdf' as const,
      owner: { id: 'u1', name: 'Ada Lovelace' },
      modified: 'custom' as const,
      from: '2026-01-05',
      to: '2026-02-01',
      folderId: 'f1',
    };
    const params = paramsOf(f);
    expect(params.toString()).toBe(
      'q=budget+%22q3+plan%22+-draft&type=pdf&owner=u1&ownerName=Ada+Lovelace&modified=custom&from=2026-01-05&to=2026-02-01&in=f1',
    );
    expect(filtersFromParams(new URLSearchParams(params.toString()))).toEqual(f);
  });

  it('leaves out what is not narrowed, and what an address holds wrongly', () => {
    expect(paramsOf(NO_FILTERS).toString()).toBe('');
    expect(filtersFromParams(new URLSearchParams('type=spreadsheets&modified=someday&from=2026-01-01'))).toEqual(NO_FILTERS);
    expect(filtersFromParams(new URLSearchParams('modified=custom&from=2026-13-45&to=yesterday'))).toEqual({ ...NO_FILTERS, modified: 'custom' });
    // A range's days only mean something for custom dates.
    expect(paramsOf({ ...NO_FILTERS, modified: 'week', from: '2026-01-01' }).toString()).toBe('modified=week');
  });

  it('builds the page’s address from a few filters', () => {
    expect(searchPageUrl('/w/acme', { q: 'plan' })).toBe('/w/acme/search?q=plan');
    expect(searchPageUrl('/w/acme', { folderId: 'f1' })).toBe('/w/acme/search?in=f1');
    expect(searchPageUrl('/w/acme', {})).toBe('/w/acme/search');
  });

  it('knows whether anything besides the words narrows the search', () => {
    expect(hasFilters({ ...NO_FILTERS, q: 'plan' })).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, modified: 'custom' })).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, modified: 'custom', to: '2026-01-01' })).toBe(true);
    expect(hasFilters({ ...NO_FILTERS, type: 'image' })).toBe(true);
    expect(hasFilters({ ...NO_FILTERS, folderId: 'f1' })).toBe(true);
  });
});

describe('searchQueryOf', () => {
  // 15 May 2026, mid-afternoon where the tests run.
  const now = new Date(2026, 4, 15, 15, 30);
  const local = (y: number, m: number, d: number) => new Date(y, m - 1, d).toISOString();

  it('sends the words trimmed, and each filter by the API’s name', () => {
    expect(searchQueryOf({ ...NO_FILTERS, q: '  plan  ', type: 'document', owner: { id: 'u1', name: '' }, folderId: 'f1' }, now)).toEqual({
      q: 'plan',
      type: 'document',
      ownerId: 'u1',
      parentId: 'f1',
    });
  });

  it('turns relative ranges into the midnight where they start', () => {
    expect(searchQueryOf({ ...NO_FILTERS, modified: 'today' }, now).modifiedAfter).toBe(local(2026, 5, 15));
    expect(searchQueryOf({ ...NO_FILTERS, modified: 'week' }, now).modifiedAfter).toBe(local(2026, 5, 8));
    expect(searchQueryOf({ ...NO_FILTERS, modified: 'month' }, now).modifiedAfter).toBe(local(2026, 4, 15));
    expect(searchQueryOf({ ...NO_FILTERS, modified: 'year' }, now).modifiedAfter).toBe(local(2026, 1, 1));
    expect(searchQueryOf({ ...NO_FILTERS, modified: 'year' }, now).modifiedBefore).toBeUndefined();
  });

  it('includes both days of a custom range', () => {
    const q = searchQueryOf({ ...NO_FILTERS, modified: 'custom', from: '2026-02-27', to: '2026-02-28' }, now);
    expect(q).toEqual({ q: '', modifiedAfter: local(2026, 2, 27), modifiedBefore: local(2026, 3, 1) });
    expect(searchQueryOf({ ...NO_FILTERS, modified: 'custom', to: '2026-12-31' }, now)).toEqual({ q: '', modifiedBefore: local(2027, 1, 1) });
  });

  it('asks nothing when there are neither words nor filters', () => {
    expect(isEmptySearch(searchQueryOf({ ...NO_FILTERS, q: '   ' }, now))).toBe(true);
    expect(isEmptySearch(searchQueryOf({ ...NO_FILTERS, type: 'image' }, now))).toBe(false);
    expect(isEmptySearch(searchQueryOf({ ...NO_FILTERS, q: 'a' }, now))).toBe(false);
  });
});
