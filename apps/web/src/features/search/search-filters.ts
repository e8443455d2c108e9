import type { TSearchQuery, TSearchType } from '@cabinet/contracts';
import { pageRoutes } from '../../lib/page-routes.ts';

/** What each kind of thing to find is called on screen, in the order the Type filter offers them. */
export const TYPE_LABELS: Record<TSearchType, string> = {
  folder: 'Folders',
  document: 'Documents',
  file: 'Files (any type)',
  image: 'Images',
  pdf: 'PDFs',
  spreadsheet: 'Spreadsheets',
  presentation: 'Presentations',
  video: 'Videos',
  audio: 'Audio',
  text: 'Text and code',
};

export const MODIFIED_LABELS = {
  any: 'Any time',
  today: 'Today',
  week: 'Last 7 days',
  month: 'Last 30 days',
  year: 'This year',
  custom: 'Custom dates',
} as const;
export type Modified = keyof typeof MODIFIED_LABELS;

/** A search as the search page holds it, and its address keeps it (so back, forward and reload show it again). */
export interface SearchFilters {
  q: string;
  type: TSearchType | null;
  /** The owner chosen, with the name the picker showed (the address carries both: a guest's browser cannot look people up). */
  owner: { id: string; name: string } | null;
  modified: Modified;
  /** Days (2026-05-01) of a custom range, each included; empty when open. */
  from: string;
  to: string;
  /** Only what is in this folder, at any depth ("Search in this folder"). */
  folderId: string | null;
}

export const NO_FILTERS: SearchFilters = { q: '', type: null, owner: null, modified: 'any', from: '', to: '', folderId: null };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isType = (v: string | null): v is TSearchType => v !== null && Object.hasOwn(TYPE_LABELS, v);
const isModified = (v: string | null): v is Modified => v !== null && Object.hasOwn(MODIFIED_LABELS, v);
/** A day that exists (Date reads 2026-02-30 as 2 March, so the day it reads must be the one written). */
function day(v: string | null): string {
  if (!v || !DAY.test(v)) return '';
  const d = new Date(`${v}T00:00:00`);
  return d.getFullYear() === Number(v.slice(0, 4)) && d.getMonth() + 1 === Number(v.slice(5, 7)) && d.getDate() === Number(v.slice(8)) ? v : '';
}

/** The search an address holds; what it holds wrongly (a type that does not exist, a bad date) is left out. */
export function filtersFromParams(params: URLSearchParams): SearchFilters {
  const type = params.get('type');
  const modified = params.get('modified');
  const ownerId = params.get('owner');
  const custom = modified === 'custom';
  return {
    q: params.get('q') ?? '',
    type: isType(type) ? type : null,
    owner: ownerId ? { id: ownerId, name: params.get('ownerName') ?? '' } : null,
    modified: isModified(modified) ? modified : 'any',
    from: custom ? day(params.get('from')) : '',
    to: custom ? day(params.get('to')) : '',
    folderId: params.get('in') || null,
  };
}

/** The address's query of a search: only what differs from no filter, in a stable order. */
export function paramsOf(f: SearchFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.type) params.set('type', f.type);
  if (f.owner) {
    params.set('owner', f.owner.id);
    if (f.owner.name) params.set('ownerName', f.owner.name);
  }
  if (f.modified !== 'any') params.set('modified', f.modified);
  if (f.modified === 'custom' && f.from) params.set('from', f.from);
  if (f.modified === 'custom' && f.to) params.set('to', f.to);
  if (f.folderId) params.set('in', f.folderId);
  return params;
}

/** The address's query once `next` changed some of the filters it holds (what it holds wrongly is dropped). */
export const withFilters = (params: URLSearchParams, next: Partial<SearchFilters>) => paramsOf({ ...filtersFromParams(params), ...next });

/** Whether anything narrows the search besides the words. */
export const hasFilters = (f: SearchFilters) => !!(f.type || f.owner || f.folderId || (f.modified !== 'any' && (f.modified !== 'custom' || f.from || f.to)));

/** The search page's address for a search in the workspace `slug`. */
export const searchPageUrl = (slug: string, f: Partial<SearchFilters>) => pageRoutes.search(slug, paramsOf({ ...NO_FILTERS, ...f }));

/** Midnight where the person is, `days` days before `now`'s day. */
function startOfDay(now: Date, days = 0): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days);
}

/**
 * The API's query for a search. Dates are days where the person is, sent as the instants they
 * start (a custom range ends where the day after its last day starts); ranges relative to today
 * start at a midnight, so the same search made twice in one day asks the same thing (and is cached once).
 */
export function searchQueryOf(f: SearchFilters, now = new Date()): TSearchQuery {
  let after: Date | undefined;
  let before: Date | undefined;
  if (f.modified === 'today') after = startOfDay(now);
  else if (f.modified === 'week') after = startOfDay(now, 7);
  else if (f.modified === 'month') after = startOfDay(now, 30);
  else if (f.modified === 'year') after = new Date(now.getFullYear(), 0, 1);
  else if (f.modified === 'custom') {
    if (f.from) after = new Date(`${f.from}T00:00:00`);
    if (f.to) before = startOfDay(new Date(`${f.to}T00:00:00`), -1);
  }
  return {
    q: f.q.trim(),
    ...(f.type ? { type: f.type } : {}),
    ...(f.owner ? { ownerId: f.owner.id } : {}),
    ...(after ? { modifiedAfter: after.toISOString() } : {}),
    ...(before ? { modifiedBefore: before.toISOString() } : {}),
    ...(f.folderId ? { parentId: f.folderId } : {}),
  };
}

/** Whether a search asks for anything: no words and no filters find nothing, so nothing is sent. */
export const isEmptySearch = (query: TSearchQuery) => !query.q && Object.keys(query).length === 1;
