import { createRequire } from 'node:module';
import path from 'node:path';
import type { Canvas } from '@napi-rs/canvas';
import { getDocument, VerbosityLevel, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

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
