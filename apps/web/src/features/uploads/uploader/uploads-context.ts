import { createContext } from 'react';
import type { UploadManager } from './upload-manager.ts';

export const UploadsContext = createContext<UploadManager | null>(null);
