import { isRasterPicture } from '../../lib/pictures.ts';

/**
 * What a file is, by its first bytes — never by its name or declared type, which can lie (PNG bytes
 * named .pdf are previewed as a picture; text named .png has no preview).
 *
 * - `image`: what sharp reads itself (JPEG, PNG, GIF, WebP, TIFF, AVIF);
 * - `heic`: HEIC/HEIF, decoded in the worker with libheif (sharp's libvips reads no HEVC);
 * - `pdf`: its first page drawn with pdfjs;
 * - `video`: a frame taken with ffmpeg, when installed;
 * - null: no preview (`unsupported`).
 */
export type SourceKind = 'image' | 'heic' | 'pdf' | 'video';

/** Bytes of a file's head enough to tell its kind. */
export const SIGNATURE_BYTES = 256;

/**
 * A PDF's first page is drawn from at most this much of its file (pages' dictionaries and what page 1 shows). Here, not
 * beside the drawing (preview-task.ts), because the server's own thread reads it: the drawing's module loads pdfjs,
 * whose legacy build replaces JSON.stringify, JSON.parse and Array.prototype.push with polyfills wherever it is loaded.
 */
export const PDF_READ_BYTES = 64 * 1024 * 1024;

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const at = (bytes: Uint8Array, offset: number, want: number[]) => want.every((b, i) => bytes[offset + i] === b);
const text = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** ISO base media brands (the `ftyp` box): HEIF stills, AVIF, and the video ones. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

export function sourceKindOf(bytes: Uint8Array): SourceKind | null {
  if (isRasterPicture(bytes)) return 'image';
  if (at(bytes, 0, ascii('%PDF-'))) return 'pdf';
  if (at(bytes, 4, ascii('ftyp')) && bytes.length >= 12) {
    const major = text(bytes, 8, 12);
    // Compatible brands follow the minor version, to the end of the box (or of what was read).
    const boxEnd = Math.min(bytes.length, (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!);
    const brands = [major];
    for (let i = 16; i + 4 <= boxEnd; i += 4) brands.push(text(bytes, i, i + 4));
    if (AVIF_BRANDS.has(major)) return 'image';
    if (HEIC_BRANDS.has(major)) return 'heic';
    if (brands.some((b) => AVIF_BRANDS.has(b))) return 'image';
    if (brands.some((b) => HEIC_BRANDS.has(b))) return 'heic';
    return 'video';
  }
  // Matroska / WebM (EBML), AVI, MPEG transport and program streams, Ogg (may be audio alone: ffmpeg finds no frame).
  if (at(bytes, 0, [0x1a, 0x45, 0xdf, 0xa3])) return 'video';
  if (at(bytes, 0, ascii('RIFF')) && at(bytes, 8, ascii('AVI '))) return 'video';
  if (at(bytes, 0, [0x00, 0x00, 0x01, 0xba]) || (bytes[0] === 0x47 && bytes[188] === 0x47)) return 'video';
  if (at(bytes, 0, ascii('OggS'))) return 'video';
  return null;
}
