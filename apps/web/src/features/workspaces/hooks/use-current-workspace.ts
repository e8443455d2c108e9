import type { TWorkspace } from '@cabinet/contracts';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { readStored, writeStored } from '../../../lib/stored.ts';
import { useWorkspaces } from '../api/use-workspaces.ts';

const LAST = 'cabinet:last-workspace';

/** The workspace in the address (by slug or id), or the one used last, remembered for the next visit. */
export function useCurrentWorkspace(): { workspace: TWorkspace | undefined; isPending: boolean; missing: boolean } {
  const { ws } = useParams();
  const workspaces = useWorkspaces();
  const list = workspaces.data ?? [];
  const wanted = ws ?? readStored(LAST);
  const workspace = list.find((w) => w.slug === wanted || w.id === wanted) ?? (ws ? undefined : list[0]);
  // With storage refused (private mode, full), the next visit starts in the first workspace.
  useEffect(() => {
    if (workspace) writeStored(LAST, workspace.slug);
  }, [workspace]);
  return { workspace, isPending: workspaces.isPending, missing: !!ws && !workspaces.isPending && !workspace };
}
