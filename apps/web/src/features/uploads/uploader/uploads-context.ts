import { createContext } from 'react';
import type { UploadManager } from './upload-manager.ts';

/**
 * The page's upload manager, whose code is fetched after the first paint (which shows no upload):
 * `manager` once it is there, `arrival` until then.
 */
export const UploadsContext = createContext<{ manager: UploadManager | undefined; arrival: Promise<UploadManager> } | null>(null);

/**
 * The room the uploads panel takes at the bottom of the window while it is shown (a CSS length on
 * the document's root): the page pads its end by it, so its last rows scroll clear of the panel.
 */
export const UPLOADS_ROOM = '--cabinet-uploads-room';
