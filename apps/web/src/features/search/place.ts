import type { TSearchResult, TWorkspace } from '@cabinet/contracts';
import { folderTitle } from '../items/hooks/use-item-links.ts';

/** Where a result is, as a person reads it: its folder's name ("My files" and "Workspace" for the roots), or nothing when that folder is not theirs to see. */
export function placeOf(result: Pick<TSearchResult, 'parent'>, workspace: Pick<TWorkspace, 'homeId' | 'rootId'>): string | null {
  return result.parent ? folderTitle(result.parent, workspace) : null;
}

/** Whether the results are only names like what was typed (nothing matched as typed): said above them. */
export const onlySimilar = (results: Pick<TSearchResult, 'matchedIn'>[]) => results.length > 0 && results.every((r) => r.matchedIn === 'similar');
