import { Navigate } from 'react-router';
import { useCurrentWorkspace } from '../../features/workspaces/hooks/use-current-workspace.ts';
import { pageRoutes } from '../../lib/page-routes.ts';
import { PageLoader } from '../../components/ui/page-loader.tsx';

/** `/` opens the workspace used last, or the first one. */
export function RootRedirect() {
  const { workspace } = useCurrentWorkspace();
  if (!workspace) {
    return <PageLoader label="Loading" />;
  }
  return <Navigate to={pageRoutes.workspace(workspace.slug)} replace />;
}
