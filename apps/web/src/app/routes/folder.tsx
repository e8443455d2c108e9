import type { TWorkspace } from '@cabinet/contracts';
import { useOutletContext, useParams } from 'react-router';
import { FolderView } from '../../features/items/components/folder-view.tsx';
import { TrashView } from '../../features/items/components/trash-view.tsx';

/** `/w/:ws/my` (My files), `/w/:ws/f/:folderId` (any folder). */
export function FolderRoute({ root }: { root?: 'home' }) {
  const workspace = useOutletContext<TWorkspace>();
  const { folderId } = useParams();
  const id = root === 'home' ? workspace.homeId : folderId!;
  return <FolderView key={id} workspace={workspace} folderId={id} />;
}

export function TrashRoute() {
  return <TrashView workspace={useOutletContext<TWorkspace>()} />;
}
