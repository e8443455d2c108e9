import { OPS, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf, renderPage } from '../../../lib/pdf-pages.ts';
import { MAX_IMAGE_PIXELS, MAX_OCR_PAGES, OCR_PAGE_SIDE } from './limits.ts';
import { Ocr } from './ocr.ts';
import { ExtractFailure, type TextSink } from './text-sink.ts';

/**
 * A page with pictures and fewer letters and digits than this in its text layer is a scan (perhaps
 * stamped with a page number): it is OCR'd, and what OCR reads stands for the page (the stamp is
 * in the rendering too). A page of few words and no pictures (a title, a divider) is not.
 */
const SCAN_BELOW_CHARS = 20;
const WORD_CHARS = /[\p{L}\p{N}]/gu;
const PAINTS_IMAGE = new Set([OPS.paintImageXObject, OPS.paintImageXObjectRepeat, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);

/**
 * A PDF's text layer, page by page until the text is full or the time is `until`; scanned pages
 * rendered with @napi-rs/canvas and OCR'd, at most MAX_OCR_PAGES of them. Pages left unread
 * (damaged, past those limits) mark the text truncated.
 */
export async function readPdf(bytes: Uint8Array, sink: TextSink, until: number): Promise<void> {
  let doc: PDFDocumentProxy;
  try {
    doc = await openPdf(bytes, MAX_IMAGE_PIXELS);
  } catch (error) {
    if ((error as Error).name === 'PasswordException') throw new ExtractFailure('It is protected by a password.');
    throw new ExtractFailure('It is damaged: it cannot be read as a PDF.');
  }
  const ocr = new Ocr();
  let ocrPages = 0;
  try {
    for (let n = 1; n <= doc.numPages && !sink.full; n++) {
      if (Date.now() >= until) {
        sink.cut();
        break;
      }
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(n);
        const { items } = await page.getTextContent();
        const layer = items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
        const scanned = (layer.match(WORD_CHARS)?.length ?? 0) < SCAN_BELOW_CHARS && (await page.getOperatorList()).fnArray.some((op) => PAINTS_IMAGE.has(op));
        if (scanned && ocrPages < MAX_OCR_PAGES) {
          ocrPages++;
          sink.text(await ocr.read(await renderPage(doc, page, OCR_PAGE_SIDE, 3)));
        } else {
          sink.text(layer);
          if (scanned) sink.cut();
        }
      } catch (error) {
        // OCR that fails fails on every page; one damaged page leaves the others worth reading.
        if (error instanceof ExtractFailure) throw error;
        sink.cut();
      } finally {
        page?.cleanup();
      }
      sink.line();
    }
  } finally {
    await ocr.close();
    await doc.destroy();
  }
}
