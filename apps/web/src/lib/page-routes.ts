/**
 * The browser app's page addresses, each written here once (router.tsx declares the patterns they
 * match). Every part that comes from data — a slug, an id, a token — is encoded, and a query is
 * built with URLSearchParams, so a name with `/`, `?`, `#` or `%` in it stays one part of one
 * address. Small and free of imports: the header, in the first page's script, builds addresses too.
 */

/** The pages of a workspace's settings (settings-pages.ts lists them with their labels and abilities). */
export type SettingsPageName = 'members' | 'groups' | 'links' | 'search' | 'audit';

/** The pages of the instance's administration (its overview is `/admin` itself). */
export type AdminPageName = 'workspaces' | 'people' | 'jobs' | 'settings' | 'audit';

/** A query: pairs whose undefined (or empty) values are left out, or URLSearchParams as they are. */
export type PageQuery = URLSearchParams | Readonly<Record<string, string | null | undefined>>;

const part = encodeURIComponent;

function withQuery(path: string, query?: PageQuery): string {
  const search = query instanceof URLSearchParams ? query : new URLSearchParams();
  if (query && !(query instanceof URLSearchParams)) {
    for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

const workspace = (slug: string) => `/w/${part(slug)}`;
const folderPage = (slug: string, folderId: string) => `${workspace(slug)}/f/${part(folderId)}`;
/** A document, opened at a comment thread when given one. */
const documentPage = (slug: string, documentId: string, query?: { thread?: string | null }) => withQuery(`${workspace(slug)}/d/${part(documentId)}`, query);
/** A file in the viewer; an older version of it when given one. */
const filePage = (slug: string, fileId: string, query?: { version?: string | null }) => withQuery(`${workspace(slug)}/file/${part(fileId)}`, query);

export const pageRoutes = {
  /** The workspace used last (or the first), or sign-in. */
  root: () => '/',
  /** Sign-in: `returnTo` is the page to come back to, `reason` why the person is asked again. */
  signIn: (query?: { returnTo?: string; reason?: 'expired' }) => withQuery('/signin', query),
  /**
   * The server's start of a sign-in at the identity provider (not a page of the app), coming back to `returnTo`;
   * its email field filled with `email` when given.
   */
  providerSignIn: (returnTo: string, email?: string) => withQuery('/auth/login', { returnTo, loginHint: email }),
  /** The same, opening the provider's sign-up form ("Create an account") rather than its sign-in form. */
  providerSignUp: (returnTo: string, email?: string) => withQuery('/auth/login', { returnTo, signup: '1', loginHint: email }),
  account: () => '/account',
  /** The instance's administration: its overview, or the page named. */
  admin: (page?: AdminPageName) => `/admin${page ? `/${page}` : ''}`,
  invite: (token: string) => `/invite/${part(token)}`,
  /** An invitation sent to the signed-in person's address, by its id (what their notification opens). */
  invitation: (id: string) => `/invitations/${part(id)}`,
  publicLink: (token: string) => `/s/${part(token)}`,
  /** A workspace's Home. */
  workspace,
  myFiles: (slug: string) => `${workspace(slug)}/my`,
  shared: (slug: string) => `${workspace(slug)}/shared`,
  recent: (slug: string) => `${workspace(slug)}/recent`,
  starred: (slug: string) => `${workspace(slug)}/starred`,
  trash: (slug: string) => `${workspace(slug)}/trash`,
  folder: folderPage,
  document: documentPage,
  file: filePage,
  /** A folder, a document or a file (in the viewer) by its kind. */
  item: (slug: string, item: { id: string; kind: 'folder' | 'document' | 'file' }) =>
    item.kind === 'folder' ? folderPage(slug, item.id) : item.kind === 'document' ? documentPage(slug, item.id) : filePage(slug, item.id),
  /** The search page; its query is the search (q, type, owner, modified, in, …). */
  search: (slug: string, query?: PageQuery) => withQuery(`${workspace(slug)}/search`, query),
  /** The workspace's settings: the first page the person may use, or the one named. */
  settings: (slug: string, page?: SettingsPageName) => `${workspace(slug)}/settings${page ? `/${page}` : ''}`,
};

/** The patterns of router.tsx that code outside the router matches the address against. */
export const pagePatterns = {
  myFiles: '/w/:ws/my',
  folder: '/w/:ws/f/:folderId',
  file: '/w/:ws/file/:fileId',
  document: '/w/:ws/d/:docId',
} as const;
