import type { Readable } from 'node:stream';
import JSZip from 'jszip';
import { MAX_UNPACKED_BYTES } from './limits.ts';
import { ExtractFailure } from './text-sink.ts';

/**
 * jszip keeps each entry's sizes from the zip's central directory here (its types do not say so),
 * read as signed 32-bit numbers: 2 GiB and more come out negative.
 */
type WithDeclaredSize = JSZip.JSZipObject & { _data?: { uncompressedSize?: unknown } };

const MiB = 1024 * 1024;
const damaged = () => new ExtractFailure('It is damaged: its contents cannot be unpacked.');
const tooLarge = () => new ExtractFailure(`It unpacks to more than ${MAX_UNPACKED_BYTES / MiB} MiB of content, more than is read.`);

/**
 * An office file's zip, read within MAX_UNPACKED_BYTES: the parts a reader will read are refused
 * at once when their declared sizes add up past it, and every part read is counted as it unpacks,
 * so a directory that lies about its sizes stops there too. Nothing unpacked is kept unless asked.
 */
export class OfficeZip {
  private unpacked = 0;

  private constructor(private readonly zip: JSZip) {}

  /** Opens a zip: its central directory only, nothing is unpacked. */
  static async open(bytes: Uint8Array): Promise<OfficeZip> {
    try {
      return new OfficeZip(await JSZip.loadAsync(bytes));
    } catch {
      throw damaged();
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
  checkDeclared(names: string[]): void {
    let declared = 0;
    for (const name of names) {
      const size = (this.zip.files[name] as WithDeclaredSize | undefined)?._data?.uncompressedSize;
      if (typeof size === 'number') declared += size < 0 ? Infinity : size;
    }
    if (declared > MAX_UNPACKED_BYTES) throw tooLarge();
  }

  /**
   * A part's text, decoded a chunk at a time as it unpacks; `stop` ends the read early (the text is full).
   * What `onText` throws ends the read and is thrown.
   */
  async read(name: string, onText: (text: string) => void, stop: () => boolean = () => false): Promise<void> {
    const file = this.zip.files[name];
    if (!file || file.dir) return;
    const decoder = new TextDecoder('utf-8');
    await new Promise<void>((resolve, reject) => {
      const stream = file.nodeStream('nodebuffer') as Readable;
      let done = false;
      const end = (error?: unknown) => {
        done = true;
        stream.destroy();
        if (error) reject(error);
        else resolve();
      };
      stream
        .on('data', (chunk: Buffer) => {
          if (done) return;
          this.unpacked += chunk.length;
          if (this.unpacked > MAX_UNPACKED_BYTES) return end(tooLarge());
          try {
            onText(decoder.decode(chunk, { stream: true }));
          } catch (error) {
            return end(error);
          }
          if (stop()) end();
        })
        .on('error', () => end(damaged()))
        .on('end', () => end());
    });
  }

  /** A whole part as a string (for small parts: relationships, manifests). */
  async text(name: string): Promise<string | undefined> {
    if (!this.has(name)) return undefined;
    const parts: string[] = [];
    await this.read(name, (text) => parts.push(text));
    return parts.join('');
  }
}
