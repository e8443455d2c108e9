import { documentsApi, MAX_IMPORT_BYTES, type TItem } from '@cabinet/contracts';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { sendFile } from '../../../lib/api-client.ts';
import { applyChange } from '../../../lib/changes.ts';
import { formatBytes } from '../../../lib/format.ts';
import { ImportProgress } from './import-progress.tsx';

/** What the import file picker offers. */
export const IMPORT_ACCEPT = '.md,.markdown,.html,.htm,.docx';

let sequence = 0;

/**
 * Makes a new document from each Markdown, HTML or Word file, one after another, each with its
 * progress and a Cancel button; a name already taken gets a free one, as uploads kept side by
 * side do. Answers the documents made.
 */
export function useImportDocuments(ws: string) {
  const client = useQueryClient();
  return useCallback(
    async (parentId: string, files: File[]): Promise<TItem[]> => {
      const made: TItem[] = [];
      for (const file of files) {
        const id = `import-${++sequence}`;
        const abort = new AbortController();
        const progress = (fraction: number) => ({
          id,
          autoClose: false,
          withCloseButton: false,
          title: `Importing “${file.name}”`,
          message: <ImportProgress name={file.name} fraction={fraction} onCancel={() => abort.abort()} />,
        });
        const done = (o: { color: string; title?: string; message: string }) =>
          notifications.update({ id, autoClose: o.color === 'red' ? 8000 : 4000, withCloseButton: true, ...o });
        notifications.show(progress(0));
        try {
          if (file.size > MAX_IMPORT_BYTES) throw new Error(`It is too large to import: the limit is ${formatBytes(MAX_IMPORT_BYTES)}.`);
          let shown = 0;
          const input = { params: { ws }, query: { parentId, fileName: file.name, onConflict: 'keep_both' as const }, body: file };
          const doc = await sendFile(documentsApi.import, input, {
            signal: abort.signal,
            // A new notch every few percent, not a redraw per network event.
            onProgress: (fraction) => fraction - shown >= 0.02 && notifications.update(progress((shown = fraction))),
          });
          done({ color: 'green', message: `Imported “${doc.name}”` });
          applyChange(client, ws, { type: 'item.created', itemId: doc.id, parentIds: [doc.parentId], item: doc });
          made.push(doc);
        } catch (error) {
          if (abort.signal.aborted) done({ color: 'gray', message: `Stopped importing “${file.name}”` });
          else done({ color: 'red', title: `“${file.name}” was not imported`, message: (error as Error).message });
        }
      }
      return made;
    },
    [client, ws],
  );
}
