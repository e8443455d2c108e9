// Runs in a worker thread of the previewers' pool (previews.service.ts): every decoder of what
// users upload runs here, never on the main thread, within the pool's memory and time limits.
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import type { MessagePort } from 'node:worker_threads';
import { PDF_READ_BYTES } from './source-kind.ts';
import { rangeReader, RangeReadFailure } from '../../lib/range-port.ts';
import { MAX_PICTURE_PIXELS, openPicture, PictureTooLarge } from '../../lib/pictures.ts';
import type { PreviewKind } from '../../db/schema.ts';

/** A PDF's first page is drawn so its longer side has this many pixels (at most twice its size). */
const PDF_SIDE = 1024;
/** Pictures inside a PDF larger than this are left out of its drawing. */
const PDF_IMAGE_PIXELS = 40_000_000;

export const PREVIEW_SIDES: Record<PreviewKind, number> = { 'thumb-1024': 1024, 'thumb-256': 256 };

export type PreviewInput =
  /** The file's bytes (an image, a HEIC), or a video's frame as PNG (kind `image`). */
  | { kind: 'image' | 'heic'; bytes: Uint8Array }
  /** A PDF of `size` bytes, read by ranges asked for on `port` (lib/range-port.ts): a large one is never read whole. */
  | { kind: 'pdf'; size: number; port: MessagePort };

export interface MadePreview {
  kind: PreviewKind;
  bytes: Uint8Array;
  width: number;
  height: number;
}

export type PreviewOutcome =
  | { state: 'ready'; previews: MadePreview[]; placeholder: string }
  /** `reason` completes "No preview: …" in the details panel. */
  | { state: 'failed'; reason: string };

/** A failure of the file's own, with the reason people read. */
class PreviewFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export async function makePreview(input: PreviewInput): Promise<PreviewOutcome> {
  try {
    const source = await decodable(input);
    return { state: 'ready', ...(await thumbnails(source)) };
  } catch (error) {
    // More of a PDF than a first page may take is the file's doing; the storage failing under a read
    // is not, so that is thrown (tried again later).
    if (error instanceof RangeReadFailure) {
      if (error.refused) return { state: 'failed', reason: `its first page needs more than ${PDF_READ_BYTES / 1024 / 1024} MiB of the file` };
      throw error;
    }
    if (error instanceof PreviewFailure) return { state: 'failed', reason: error.reason };
    return { state: 'failed', reason: readError(input.kind) };
  }
}

const readError = (kind: PreviewInput['kind']) =>
  kind === 'pdf' ? 'the PDF is damaged: its first page cannot be drawn' : 'the picture is damaged or in a format that cannot be read';

/** What sharp is given: the file itself (its header checked first), raw pixels of a HEIC, a PDF's first page as PNG. */
async function decodable(input: PreviewInput): Promise<Sharp> {
  // The HEIC decoder and pdfjs are loaded by the worker when a file needs them: most previews are of pictures sharp reads.
  if (input.kind === 'heic') {
    const { default: decodeHeic } = await import('heic-decode');
    const [image] = await decodeHeic.all({ buffer: input.bytes }).catch(() => {
      throw new PreviewFailure(readError('heic'));
    });
    if (!image) throw new PreviewFailure(readError('heic'));
    // The size is in the file's header: refused before a pixel is decoded.
    if (image.width * image.height > MAX_PICTURE_PIXELS) throw new PreviewFailure(new PictureTooLarge(image.width, image.height).message);
    const { width, height, data } = await image.decode();
    return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } });
  }
  if (input.kind === 'pdf') return sharp(await firstPage(input.size, input.port));
  return openPicture(input.bytes).catch((error: unknown) => {
    throw new PreviewFailure(error instanceof PictureTooLarge ? error.message : readError('image'));
  });
}

async function firstPage(size: number, port: MessagePort): Promise<Buffer> {
  const { renderPage, withPdfByRanges } = await import('../../lib/pdf-pages.ts');
  const reader = rangeReader(port);
  try {
    return await withPdfByRanges(size, reader.read, PDF_IMAGE_PIXELS, async (doc) => {
      const page = await doc.getPage(1);
      try {
        return await renderPage(doc, page, PDF_SIDE, 2);
      } finally {
        page.cleanup();
      }
    });
  } catch (error) {
    if (error instanceof RangeReadFailure) throw error;
    throw new PreviewFailure((error as Error).name === 'PasswordException' ? 'the PDF is protected by a password' : readError('pdf'));
  } finally {
    reader.close();
  }
}

/** The two WebP sizes (fit inside, never enlarged) and a ThumbHash of the smaller. */
async function thumbnails(source: Sharp): Promise<{ previews: MadePreview[]; placeholder: string }> {
  const fit = (side: number) => ({ width: side, height: side, fit: 'inside' as const, withoutEnlargement: true });
  const large = await source.resize(fit(1024)).webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
  // The small one from the large: a 12 MP photo is decoded once.
  const small = await sharp(large.data).resize(fit(256)).webp({ quality: 75 }).toBuffer({ resolveWithObject: true });
  const tiny = await sharp(small.data).resize(fit(100)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const hash = rgbaToThumbHash(tiny.info.width, tiny.info.height, tiny.data);
  const made = (kind: PreviewKind, out: { data: Buffer; info: OutputInfo }): MadePreview => ({
    kind,
    bytes: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength),
    width: out.info.width,
    height: out.info.height,
  });
  return { previews: [made('thumb-256', small), made('thumb-1024', large)], placeholder: Buffer.from(hash).toString('base64') };
}
