import { createBrowserRouter } from 'react-router';
import { RequireAuth } from '../features/auth/components/require-auth.tsx';
import { SignInPage } from '../features/auth/components/sign-in-page.tsx';
import { AccountPage } from './routes/account.tsx';
import { DocumentRoute, FolderRoute, RecentRoute, StarredRoute, TrashRoute } from './routes/folder.tsx';
import { HomePage } from './routes/home.tsx';
import { NotFoundPage } from './routes/not-found.tsx';
import { RootRedirect } from './routes/root-redirect.tsx';
import { SectionPlaceholder } from './routes/section-placeholder.tsx';
import { WorkspaceLayout } from './routes/workspace-layout.tsx';

export const router = createBrowserRouter([
  { path: '/signin', element: <SignInPage /> },
  { path: '/', element: <RequireAuth><RootRedirect /></RequireAuth> },
  { path: '/account', element: <RequireAuth><AccountPage /></RequireAuth> },
  {
    path: '/w/:ws',
    element: <RequireAuth><WorkspaceLayout /></RequireAuth>,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'my', element: <FolderRoute root="home" /> },
      { path: 'shared', element: <SectionPlaceholder section="shared" /> },
      { path: 'recent', element: <RecentRoute /> },
      { path: 'starred', element: <StarredRoute /> },
      { path: 'trash', element: <TrashRoute /> },
      { path: 'f/:folderId', element: <FolderRoute /> },
      { path: 'd/:docId', element: <DocumentRoute /> },
      { path: 'search', element: <SectionPlaceholder section="search" /> },
      { path: 'settings/*', element: <SectionPlaceholder section="settings" /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
]);
