import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { MAX_IMAGE_PIXELS, MAX_OCR_SIDE } from './limits.ts';
import { ExtractFailure, type TextSink } from './text-sink.ts';

/** English, as installed with the server (@tesseract.js-data/eng): nothing is downloaded. `best_int` is what tesseract.js itself picks for its LSTM engine. */
const LANG_PATH = path.join(path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng')), '4.0.0_best_int');

/**
 * Tesseract in a worker thread of its own, which tesseract.js starts from this thread: when the
 * pool ends this thread (past its time limit), that thread ends with it. Started on first use,
 * ended by `close`.
 */
export class Ocr {
  private worker?: Promise<Worker>;

  async read(image: Buffer): Promise<string> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      gzip: true,
      // No cache: tesseract.js would otherwise write the language data into the working directory.
      cacheMethod: 'none',
      // Without a handler tesseract.js throws a failed job's error from its message listener, which would end this thread.
      errorHandler: () => {},
    });
    try {
      return (await (await this.worker).recognize(image)).data.text;
    } catch {
      throw new ExtractFailure('Its text could not be recognised.');
    }
  }

  async close(): Promise<void> {
    const worker = await this.worker?.catch(() => undefined);
    await worker?.terminate();
  }
}

/**
 * A picture's text by OCR. Its size is read from its header first: a picture past
 * MAX_IMAGE_PIXELS is refused before a pixel is decoded (a 20,000 × 20,000 PNG is a few KiB that
 * would decode to 1.6 GB). Then it is turned upright, flattened on white, made grey and fitted
 * within MAX_OCR_SIDE: what Tesseract reads best, in bounded time.
 */
export async function readImage(bytes: Uint8Array, sink: TextSink): Promise<void> {
  const damaged = () => new ExtractFailure('It is damaged: it cannot be read as an image.');
  // The header only: no pixel limit yet (sharp's own would refuse to read the size of a huge picture).
  const { width, height } = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw damaged();
    });
  if (!width || !height) throw damaged();
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ExtractFailure(
      `It is too large to read its text: ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels, ` +
        `more than ${MAX_IMAGE_PIXELS / 1e6} megapixels.`,
    );
  }
  const image = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize({ width: MAX_OCR_SIDE, height: MAX_OCR_SIDE, fit: 'inside', withoutEnlargement: true })
    .png({ compressionLevel: 1 })
    .toBuffer()
    .catch(() => {
      throw damaged();
    });
  const ocr = new Ocr();
  try {
    sink.text(await ocr.read(image));
  } finally {
    await ocr.close();
  }
}
