import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { applyChange } from '../../../lib/changes.ts';
import { useUploadTasks } from '../hooks/use-uploader.ts';
import type { UploadManager } from '../uploader/upload-manager.ts';
import { UploadsContext } from '../uploader/uploads-context.ts';

// Fetched with the first upload, not with every page.
const UploadsPanel = lazy(() => import('./uploads-panel.tsx').then((m) => ({ default: m.UploadsPanel })));
const ConflictDialog = lazy(() => import('./conflict-dialog.tsx').then((m) => ({ default: m.ConflictDialog })));

function UploadsUi() {
  const tasks = useUploadTasks();
  if (tasks.length === 0) return null;
  return (
    <>
      <UploadsPanel />
      <ConflictDialog />
    </>
  );
}

/** One upload manager for the signed-in page, its progress panel and its conflict dialog. */
export function UploadsProvider({ workspaceId, children }: { workspaceId: string | undefined; children: ReactNode }) {
  const client = useQueryClient();
  // The uploader's code (hashing, parts, retries) is fetched now, after the first paint has started, not with it.
  const [arrival] = useState(() =>
    import('../uploader/upload-manager.ts').then(({ UploadManager }) => new UploadManager((ws, change) => applyChange(client, ws, change))),
  );
  const [manager, setManager] = useState<UploadManager>();
  // A failed fetch reaches the components that wait on `arrival`.
  useEffect(() => void arrival.then(setManager, () => {}), [arrival]);
  useEffect(() => {
    if (manager && workspaceId) manager.loadUnfinished(workspaceId).catch(() => {});
  }, [manager, workspaceId]);
  const uploads = useMemo(() => ({ manager, arrival }), [manager, arrival]);
  return (
    <UploadsContext.Provider value={uploads}>
      {children}
      {/* Waits for the manager's code, then for the panel's and the dialog's with the first upload. */}
      <Suspense fallback={null}>
        <UploadsUi />
      </Suspense>
    </UploadsContext.Provider>
  );
}
