/** Defaults of PRODUCT.md §9 that both the browser and the server need to know. */
export const LIMITS = {
  apiTokenMaxDays: 365,
  /** An invitation's life when none is given, and the longest it may be. */
  invitationDefaultDays: 7,
  invitationMaxDays: 90,
  invitationMaxUses: 1000,
  /** PRODUCT.md §5: a public link's password. */
  linkPasswordMin: 8,
  /** Wrong link passwords from one address within the window before it is refused for a while. */
  linkPasswordTries: 10,
  linkPasswordWindowMinutes: 10,
  /** What a link's page shows of a file itself: plain text up to this size (and pictures); the rest only by download. */
  linkTextPreviewBytes: 200_000,
  /** A file request's visitors, per link and address: uploads open at once, and uploads started within an hour (ADR 0035). */
  linkOpenUploads: 20,
  linkUploadStartsPerHour: 300,
  /** Folders a file request's visitor makes (a folder they send), per link and address within an hour. */
  linkFoldersPerHour: 300,
} as const;

/** Pictures a public link's page shows in itself: the one kind of file, besides short text, it serves when downloads are off. */
export const LINK_PREVIEW_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp'] as const;

/** Header the browser sends on every state-changing call, echoing the CSRF cookie. */
export const CSRF_HEADER = 'x-csrf-token';
/**
 * The header a browser tab names itself with (8–64 of A–Z a–z 0–9 _ -), so it can tell its own changes.
 * Here, with no schema beside it, so the first page's bundle carries no zod.
 */
export const CLIENT_ID_HEADER = 'x-client-id';
export const CSRF_COOKIE = 'cabinet_csrf';
/**
 * The header a client names one attempt at a creation with (1–255 visible ASCII characters): the
 * same key again from the same caller on the same route within 24 hours is answered with the
 * first answer, and nothing is made again (ADR 0043).
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/**
 * The header on every API answer naming the latest change in the activity record that the answering
 * instance knew of when the request arrived (its id, 0 when none): what the answer shows is at least
 * that fresh, so a live stream opened with `?after=` that id misses nothing and replays nothing older (ADR 0046).
 */
export const LAST_CHANGE_HEADER = 'last-change-id';

/**
 * Files read on the server to be shown in the viewer (ADR 0039): the largest file of each kind that
 * is converted (past it the answer is `unsupported_media_type` with `details.reason: 'too_large'`),
 * what a converted document may weigh, and a sheet's page and what is kept of a sheet.
 */
export const PREVIEW_LIMITS = {
  /** DOCX, ODT, XLSX, ODS. */
  officeBytes: 20 * 1024 * 1024,
  /** Markdown, CSV, TSV. */
  textBytes: 5 * 1024 * 1024,
  /** A document's HTML past this is cut at a block's end (`truncated: true`); its pictures are counted apart. */
  htmlBytes: 2 * 1024 * 1024,
  /** A document's pictures read at most (in the order it shows them); the rest are their description (`truncated: true`). */
  pictures: 50,
  /** What a document's pictures may weigh in all, as the WebP they are made into; past it the rest are their description (`truncated: true`). */
  pictureBytes: 8 * 1024 * 1024,
  /** A sheet's rows a page gives at most, and by default. */
  sheetPageRows: 200,
  /** A sheet's columns shown; the rest are left out (`truncated: true`). */
  sheetColumns: 100,
  /** A sheet's rows kept; the rest are left out (`truncated: true`). */
  sheetRows: 20_000,
  /** Sheets of a workbook read. */
  sheets: 50,
  /**
   * The viewer reads a PDF in Range requests of this granularity. Before page 1, pdf.js reads the
   * dictionary of every page to check the page count; in a scanned PDF each lies beside its picture,
   * a chunk apart, so the chunk is what each of those reads costs. A page's picture or contents,
   * whose length the PDF states, is read in one request whatever the chunk.
   */
  pdfRangeBytes: 16 * 1024,
} as const;

// Page sizes, here with the other plain constants: a module of schemas brings them all into the browser's first load.
/** A listing's page when the caller asks for no size. */
export const DEFAULT_PAGE = 100;
/** The page of a folder's children the browser app asks for (the server keeps its statement planned: ADR 0053). */
export const FOLDER_PAGE = 200;
