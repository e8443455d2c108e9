import type { TSearchResult, TWorkspace } from '@cabinet/contracts';

/** Where a result is, as a person reads it: its folder's name ("My files" and "Workspace" for the roots), or nothing when that folder is not theirs to see. */
export function placeOf(result: Pick<TSearchResult, 'parent'>, workspace: Pick<TWorkspace, 'homeId' | 'rootId'>): string | null {
  const parent = result.parent;
  if (!parent) return null;
  return parent.id === workspace.homeId ? 'My files' : parent.id === workspace.rootId ? 'Workspace' : parent.name;
}
