/**
 * Every cache key of the browser's server state, in one place: a change (see changes.ts) names
 * what it touches here, whichever feature shows it.
 */
export const queryKeys = {
  me: ['me'] as const,
  config: ['config'] as const,
  workspaces: ['workspaces'] as const,
  item: (id: string) => ['item', id] as const,
  /** Every item's own entry (prefix). */
  items: ['item'] as const,
  /** A file converted on the server to be shown (a document's HTML, a page of a sheet), by its address. */
  preview: (url: string) => ['preview', url] as const,
  children: (ws: string, folderId: string) => ['children', ws, folderId] as const,
  /** Every folder listing of a workspace (prefix). */
  allChildren: (ws: string) => ['children', ws] as const,
  ancestors: (id: string) => ['ancestors', id] as const,
  /** Every item's path (prefix). */
  allAncestors: ['ancestors'] as const,
  trash: (ws: string) => ['trash', ws] as const,
  starred: (ws: string) => ['starred', ws] as const,
  recent: (ws: string) => ['recent', ws] as const,
  /** Shared with me: items shared with the person themself. */
  shared: (ws: string) => ['shared', ws] as const,
  /** Who has access to an item (its grants and those from the folders above). */
  grants: (id: string) => ['grants', id] as const,
  /** Every item's access list (prefix): a share on a folder changes what those below it inherit. */
  allGrants: ['grants'] as const,
  /** A workspace's people, as its settings list them. */
  members: (ws: string) => ['members', ws, 'list'] as const,
  /** The few people of a workspace whose name or email contains `q`, suggested when sharing. */
  memberSuggestions: (ws: string, q: string) => ['members', ws, 'suggestions', q] as const,
  /** People of a workspace found by what was typed in a picker (a group's Add people, the audit log's Person). */
  memberSearch: (ws: string, q: string, filters: object) => ['members', ws, 'search', q, filters] as const,
  /** Every list of a workspace's people (prefix). */
  allMembers: (ws: string) => ['members', ws] as const,
  versions: (id: string) => ['versions', id] as const,
  allVersions: ['versions'] as const,
  comments: (documentId: string) => ['comments', documentId] as const,
  allComments: ['comments'] as const,
  revisions: (documentId: string) => ['revisions', documentId] as const,
  invitations: (ws: string) => ['invitations', ws] as const,
  /** A workspace's groups, with how many people each has. */
  groups: (ws: string) => ['groups', ws, 'list'] as const,
  /** The people of one group. */
  groupMembers: (ws: string, groupId: string) => ['groups', ws, 'members', groupId] as const,
  /** Everything about a workspace's groups (prefix). */
  allGroups: (ws: string) => ['groups', ws] as const,
  invitation: (token: string) => ['invitation', token] as const,
  revision: (documentId: string, revisionId: string) => ['revisions', documentId, revisionId] as const,
  /** What happened to one item (its details drawer). */
  itemActivity: (id: string) => ['activity', 'item', id] as const,
  /** A workspace's audit log, by its filters. */
  workspaceActivity: (ws: string, filters: object) => ['activity', 'workspace', ws, filters] as const,
  /** Every view of the activity record (prefix). */
  allActivity: ['activity'] as const,
  /** An item's public links. */
  links: (id: string) => ['links', id] as const,
  /** Every list of links (prefix): an item's, and the workspace's for its admins. */
  allLinks: ['links'] as const,
  workspaceLinks: (ws: string) => ['links', 'workspace', ws] as const,
  linkPolicy: (ws: string) => ['link-policy', ws] as const,
  /** The person's notifications, page by page, with their unread count (the bell). */
  notifications: ['notifications', 'list'] as const,
  /** Whether unread notifications are mailed. */
  notificationSettings: ['notifications', 'settings'] as const,
  /** One search of a workspace: what was typed and the filters, as the API takes them (with the page size). */
  search: (ws: string, query: object) => ['search', ws, query] as const,
  /** Every search of a workspace (prefix): the palette's and the search page's. */
  allSearch: (ws: string) => ['search', ws] as const,
  /** Whether an item's text can be searched yet (its details panel). */
  searchText: (id: string) => ['search-text', id] as const,
  allSearchText: ['search-text'] as const,
  /** The workspace's search language. */
  searchSettings: (ws: string) => ['search-settings', ws] as const,
  /** The workspace's people by id, to name the owners of search results (members only). */
  people: (ws: string) => ['members', ws, 'people'] as const,
  /** What a public link opens, as its visitor sees it; and an item under it. */
  publicLink: (token: string) => ['public-link', token] as const,
  publicItem: (token: string, id: string) => ['public-link', token, 'item', id] as const,
  publicDocument: (token: string, id: string) => ['public-link', token, 'document', id] as const,
  /** Instance administration (/admin): every view of it (prefix), and each. */
  admin: ['admin'] as const,
  adminOverview: ['admin', 'overview'] as const,
  adminSettings: ['admin', 'settings'] as const,
  adminWorkspaces: (q: string) => ['admin', 'workspaces', q] as const,
  adminUsers: (q: string, status: string) => ['admin', 'users', q, status] as const,
  adminJobs: ['admin', 'jobs'] as const,
  adminAudit: ['admin', 'audit'] as const,
};
