import type { TItem, TWorkspace } from '@cabinet/contracts';

/** What a folder is called on screen: the roots have names of their own. */
export function folderTitle(item: Pick<TItem, 'id' | 'name'>, workspace: Pick<TWorkspace, 'homeId' | 'rootId'>): string {
  return item.id === workspace.homeId ? 'My files' : item.id === workspace.rootId ? 'Workspace' : item.name;
}

/** Where a folder or a document opens in the app (files open their bytes instead, so they have none). */
export function useItemLinks(workspace: TWorkspace) {
  const base = `/w/${workspace.slug}`;
  return (item: Pick<TItem, 'id' | 'kind'>) =>
    item.kind === 'document'
      ? `${base}/d/${item.id}`
      : item.kind !== 'folder'
        ? undefined
        : item.id === workspace.homeId
          ? `${base}/my`
          : `${base}/f/${item.id}`;
}
