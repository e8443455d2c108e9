import { use, useContext, useSyncExternalStore } from 'react';
import { UploadsContext } from '../uploader/uploads-context.ts';

function useUploads() {
  const uploads = useContext(UploadsContext);
  if (!uploads) throw new Error('useUploader needs an UploadsProvider above it');
  return uploads;
}

/** The page's one upload manager, for a component that can wait for its code (it suspends until then). */
export function useUploader() {
  const { manager, arrival } = useUploads();
  // Once there it is returned as is: waiting on even a settled promise would suspend the page once more.
  return manager ?? use(arrival);
}

/** The upload manager as it arrives, for a page that paints without it: an upload starts on a click. */
export function useUploaderPromise() {
  return useUploads().arrival;
}

/** The uploads as they change: progress, states, conflicts. */
export function useUploadTasks() {
  const manager = useUploader();
  return useSyncExternalStore(manager.subscribe, manager.getSnapshot);
}
