import type { RefObject } from 'react';
import { filesFromInput, type PickedFile } from '../uploader/collect-files.ts';

/**
 * The hidden input that chooses a folder (every file under it, with its path), opened by a button
 * that clicks `inputRef`; the same folder can be chosen again at once.
 */
export function FolderInput({ inputRef, onFiles }: { inputRef: RefObject<HTMLInputElement | null>; onFiles: (files: PickedFile[]) => void }) {
  return (
    <input
      ref={(el) => {
        inputRef.current = el;
        el?.setAttribute('webkitdirectory', '');
      }}
      type="file"
      hidden
      aria-label="Folder to upload"
      onChange={(e) => {
        if (e.currentTarget.files) onFiles(filesFromInput(e.currentTarget.files));
        e.currentTarget.value = '';
      }}
    />
  );
}
