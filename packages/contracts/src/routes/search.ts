import { defineAddressedRoute } from './define-route.ts';

/** Search (ADR 0036). */
export const searchApi = {
  search: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws/search',
    tag: 'search',
    summary: 'Find items the caller may see by name and by text (documents, and text read from files)',
    description:
      'Words in `q` match as prefixes; "a phrase" in quotes matches those words in that order; -word leaves out what has it. ' +
      'Name matches come first, then text matches, then, when nothing matched, names close to what was typed. ' +
      'Each result has a plain-text `snippet` and `matches`: where the words are in the name or the snippet (UTF-16 offsets). ' +
      'Filters: `type`, `ownerId`, `modifiedAfter` and `modifiedBefore` (a date or a time), `parentId` (anywhere below that folder). Pages by `cursor`.',
    auth: 'read',
    public: true,
    query: 'ZSearchQuery',
    responses: { 200: 'ZSearchPage' },
    errors: [],
  }),
  textState: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/search-text',
    tag: 'search',
    summary: "Whether an item's text is searchable yet: pending, ready, truncated, unsupported or failed (and why)",
    auth: 'read',
    public: true,
    responses: { 200: 'ZSearchTextState' },
    errors: [],
  }),
  settings: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws/search-settings',
    tag: 'search',
    summary: "The language whose stemming search uses for the workspace's texts, and whether texts are being read again in a new one (any member)",
    auth: 'read',
    public: true,
    responses: { 200: 'ZSearchSettings' },
    errors: [],
  }),
  updateSettings: defineAddressedRoute({
    method: 'PATCH',
    path: '/workspaces/:ws/search-settings',
    tag: 'search',
    summary: "Change the language of the workspace's texts (owners and admins): texts already indexed are read again in the background, names match as before",
    auth: 'write',
    public: true,
    body: 'ZUpdateSearchSettings',
    responses: { 200: 'ZSearchSettings' },
    errors: ['forbidden'],
  }),
};
