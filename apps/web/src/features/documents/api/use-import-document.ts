import { MAX_IMPORT_BYTES, type TItem } from '@cabinet/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client.ts';

/** What the import file picker offers. */
export const IMPORT_ACCEPT = '.md,.markdown,.html,.htm,.docx';

/** Makes a new document from a Markdown, HTML or Word file; a name already taken gets a free one, as for uploads kept side by side. */
export function useImportDocument(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ parentId, file }: { parentId: string; file: File }) => {
      if (file.size > MAX_IMPORT_BYTES) throw new ApiError(413, 'file_too_large', `“${file.name}” is too large to import: the limit is ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
      return api<TItem>('POST', `/workspaces/${ws}/documents/import?parentId=${parentId}&fileName=${encodeURIComponent(file.name)}&onConflict=keep_both`, file);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['children', ws] }),
  });
}

/** Where a document downloads in each format (the browser's own download, with the session cookie). */
export const exportUrl = (id: string, format: 'markdown' | 'html' | 'pdf') => `/api/v1/items/${id}/export?format=${format}`;
