import type { TItem, TWorkspace } from '@cabinet/contracts';
import { pageRoutes } from '../../../lib/page-routes.ts';

/** What a folder is called on screen: the roots have names of their own. */
export function folderTitle(item: Pick<TItem, 'id' | 'name'>, workspace: Pick<TWorkspace, 'homeId' | 'rootId'>): string {
  return item.id === workspace.homeId ? 'My files' : item.id === workspace.rootId ? 'Workspace' : item.name;
}

/** Where a folder or a document opens in the app (files open their bytes instead, so they have none). */
export function useItemLinks(workspace: TWorkspace) {
  return (item: Pick<TItem, 'id' | 'kind'>) =>
    item.kind === 'document'
      ? pageRoutes.document(workspace.slug, item.id)
      : item.kind !== 'folder'
        ? undefined
        : item.id === workspace.homeId
          ? pageRoutes.myFiles(workspace.slug)
          : pageRoutes.folder(workspace.slug, item.id);
}
