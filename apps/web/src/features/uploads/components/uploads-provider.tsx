import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { UploadManager } from '../uploader/upload-manager.ts';
import { UploadsContext } from '../uploader/uploads-context.ts';
import { ConflictDialog } from './conflict-dialog.tsx';
import { UploadsPanel } from './uploads-panel.tsx';

/** One upload manager for the signed-in page, its progress panel and its conflict dialog. */
export function UploadsProvider({ workspaceId, children }: { workspaceId: string | undefined; children: ReactNode }) {
  const client = useQueryClient();
  const [manager] = useState(
    () =>
      new UploadManager((folderId) => {
        void client.invalidateQueries({ queryKey: ['children'] });
        void client.invalidateQueries({ queryKey: ['item', folderId] });
        void client.invalidateQueries({ queryKey: ['workspaces'] });
        void client.invalidateQueries({ queryKey: ['recent'] });
        void client.invalidateQueries({ queryKey: ['versions'] });
      }),
  );
  useEffect(() => {
    if (workspaceId) manager.loadUnfinished(workspaceId).catch(() => {});
  }, [manager, workspaceId]);
  return (
    <UploadsContext.Provider value={manager}>
      {children}
      <UploadsPanel />
      <ConflictDialog />
    </UploadsContext.Provider>
  );
}
