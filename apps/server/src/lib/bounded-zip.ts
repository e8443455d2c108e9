import type { Readable } from 'node:stream';
import JSZip from 'jszip';

/** jszip keeps each entry's declared sizes here (its types do not say so), as signed 32-bit numbers: 2 GiB and more come out negative. */
type WithDeclaredSize = JSZip.JSZipObject & { _data?: { uncompressedSize?: unknown } };
/** And its bytes as they are stored, which a new zip takes as they are (jszip copies a part compressed alike without unpacking it). */
type WithCompressed = JSZip.JSZipObject & { _data: Uint8Array };

export interface ZipLimits {
  /** What the parts read may unpack to, in all. */
  maxUnpacked: number;
  /** The error for a zip that cannot be opened or unpacked. */
  damaged: () => Error;
  /** The error for a zip that unpacks (or declares it unpacks) past `maxUnpacked`. */
  tooLarge: () => Error;
  /** The error for bytes that do not begin as a zip; `damaged` when not given. */
  notZip?: () => Error;
}

/**
 * An office file's zip, read within `maxUnpacked` bytes: the parts to read are refused at once when
 * their declared sizes add up past it, and every part read is counted as it unpacks, so a zip whose
 * directory lies about its sizes stops there too (a zip bomb never unpacks past the limit). Nothing
 * unpacked is kept unless asked. The caller names the errors, in its own words.
 */
export class BoundedZip {
  private unpacked = 0;

  private constructor(
    private readonly zip: JSZip,
    private readonly limits: ZipLimits,
  ) {}

  /** Opens a zip: its central directory only, nothing is unpacked. */
  static async open(bytes: Uint8Array, limits: ZipLimits): Promise<BoundedZip> {
    if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) throw (limits.notZip ?? limits.damaged)();
    try {
      return new BoundedZip(await JSZip.loadAsync(bytes), limits);
    } catch {
      throw limits.damaged();
    }
  }

  /** Entry names, folders left out. */
  names(): string[] {
    return Object.values(this.zip.files)
      .filter((f) => !f.dir)
      .map((f) => f.name);
  }

  has(name: string): boolean {
    return !!this.zip.files[name] && !this.zip.files[name].dir;
  }

  /** Refuses parts whose declared unpacked sizes add up past the limit, before unpacking any. */
  checkDeclared(names: string[] = this.names()): void {
    let declared = 0;
    for (const name of names) {
      const size = (this.zip.files[name] as WithDeclaredSize | undefined)?._data?.uncompressedSize;
      if (typeof size === 'number') declared += size < 0 ? Infinity : size;
    }
    if (declared > this.limits.maxUnpacked) throw this.limits.tooLarge();
  }

  /**
   * A part unpacked a chunk at a time into `onChunk`, counted against the limit; `stop` ends the read
   * early. What `onChunk` throws ends the read and is thrown.
   */
  async read(name: string, onChunk: (chunk: Buffer) => void, stop: () => boolean = () => false): Promise<void> {
    const file = this.zip.files[name];
    if (!file || file.dir) return;
    await new Promise<void>((resolve, reject) => {
      const stream = file.nodeStream('nodebuffer') as Readable;
      let done = false;
      const end = (error?: unknown) => {
        if (done) return;
        done = true;
        stream.destroy();
        if (error) reject(error);
        else resolve();
      };
      stream
        .on('data', (chunk: Buffer) => {
          if (done) return;
          this.unpacked += chunk.length;
          if (this.unpacked > this.limits.maxUnpacked) return end(this.limits.tooLarge());
          try {
            onChunk(chunk);
          } catch (error) {
            return end(error);
          }
          if (stop()) end();
        })
        .on('error', () => end(this.limits.damaged()))
        .on('end', () => end());
    });
  }

  /**
   * Checks the declared sizes, then unpacks every part once, counting: after this, a reader outside
   * (mammoth, exceljs) that unpacks the same parts again holds no more than the limit.
   */
  async checkUnpacked(names: string[] = this.names()): Promise<void> {
    this.checkDeclared(names);
    for (const name of names) await this.read(name, () => {});
    this.unpacked = 0;
  }

  /**
   * A zip of the parts named, in that order: each the zip has, counted as `checkUnpacked` counts and copied still
   * compressed (no more memory than the file), and each it lacks that `made` gives, with that text. For a reader that
   * takes the parts in the order they are stored and trips when one it needs comes late or not at all (exceljs's
   * streaming reader wants the workbook and its shared strings before its sheets), given nothing it does not read.
   */
  async only(names: string[], made: Record<string, string> = {}): Promise<Buffer> {
    const parts = names.filter((name) => this.has(name) || Object.hasOwn(made, name));
    await this.checkUnpacked(parts.filter((name) => this.has(name)));
    const out = new JSZip();
    for (const name of parts) {
      if (this.has(name)) out.file(name, (this.zip.files[name] as WithCompressed)._data, { binary: true });
      else out.file(name, made[name]!);
    }
    try {
      return await out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    } catch {
      throw this.limits.damaged();
    }
  }

  /** A part's text, decoded a chunk at a time as it unpacks into `onText`; `stop` ends the read early. */
  async readText(name: string, onText: (text: string) => void, stop?: () => boolean): Promise<void> {
    const decoder = new TextDecoder('utf-8');
    await this.read(name, (chunk) => onText(decoder.decode(chunk, { stream: true })), stop);
  }

  /** A whole part as a string (for small parts: relationships, manifests). */
  async text(name: string): Promise<string | undefined> {
    if (!this.has(name)) return undefined;
    const parts: string[] = [];
    await this.readText(name, (t) => parts.push(t));
    return parts.join('');
  }
}
