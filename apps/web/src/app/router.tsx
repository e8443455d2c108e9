import { lazy, Suspense, useState, type ComponentType } from 'react';
import { BrowserRouter, matchPath, Route, Routes } from 'react-router';
import { RequireAuth } from '../features/auth/components/require-auth.tsx';
import { HomePage } from './routes/home.tsx';
import { RootRedirect } from './routes/root-redirect.tsx';
import { WorkspaceLayout } from './routes/workspace-layout.tsx';
import { PageLoader } from '../components/ui/page-loader.tsx';
import { workspacesQuery } from '../features/workspaces/api/use-workspaces.ts';
import { pagePatterns } from '../lib/page-routes.ts';
import { queryClient } from '../lib/query-client.ts';

/**
 * Each page's module is fetched when the page is first shown, so a page downloads only what it
 * shows: the signed-in home stays small; the editor, tables and dialogs come with their pages.
 * Declarative routes: the data router (createBrowserRouter) would add 14 KB of compressed script to
 * every page for features Cabinet does not use.
 */
function page<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  const loading = () => load().then((component) => (loaded = component));
  const Lazy = lazy(async () => ({ default: await loading() })) as unknown as ComponentType<P>;
  // A page whose module is in already (asked for at boot, or shown before) is rendered at once: not
  // suspended for a turn, when React would hold its reveal back for up to 300 ms.
  function Page(props: P) {
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Page, { preload: loading });
}

// One loader per module: its pages share the chunk and the list of chunks it needs.
const folderModule = () => import('./routes/folder.tsx');
const settingsModule = () => import('./routes/settings.tsx');

const SignInPage = page(() => import('../features/auth/components/sign-in-page.tsx').then((m) => m.SignInPage));
const AccountPage = page(() => import('./routes/account.tsx').then((m) => m.AccountPage));
const FolderRoute = page(() => folderModule().then((m) => m.FolderRoute));
const RecentRoute = page(() => folderModule().then((m) => m.RecentRoute));
const StarredRoute = page(() => folderModule().then((m) => m.StarredRoute));
const SharedRoute = page(() => folderModule().then((m) => m.SharedRoute));
const TrashRoute = page(() => folderModule().then((m) => m.TrashRoute));
const DocumentRoute = page(() => import('./routes/document.tsx').then((m) => m.DocumentRoute));
const SearchRoute = page(() => import('./routes/search.tsx').then((m) => m.SearchRoute));
const SettingsLayout = page(() => settingsModule().then((m) => m.SettingsLayout));
const SettingsIndex = page(() => settingsModule().then((m) => m.SettingsIndex));
const MembersSettingsPage = page(() => settingsModule().then((m) => m.MembersSettingsPage));
const SearchSettingsPage = page(() => settingsModule().then((m) => m.SearchSettingsPage));
const GroupsSettingsPage = page(() => settingsModule().then((m) => m.GroupsSettingsPage));
const AuditSettingsPage = page(() => settingsModule().then((m) => m.AuditSettingsPage));
const LinksSettingsPage = page(() => settingsModule().then((m) => m.LinksSettingsPage));
const adminModule = () => import('./routes/admin.tsx');
const AdminLayout = page(() => adminModule().then((m) => m.AdminLayout));
const AdminOverviewPage = page(() => adminModule().then((m) => m.AdminOverviewPage));
const AdminWorkspacesPage = page(() => adminModule().then((m) => m.AdminWorkspacesPage));
const AdminPeoplePage = page(() => adminModule().then((m) => m.AdminPeoplePage));
const AdminJobsPage = page(() => adminModule().then((m) => m.AdminJobsPage));
const AdminSettingsPage = page(() => adminModule().then((m) => m.AdminSettingsPage));
const AdminAuditPage = page(() => adminModule().then((m) => m.AdminAuditPage));
const InvitePage = page(() => import('./routes/invite.tsx').then((m) => m.InvitePage));
const FileRoute = page(() => import('./routes/file.tsx').then((m) => m.FileRoute));
const PublicLinkPage = page(() => import('./routes/public-link.tsx').then((m) => m.PublicLinkPage));
const notFoundModule = () => import('./routes/not-found.tsx');
const NotFoundPage = page(() => notFoundModule().then((m) => m.NotFoundPage));
const NotFoundView = page(() => notFoundModule().then((m) => m.NotFoundView));

/**
 * A page of the signed-in frame asks for the workspaces at once, beside the person, rather than once
 * the person is in. A page opened at a document's address also asks at once for the page's code,
 * which asks for the document's item and the snapshot this browser kept of it (ADR 0052).
 */
export function startOpening(path: string) {
  if (!path.startsWith('/w/')) return;
  void queryClient.prefetchQuery(workspacesQuery);
  // The page's module asks for the rest as it loads (routes/document.tsx).
  if (matchPath(pagePatterns.document, path)) DocumentRoute.preload().catch(() => undefined); // Failing, it fails again where the page is shown.
}

export function AppRoutes() {
  return (
    <BrowserRouter>
      <Suspense fallback={<PageLoader label="Loading" />}>
        <Routes>
          <Route path="/signin" element={<SignInPage />} />
          <Route path="/invite/:token" element={<InvitePage />} />
          <Route
            path="/invitations/:id"
            element={
              <RequireAuth>
                <InvitePage />
              </RequireAuth>
            }
          />
          <Route path="/s/:token" element={<PublicLinkPage />} />
          <Route
            path="/"
            element={
              <RequireAuth>
                <RootRedirect />
              </RequireAuth>
            }
          />
          <Route
            path="/account"
            element={
              <RequireAuth>
                <AccountPage />
              </RequireAuth>
            }
          />
          <Route
            path="/admin"
            element={
              <RequireAuth>
                <AdminLayout />
              </RequireAuth>
            }
          >
            <Route index element={<AdminOverviewPage />} />
            <Route path="workspaces" element={<AdminWorkspacesPage />} />
            <Route path="people" element={<AdminPeoplePage />} />
            <Route path="jobs" element={<AdminJobsPage />} />
            <Route path="settings" element={<AdminSettingsPage />} />
            <Route path="audit" element={<AdminAuditPage />} />
            <Route path="*" element={<NotFoundView />} />
          </Route>
          <Route
            path="/w/:ws/file/:fileId"
            element={
              <RequireAuth>
                <FileRoute />
              </RequireAuth>
            }
          />
          <Route
            path="/w/:ws"
            element={
              <RequireAuth>
                <WorkspaceLayout />
              </RequireAuth>
            }
          >
            <Route index element={<HomePage />} />
            <Route path="my" element={<FolderRoute root="home" />} />
            <Route path="shared" element={<SharedRoute />} />
            <Route path="recent" element={<RecentRoute />} />
            <Route path="starred" element={<StarredRoute />} />
            <Route path="trash" element={<TrashRoute />} />
            <Route path="f/:folderId" element={<FolderRoute />} />
            <Route path="d/:docId" element={<DocumentRoute />} />
            <Route path="search" element={<SearchRoute />} />
            <Route path="settings" element={<SettingsLayout />}>
              <Route index element={<SettingsIndex />} />
              <Route path="members" element={<MembersSettingsPage />} />
              <Route path="groups" element={<GroupsSettingsPage />} />
              <Route path="audit" element={<AuditSettingsPage />} />
              <Route path="links" element={<LinksSettingsPage />} />
              <Route path="search" element={<SearchSettingsPage />} />
              <Route path="*" element={<NotFoundView />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
