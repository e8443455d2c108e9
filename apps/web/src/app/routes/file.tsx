import { useParams, useSearchParams } from 'react-router';
import { useWorkspaceEvents } from '../../features/items/hooks/use-workspace-events.ts';
import { UploadsProvider } from '../../features/uploads/components/uploads-provider.tsx';
import { FileViewerPage } from '../../features/viewer/components/file-viewer-page.tsx';
import { useCurrentWorkspace } from '../../features/workspaces/hooks/use-current-workspace.ts';
import { NotFoundView } from './not-found.tsx';
import { PageLoader } from '../../components/ui/page-loader.tsx';

/**
 * `/w/:ws/file/:fileId[?version=]`: the file viewer, over the whole window (without the workspace's
 * frame), with the workspace's live changes and uploads (a new version from the Versions drawer).
 */
export function FileRoute() {
  const { workspace, isPending, missing } = useCurrentWorkspace();
  const { fileId = '' } = useParams();
  const [search] = useSearchParams();
  useWorkspaceEvents(workspace?.id);
  if (isPending) {
    return <PageLoader label="Loading workspace" />;
  }
  if (missing || !workspace) return <NotFoundView what="workspace" />;
  return (
    <UploadsProvider workspaceId={workspace.id}>
      <FileViewerPage workspace={workspace} fileId={fileId} versionId={search.get('version') ?? undefined} />
    </UploadsProvider>
  );
}
