import type { TItem, TWorkspace } from '@cabinet/contracts';
import { pageRoutes } from '../../../lib/page-routes.ts';

/** What a folder is called on screen: the roots have names of their own. */
export function folderTitle(item: Pick<TItem, 'id' | 'name'>, workspace: Pick<TWorkspace, 'homeId' | 'rootId'>): string {
  return item.id === workspace.homeId ? 'My files' : item.id === workspace.rootId ? 'Workspace' : item.name;
}

/** Where an item opens in the app: a folder's listing, a document's editor, a file's viewer. */
export function useItemLinks(workspace: TWorkspace) {
  return (item: Pick<TItem, 'id' | 'kind'>): string =>
    item.kind === 'document'
      ? pageRoutes.document(workspace.slug, item.id)
      : item.kind === 'file'
        ? pageRoutes.file(workspace.slug, item.id)
        : item.id === workspace.homeId
          ? pageRoutes.myFiles(workspace.slug)
          : pageRoutes.folder(workspace.slug, item.id);
}
