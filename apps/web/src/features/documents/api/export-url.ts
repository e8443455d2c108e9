/** Where a document downloads in each format (the browser's own download, with the session cookie). */
export const exportUrl = (id: string, format: 'markdown' | 'html' | 'pdf') => `/api/v1/items/${id}/export?format=${format}`;
