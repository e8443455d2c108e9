import { createRequire } from 'node:module';
import path from 'node:path';
import type { Canvas } from '@napi-rs/canvas';
import { getDocument, PDFDataRangeTransport, VerbosityLevel, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ReadRange } from './range-port.ts';

// Opening and drawing PDFs in worker threads, for what reads them (search's text and OCR, previews).

/** pdfjs's fonts, character maps and decoders, read from its package (in Node these are paths, not URLs). */
const dir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const ASSETS = {
  standardFontDataUrl: `${dir}/standard_fonts/`,
  cMapUrl: `${dir}/cmaps/`,
  wasmUrl: `${dir}/wasm/`,
  iccUrl: `${dir}/iccs/`,
};

/**
 * A PDF opened to read: fonts are never compiled to code (`isEvalSupported: false`), and pictures
 * past `maxImagePixels` are left out of a rendering. Rejects as pdfjs does (`PasswordException`…).
 */
export function openPdf(bytes: Uint8Array, maxImagePixels: number): Promise<PDFDocumentProxy> {
  return getDocument({ data: bytes, ...ASSETS, isEvalSupported: false, maxImageSize: maxImagePixels, verbosity: VerbosityLevel.ERRORS }).promise;
}

/** The size of the ranges a PDF read by ranges asks for: a page's dictionary each (see `openPdfByRanges`). */
const RANGE_BYTES = 64 * 1024;

/** pdfjs's transport of ranges, given by `read`; a read that fails is handed to `onFailure`. */
class Ranges extends PDFDataRangeTransport {
  constructor(
    length: number,
    private readonly read: ReadRange,
    private readonly onFailure: (error: unknown) => void,
  ) {
    super(length, null);
  }
  override requestDataRange(begin: number, end: number): void {
    this.read(begin, end).then((bytes) => this.onDataRange(begin, bytes), this.onFailure);
  }
}

/**
 * `use` given a PDF of `size` bytes opened as `openPdf` opens one, but read by ranges (nothing
 * fetched ahead): what `use` needs is read, not the whole file. pdfjs still reads every page's
 * dictionary before it answers (to check the page count), so a scanned PDF of many pages costs a
 * range per page. pdfjs has no way to fail a range, and would wait for it for ever: a failed read
 * rejects this at once with the read's error. The document is destroyed when this settles.
 */
export async function withPdfByRanges<T>(size: number, read: ReadRange, maxImagePixels: number, use: (doc: PDFDocumentProxy) => Promise<T>): Promise<T> {
  let fail: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  const task = getDocument({
    range: new Ranges(size, read, (error) => fail(error)),
    length: size,
    rangeChunkSize: RANGE_BYTES,
    disableAutoFetch: true,
    disableStream: true,
    ...ASSETS,
    isEvalSupported: false,
    maxImageSize: maxImagePixels,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    return await Promise.race([task.promise.then(use), failed]);
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: Canvas };
  destroy(entry: { canvas: Canvas }): void;
}

/** A page as a PNG, scaled so its longer side is `side` pixels (at most `maxScale` times its size): bounded in memory. */
export async function renderPage(doc: PDFDocumentProxy, page: PDFPageProxy, side: number, maxScale: number): Promise<Buffer> {
  const natural = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: Math.min(maxScale, side / Math.max(natural.width, natural.height)) });
  // In Node, pdfjs makes its canvases with @napi-rs/canvas.
  const factory = doc.canvasFactory as CanvasFactory;
  const entry = factory.create(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  try {
    await page.render({ canvas: entry.canvas as never, viewport }).promise;
    return await entry.canvas.encode('png');
  } finally {
    factory.destroy(entry);
  }
}
