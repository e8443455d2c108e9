import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useWorkspaceEvents } from '../../features/items/hooks/use-workspace-events.ts';
import { UploadsProvider } from '../../features/uploads/components/uploads-provider.tsx';
import { useCurrentWorkspace } from '../../features/workspaces/hooks/use-current-workspace.ts';
import { Shell } from '../shell.tsx';

// Fetched only for an address no workspace has: not with every page.
const NotFoundView = lazy(() => import('./not-found.tsx').then((m) => ({ default: m.NotFoundView })));

export function WorkspaceLayout() {
  const { workspace, isPending, missing } = useCurrentWorkspace();
  useWorkspaceEvents(workspace?.id);
  return (
    <UploadsProvider workspaceId={workspace?.id}>
      {/* Watched while the workspace loads too: the bell's own stream would open, only to close once the workspace's is up. */}
      <Shell workspace={workspace} watched={isPending || !!workspace}>
        {isPending ? (
          <Center py="xl">
            <Loader aria-label="Loading workspace" />
          </Center>
        ) : missing ? (
          <Suspense fallback={null}>
            <NotFoundView what="workspace" />
          </Suspense>
        ) : (
          // A page's module is fetched when it is first opened: meanwhile the frame stays.
          <Suspense
            fallback={
              <Center py="xl">
                <Loader aria-label="Loading" />
              </Center>
            }
          >
            <Outlet context={workspace} />
          </Suspense>
        )}
      </Shell>
    </UploadsProvider>
  );
}
