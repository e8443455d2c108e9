// Runs in a worker thread of the extractors' pool (see extractText in index.ts): every parser of
// what users upload runs here, never on the main thread.
import { claimedKind, signatureOf, type FileKind } from './file-kind.ts';
import type { ExtractInput, Extraction } from './extraction.ts';
import { READ_TIME_SHARE } from './limits.ts';
import { readText } from './plain-text.ts';
import { ExtractFailure, TextSink } from './text-sink.ts';

/** What a file of a binary kind is said to be, when its contents are not. */
const WHAT: Record<Exclude<FileKind, 'text' | 'html' | 'xml'>, string> = {
  pdf: 'a PDF',
  docx: 'a Word document',
  xlsx: 'an Excel workbook',
  pptx: 'a PowerPoint presentation',
  odf: 'an OpenDocument file',
  image: 'an image',
};
/** Compound File Binary: Office's older formats, and the wrapper of a password-protected .docx, .xlsx or .pptx. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export async function extractInWorker(input: ExtractInput): Promise<Extraction> {
  const started = Date.now();
  const sink = new TextSink();
  if (input.size !== undefined && input.size > input.bytes.length) sink.cut();
  try {
    if (!(await read(input, sink, started + input.timeoutMs * READ_TIME_SHARE))) return { state: 'unsupported' };
    return { state: 'ready', ...sink.result() };
  } catch (error) {
    if (error instanceof ExtractFailure) return { state: 'failed', reason: error.reason };
    // A parser's stack or a string's length exhausted by what the file holds.
    if (error instanceof RangeError) return { state: 'failed', reason: 'It is too complex to read.' };
    return { state: 'failed', reason: 'It is damaged: its text could not be read.' };
  }
}

/**
 * Reads the file's text into `sink`; false for a file whose type is not read. The type is what
 * the bytes prove first (a name can lie), then what the name or media type says.
 */
async function read({ bytes, mimeType, name }: ExtractInput, sink: TextSink, until: number): Promise<boolean> {
  const signature = signatureOf(bytes);
  const claimed = claimedKind({ mimeType, name });
  // Each parser is loaded by the worker the first time a file of its kind comes (a worker that reads only text never loads
  // pdfjs, OCR or the Office readers: a second of its start). A PDF may have up to 1 KiB of other bytes before its
  // header: pdfjs finds it, when the name says PDF.
  if (signature === 'pdf' || (!signature && claimed === 'pdf')) await (await import('./pdf.ts')).readPdf(bytes, sink, until);
  else if (signature === 'image') await (await import('./ocr.ts')).readImage(bytes, sink);
  else if (signature === 'zip') {
    const { officeKindOf, openOfficeZip, readOffice } = await import('./office.ts');
    const zip = await openOfficeZip(bytes);
    const kind = await officeKindOf(zip);
    if (!kind) return false;
    await readOffice(kind, zip, bytes, sink);
  } else {
    if (!claimed) return false;
    if (claimed === 'text' || claimed === 'html' || claimed === 'xml') return readText(bytes, claimed, sink);
    if ((claimed === 'docx' || claimed === 'xlsx' || claimed === 'pptx') && OLE2.every((b, i) => bytes[i] === b)) {
      throw new ExtractFailure('It is protected by a password, or saved in an older Office format that is not read.');
    }
    throw new ExtractFailure(`It is damaged: its contents are not ${WHAT[claimed]}.`);
  }
  return true;
}
