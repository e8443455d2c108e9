import sharp, { type Sharp } from 'sharp';

// Decoding pictures from what users upload, in worker threads, for what shows them (thumbnails,
// the pictures of a document's preview). sharp must be loaded on the main thread before a worker
// loads it: the services whose pools run these import it.

/** Pictures with more pixels than this are not decoded (a 30,000 × 30,000 image, a bomb): 100 MP is beyond any camera's photo. */
export const MAX_PICTURE_PIXELS = 100_000_000;

/** A picture its header says is larger than `MAX_PICTURE_PIXELS`: refused before a pixel is decoded. */
export class PictureTooLarge extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`the picture is larger than ${MAX_PICTURE_PIXELS / 1_000_000} megapixels (${width} × ${height})`);
  }
}

const at = (bytes: Uint8Array, offset: number, want: number[]) => want.every((b, i) => bytes[offset + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/**
 * Whether the first bytes are those of a raster picture sharp reads itself: JPEG, PNG, GIF, WebP or
 * TIFF. Never SVG (a program's text, which sharp would also read) nor what only says it is a picture.
 */
export function isRasterPicture(bytes: Uint8Array): boolean {
  return (
    at(bytes, 0, [0xff, 0xd8, 0xff]) ||
    at(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    at(bytes, 0, ascii('GIF87a')) ||
    at(bytes, 0, ascii('GIF89a')) ||
    (at(bytes, 0, ascii('RIFF')) && at(bytes, 8, ascii('WEBP'))) ||
    at(bytes, 0, [0x49, 0x49, 0x2a, 0x00]) ||
    at(bytes, 0, [0x4d, 0x4d, 0x00, 0x2a])
  );
}

/**
 * A picture ready to decode: its size is read from its header first and refused past
 * `MAX_PICTURE_PIXELS` (`PictureTooLarge`) before a pixel is decoded; what sharp cannot read
 * rejects. The first frame of an animation, decoded as it streams, turned upright by its EXIF
 * orientation.
 */
export async function openPicture(bytes: Uint8Array): Promise<Sharp> {
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  const [width, height] = [meta.width ?? 0, meta.pageHeight ?? meta.height ?? 0];
  if (width * height > MAX_PICTURE_PIXELS) throw new PictureTooLarge(width, height);
  return sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS, sequentialRead: true, failOn: 'error' }).rotate();
}
