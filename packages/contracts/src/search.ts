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
 * The languages whose stemming search can use for documents and file texts (PostgreSQL's text
 * search configurations; `simple`: no language, words match as written). Names always match as
 * written, whatever the language.
 */
export const SEARCH_LANGUAGES = {
  english: 'English',
  arabic: 'Arabic',
  armenian: 'Armenian',
  basque: 'Basque',
  catalan: 'Catalan',
  danish: 'Danish',
  dutch: 'Dutch',
  finnish: 'Finnish',
  french: 'French',
  german: 'German',
  greek: 'Greek',
  hindi: 'Hindi',
  hungarian: 'Hungarian',
  indonesian: 'Indonesian',
  irish: 'Irish',
  italian: 'Italian',
  lithuanian: 'Lithuanian',
  nepali: 'Nepali',
  norwegian: 'Norwegian',
  portuguese: 'Portuguese',
  romanian: 'Romanian',
  russian: 'Russian',
  serbian: 'Serbian',
  spanish: 'Spanish',
  swedish: 'Swedish',
  tamil: 'Tamil',
  turkish: 'Turkish',
  yiddish: 'Yiddish',
  simple: 'No language: words match only as written',
} as const;
export const ZSearchLanguage = z.enum(Object.keys(SEARCH_LANGUAGES) as [keyof typeof SEARCH_LANGUAGES, ...(keyof typeof SEARCH_LANGUAGES)[]]);
export type TSearchLanguage = z.infer<typeof ZSearchLanguage>;

/** `GET /workspaces/:ws/search-settings`: the language of the workspace's texts; `updating` while texts already indexed are read again in a new one. */
export const ZSearchSettings = z.object({ language: ZSearchLanguage, updating: z.boolean() });
export type TSearchSettings = z.infer<typeof ZSearchSettings>;
export const ZUpdateSearchSettings = z.object({ language: ZSearchLanguage });
export type TUpdateSearchSettings = z.infer<typeof ZUpdateSearchSettings>;
