import type { TWorkspace } from '@cabinet/contracts';
import { useOutletContext, useParams } from 'react-router';
import { IconClock, IconStar } from '@tabler/icons-react';
import { useRecent, useStarred } from '../../features/items/api/use-items.ts';
import { FolderView } from '../../features/items/components/folder-view.tsx';
import { ItemListView } from '../../features/items/components/item-list-view.tsx';
import { SharedView } from '../../features/items/components/shared-view.tsx';
import { TrashView } from '../../features/items/components/trash-view.tsx';

/** `/w/:ws/my` (My files), `/w/:ws/f/:folderId` (any folder). */
export function FolderRoute({ root }: { root?: 'home' }) {
  const workspace = useOutletContext<TWorkspace>();
  const { folderId } = useParams();
  const id = root === 'home' ? workspace.homeId : folderId!;
  return <FolderView key={id} workspace={workspace} folderId={id} />;
}

export function SharedRoute() {
  return <SharedView workspace={useOutletContext<TWorkspace>()} />;
}

export function TrashRoute() {
  return <TrashView workspace={useOutletContext<TWorkspace>()} />;
}

export function StarredRoute() {
  const workspace = useOutletContext<TWorkspace>();
  const starred = useStarred(workspace.id);
  return (
    <ItemListView
      workspace={workspace}
      title="Starred"
      intro="Files and folders you starred, newest star first. Only you see your stars."
      items={starred.data}
      pending={starred.isPending}
      empty={{ icon: <IconStar size={32} />, title: 'Nothing starred yet', text: 'Star a file or folder from its menu to find it here quickly.' }}
    />
  );
}

export function RecentRoute() {
  const workspace = useOutletContext<TWorkspace>();
  const recent = useRecent(workspace.id);
  return (
    <ItemListView
      workspace={workspace}
      title="Recent"
      intro="Files you uploaded or opened lately, newest first."
      items={recent.data}
      pending={recent.isPending}
      empty={{ icon: <IconClock size={32} />, title: 'No recent files', text: 'Files you upload or open appear here.' }}
    />
  );
}
