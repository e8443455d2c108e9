import { defineAddressedRoute, defineRoute } from './define-route.ts';

const NO_PREVIEW =
  '`unsupported_media_type` when the file cannot be shown this way, `details.reason` saying why: `not_supported` (another kind of file), ' +
  '`too_large` (past the size converted, `details.maxBytes`), `damaged` (not what its name says, or corrupt) ' +
  'or `too_complex` (it took too long or too much memory). ';

/**
 * Files read on the server to be shown in the viewer (ADR 0039): documents (DOCX, ODT, Markdown)
 * as HTML, and sheets (XLSX, ODS, CSV, TSV) a page of rows at a time. Whoever may see and download
 * the item may call them; under a public link, its visitor (showing it is part of the page, not a download).
 */
export const conversionsApi = {
  html: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/preview/html',
    tag: 'files',
    summary: 'A document file (DOCX, ODT, Markdown) as HTML to show: only the elements of a document, no scripts, styles or pictures',
    description: NO_PREVIEW + '`version` must be a version of this file.',
    auth: 'read',
    public: true,
    query: 'ZPreviewQuery',
    responses: { 200: 'ZPreviewHtml' },
    errors: ['unsupported_media_type', 'rate_limited', 'storage_unavailable'],
  }),
  sheets: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/preview/sheets',
    tag: 'files',
    summary: "A spreadsheet file (XLSX, ODS, CSV, TSV): its sheets and a page of one sheet's rows, each cell as the text it shows",
    description: NO_PREVIEW + '`version` must be a version of this file; `sheet` past the last answers the last.',
    auth: 'read',
    public: true,
    query: 'ZSheetPreviewQuery',
    responses: { 200: 'ZSheetPreview' },
    errors: ['unsupported_media_type', 'rate_limited', 'storage_unavailable'],
  }),
  linkHtml: defineRoute({
    method: 'GET',
    path: '/links/:token/items/:itemId/preview/html',
    tag: 'links',
    summary: 'A document file under a public link as HTML to show (not counted as a download)',
    description: NO_PREVIEW,
    auth: 'none',
    public: true,
    params: 'ZLinkItemParams',
    responses: { 200: 'ZPreviewHtml' },
    errors: ['not_found', 'forbidden', 'link_expired', 'link_password_required', 'unsupported_media_type', 'rate_limited', 'storage_unavailable'],
  }),
  linkSheets: defineRoute({
    method: 'GET',
    path: '/links/:token/items/:itemId/preview/sheets',
    tag: 'links',
    summary: 'A spreadsheet file under a public link: its sheets and a page of rows (not counted as a download)',
    description: NO_PREVIEW,
    auth: 'none',
    public: true,
    params: 'ZLinkItemParams',
    query: 'ZLinkSheetPreviewQuery',
    responses: { 200: 'ZSheetPreview' },
    errors: ['not_found', 'forbidden', 'link_expired', 'link_password_required', 'unsupported_media_type', 'rate_limited', 'storage_unavailable'],
  }),
};
