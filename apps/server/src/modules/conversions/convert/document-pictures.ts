import { PREVIEW_LIMITS } from '@cabinet/contracts';
import { isRasterPicture, openPicture } from '../../../lib/pictures.ts';

/** A picture's longer side in a preview at most: the column's width on a screen of twice the density. */
export const PICTURE_SIDE = 1600;

/**
 * A picture whose bytes are not read (linked, or of a part the file does not have): its place in
 * the HTML a reader writes, which no picture answers, so it is shown as its description.
 */
export const UNREAD_PICTURE = '/picture';

/** Reads a picture's bytes from the file: undefined when the file does not hold them (a linked picture). */
type ReadPicture = () => Promise<Uint8Array | undefined>;

/**
 * The pictures a document file holds, for its preview. A reader of the file registers each one as
 * it meets it (`add`), and writes the place it answers (`/picture/N`) as the picture's `src`; the
 * schema keeps that address as any path of Cabinet's. Once the document is read, `embed` reads
 * the pictures it kept, in its order, and makes each into a WebP (see ADR 0039).
 */
export class DocumentPictures {
  private readonly reads: ReadPicture[] = [];

  add(read: ReadPicture): string {
    this.reads.push(read);
    return `/picture/${this.reads.length - 1}`;
  }

  /**
   * The pictures at `places` (in the document's order) as `data:image/webp;base64,…` by place.
   * A picture that is not in the file, not a raster picture sharp reads (SVG, EMF, WMF…), larger
   * than `MAX_PICTURE_PIXELS` by its header, or damaged is left out. At most
   * `PREVIEW_LIMITS.pictures` are read and `PREVIEW_LIMITS.pictureBytes` of WebP made; past
   * either, or past what the file may unpack to, the rest are left out and `cut` says so.
   */
  async embed(places: string[]): Promise<{ pictures: Map<string, string>; cut: boolean }> {
    const pictures = new Map<string, string>();
    let read = 0;
    let bytes = 0;
    for (const place of places) {
      const index = /^\/picture\/(\d+)$/.exec(place)?.[1];
      const readPicture = index === undefined ? undefined : this.reads[Number(index)];
      if (!readPicture) continue;
      if (read === PREVIEW_LIMITS.pictures) return { pictures, cut: true };
      let source;
      try {
        source = await readPicture();
      } catch {
        // Past what the file may unpack to: no picture after this one is read.
        return { pictures, cut: true };
      }
      if (!source) continue;
      read++;
      const webp = await asWebp(source);
      if (!webp) continue;
      if (bytes + webp.length > PREVIEW_LIMITS.pictureBytes) return { pictures, cut: true };
      bytes += webp.length;
      pictures.set(place, `data:image/webp;base64,${webp.toString('base64')}`);
    }
    return { pictures, cut: false };
  }
}

/**
 * A picture decoded and encoded again as WebP, at most `PICTURE_SIDE` on its longer side: nothing
 * of the file's bytes (its metadata, another format's tricks) reaches the page. Undefined for what
 * is not shown.
 */
async function asWebp(bytes: Uint8Array): Promise<Buffer | undefined> {
  if (!isRasterPicture(bytes)) return undefined;
  try {
    const picture = await openPicture(bytes);
    return await picture.resize({ width: PICTURE_SIDE, height: PICTURE_SIDE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 }).toBuffer();
  } catch {
    return undefined;
  }
}
