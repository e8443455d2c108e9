const MiB = 1024 * 1024;

/** PRODUCT.md §9: the first 1 MiB of text per file version, counted in UTF-16 code units (a JavaScript string's length, as the index counts). */
export const MAX_EXTRACTED_CHARS = 1_048_576;

/** Of a text file, the head read: UTF-8 takes at most 3 bytes per code unit, and the rest leaves room for whitespace that collapses. */
export const TEXT_HEAD_BYTES = 4 * MiB;
/** Of HTML and XML, the head read: markup, scripts and styles weigh more than the text they hold. */
export const MARKUP_HEAD_BYTES = 16 * MiB;
/** PDFs and office files are read whole (their index is at the end); larger ones are not read at all. */
export const MAX_DOCUMENT_BYTES = 200 * MiB;
export const MAX_IMAGE_BYTES = 50 * MiB;

/**
 * What the parts of a zip (office file) that are read may unpack to, in all: by the sizes its
 * directory declares, before anything is unpacked (a zip bomb fails at once), and again by what is
 * unpacked (a zip whose directory lies stops there).
 */
export const MAX_UNPACKED_BYTES = 200 * MiB;

/** Images larger than this are not decoded: 40 megapixels is a photo from a good camera, and ~160 MB of pixels. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Images are scaled down to fit this many pixels a side before OCR: its time grows with the area, and print stays legible. */
export const MAX_OCR_SIDE = 4000;
/** A scan's pages OCR'd at most; the rest of a long scan is left unread (the text is marked truncated). */
export const MAX_OCR_PAGES = 20;
/** A scanned page is rendered to fit this many pixels on its longer side (about 180 dpi on A4), at most 3× its size. */
export const OCR_PAGE_SIDE = 2000;
/**
 * Of a task's time limit, the share after which no further page of a PDF is read: the page under
 * way (its OCR) still has time to finish, and a long PDF gives the text read so far, marked
 * truncated, rather than nothing.
 */
export const READ_TIME_SHARE = 0.6;
