import { useContext, useSyncExternalStore } from 'react';
import { UploadsContext } from '../uploader/uploads-context.ts';

/** The page's one upload manager (UploadsProvider makes it). */
export function useUploader() {
  const manager = useContext(UploadsContext);
  if (!manager) throw new Error('useUploader needs an UploadsProvider above it');
  return manager;
}

/** The uploads as they change: progress, states, conflicts. */
export function useUploadTasks() {
  const manager = useUploader();
  return useSyncExternalStore(manager.subscribe, manager.getSnapshot);
}
