import { describe, expect, it } from 'vitest';
import {
  filtersFromParams,
  hasFilters,
  isEmptySearch,
  MODIFIED_LABELS,
  NO_FILTERS,
  paramsOf,
  searchPageUrl,
  searchQueryOf,
  TYPE_LABELS,
  withFilters,
  type Modified,
} from './search-filters.ts';
import type { TSearchType } from '@cabinet/contracts';

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

  it('reads back every type and every time range it offers', () => {
    for (const type of Object.keys(TYPE_LABELS) as TSearchType[]) expect(filtersFromParams(paramsOf({ ...NO_FILTERS, type })).type).toBe(type);
    for (const modified of Object.keys(MODIFIED_LABELS) as Modified[]) expect(filtersFromParams(paramsOf({ ...NO_FILTERS, modified })).modified).toBe(modified);
  });

  it('keeps an owner whose name the picker did not show, and a custom range open at either end', () => {
    const owner = { ...NO_FILTERS, owner: { id: 'u1', name: '' } };
    expect(paramsOf(owner).toString()).toBe('owner=u1');
    expect(filtersFromParams(paramsOf(owner))).toEqual(owner);
    const from = { ...NO_FILTERS, modified: 'custom' as const, from: '2026-03-01' };
    expect(paramsOf(from).toString()).toBe('modified=custom&from=2026-03-01');
    expect(filtersFromParams(paramsOf(from))).toEqual(from);
    expect(filtersFromParams(new URLSearchParams('modified=custom&to=2026-03-31'))).toEqual({ ...NO_FILTERS, modified: 'custom', to: '2026-03-31' });
  });

  it('takes an empty folder or owner in the address for none, and a day that does not exist for no day', () => {
    expect(filtersFromParams(new URLSearchParams('in=&owner=&q='))).toEqual(NO_FILTERS);
    expect(filtersFromParams(new URLSearchParams('modified=custom&from=2026-02-30'))).toEqual({ ...NO_FILTERS, modified: 'custom' });
    expect(filtersFromParams(new URLSearchParams('type=constructor&modified=toString'))).toEqual(NO_FILTERS);
  });

  it('changes one filter on top of the address, keeping the others and dropping what no longer applies', () => {
    const address = new URLSearchParams('q=plan&type=pdf&modified=custom&from=2026-01-01&to=2026-01-31&in=f1&utm=x');
    expect(withFilters(address, { type: 'image' }).toString()).toBe('q=plan&type=image&modified=custom&from=2026-01-01&to=2026-01-31&in=f1');
    // A range's days go when the range is no longer custom.
    expect(withFilters(address, { modified: 'week' }).toString()).toBe('q=plan&type=pdf&modified=week&in=f1');
    // Clearing the filters keeps the words.
    expect(withFilters(address, { ...NO_FILTERS, q: 'plan' }).toString()).toBe('q=plan');
    expect(withFilters(address, { q: '' }).get('q')).toBeNull();
  });

  it('builds the page’s address from a few filters', () => {
    expect(searchPageUrl('acme', { q: 'plan' })).toBe('/w/acme/search?q=plan');
    expect(searchPageUrl('acme', { folderId: 'f1' })).toBe('/w/acme/search?in=f1');
    expect(searchPageUrl('acme', {})).toBe('/w/acme/search');
    // Words that mean something in an address stay words.
    expect(searchPageUrl('acme', { q: 'R&D #2 50%' })).toBe('/w/acme/search?q=R%26D+%232+50%25');
    expect(filtersFromParams(new URLSearchParams('q=R%26D+%232+50%25')).q).toBe('R&D #2 50%');
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
