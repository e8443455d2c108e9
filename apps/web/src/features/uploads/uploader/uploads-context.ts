import { createContext } from 'react';
import type { UploadManager } from './upload-manager.ts';

/**
 * The page's upload manager, whose code is fetched after the first paint (which shows no upload):
 * `manager` once it is there, `arrival` until then.
 */
export const UploadsContext = createContext<{ manager: UploadManager | undefined; arrival: Promise<UploadManager> } | null>(null);
