import { z } from 'zod';
import { ZCursor, ZId, ZIsoTime } from './common.ts';
import { ZItem } from './items.ts';

/** Kinds of things to search for: the three kinds of item, and families of files by their type. */
export const ZSearchType = z.enum(['folder', 'document', 'file', 'image', 'pdf', 'spreadsheet', 'presentation', 'video', 'audio', 'text']);
export type TSearchType = z.infer<typeof ZSearchType>;

/** Longest query read: words past it are ignored, not refused (a pasted paragraph still finds its start). */
export const MAX_SEARCH_QUERY = 500;
/** How deep a person may page into ranked results. */
export const MAX_SEARCH_OFFSET = 1000;

/** Where a page of results ended: how many results came before the next page. */
export const ZSearchPosition = z.object({ o: z.number().int().min(0).max(MAX_SEARCH_OFFSET) });

const ZDayOrTime = z.union([ZIsoTime, z.iso.date()], { error: 'Give a date (2026-05-01) or a time with its offset' });

/**
 * `GET /workspaces/:ws/search`: words (`q`: prefixes as you type, "a phrase" in quotes, -word to
 * leave out), narrowed by type, owner, when modified and a folder (anywhere below it). Filters
 * alone, with no words, list what matches them, most recently modified first.
 */
export const ZSearchQuery = z.object({
  q: z.string().max(10_000).default(''),
  type: ZSearchType.optional(),
  ownerId: ZId.optional(),
  modifiedAfter: ZDayOrTime.optional(),
  modifiedBefore: ZDayOrTime.optional(),
  parentId: ZId.optional(),
  cursor: ZCursor(ZSearchPosition).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type TSearchQuery = z.input<typeof ZSearchQuery>;

/** A matched stretch: in the item's name or in the snippet, as UTF-16 offsets (`start` inclusive, `end` exclusive). */
export const ZSearchMatch = z.object({ field: z.enum(['name', 'snippet']), start: z.number().int().min(0), end: z.number().int().min(0) });
export type TSearchMatch = z.infer<typeof ZSearchMatch>;

export const ZSearchResult = z.object({
  item: ZItem,
  /** The folder it is in, when the caller may see that folder. */
  parent: z.object({ id: ZId, name: z.string() }).nullable(),
  /** A passage of its text around the words found, as plain text (empty when the text did not match). */
  snippet: z.string(),
  /** Where the words are, to highlight them without HTML. */
  matches: z.array(ZSearchMatch),
  /** Found by its name (also when its text matched too), by its text, by a name close to what was typed, or (no words given) by the filters alone. */
  matchedIn: z.enum(['name', 'text', 'similar', 'filters']),
});
export type TSearchResult = z.infer<typeof ZSearchResult>;

export const ZSearchPage = z.object({ results: z.array(ZSearchResult), nextCursor: z.string().nullable() });
export type TSearchPage = z.infer<typeof ZSearchPage>;

/** Whether a file's or document's text can be searched yet (the details panel shows it). */
export const ZSearchTextState = z.object({
  state: z.enum(['none', 'pending', 'ready', 'truncated', 'unsupported', 'failed']),
  /** Why it failed, in a sentence. */
  error: z.string().nullable(),
  indexedAt: ZIsoTime.nullable(),
});
export type TSearchTextState = z.infer<typeof ZSearchTextState>;

/**
 * A language whose stemming search uses for documents and file texts: the name of a PostgreSQL
 * text search configuration (`english`, `german`, … or `simple`: words match only as written).
 * Which exist depends on the database; `GET /workspaces/:ws/search-settings` lists them. Names
 * always match as written, whatever the language.
 */
export const ZSearchLanguage = z.string().regex(/^[a-z_]{1,63}$/, 'Give a language as the database names it, such as english or german');
export type TSearchLanguage = z.infer<typeof ZSearchLanguage>;

/**
 * `GET /workspaces/:ws/search-settings`: the language of the workspace's texts, those the database
 * offers, and `updating` while texts already indexed are read again in a new one.
 */
export const ZSearchSettings = z.object({ language: ZSearchLanguage, languages: z.array(ZSearchLanguage), updating: z.boolean() });
export type TSearchSettings = z.infer<typeof ZSearchSettings>;
export const ZUpdateSearchSettings = z.object({ language: ZSearchLanguage });
export type TUpdateSearchSettings = z.infer<typeof ZUpdateSearchSettings>;
