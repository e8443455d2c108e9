import { Center, Loader } from '@mantine/core';
import { Navigate } from 'react-router';
import { useCurrentWorkspace } from '../../features/workspaces/hooks/use-current-workspace.ts';
import { pageRoutes } from '../../lib/page-routes.ts';

/** `/` opens the workspace used last, or the first one. */
export function RootRedirect() {
  const { workspace } = useCurrentWorkspace();
  if (!workspace) {
    return (
      <Center mih="100dvh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  return <Navigate to={pageRoutes.workspace(workspace.slug)} replace />;
}
