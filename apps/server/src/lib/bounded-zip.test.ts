import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { BoundedZip, type ZipLimits } from './bounded-zip.ts';

const MiB = 1024 * 1024;

class Damaged extends Error {}
class NotZip extends Error {}
class TooLarge extends Error {}
const limits = (maxUnpacked: number, notZip = true): ZipLimits => ({
  maxUnpacked,
  damaged: () => new Damaged(),
  tooLarge: () => new TooLarge(`unpacks to more than ${maxUnpacked / MiB} MiB`),
  ...(notZip && { notZip: () => new NotZip() }),
});

/** A zip of one part of `mib` MiB whose headers (local and central) say it unpacks to 100 bytes. */
async function lyingZip(mib: number): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('content.xml', Buffer.alloc(mib * MiB, 0x20));
  const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < bytes.length - 4; at++) {
    const sig = view.getUint32(at, true);
    if (sig === 0x04034b50) view.setUint32(at + 22, 100, true);
    if (sig === 0x02014b50) view.setUint32(at + 24, 100, true);
  }
  return bytes;
}

describe('BoundedZip', () => {
  it('refuses parts whose declared sizes pass the limit before unpacking any', async () => {
    const zip = new JSZip();
    zip.file('a.xml', Buffer.alloc(3 * MiB, 0x20));
    const bounded = await BoundedZip.open(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }), limits(2 * MiB));
    expect(() => bounded.checkDeclared()).toThrow(/unpacks to more than 2 MiB/);
  });

  it('stops a part whose directory lies about its size once what it unpacks passes the limit', async () => {
    const bounded = await BoundedZip.open(await lyingZip(8), limits(2 * MiB));
    expect(() => bounded.checkDeclared()).not.toThrow();
    let unpacked = 0;
    await expect(bounded.read('content.xml', (chunk) => (unpacked += chunk.length))).rejects.toBeInstanceOf(TooLarge);
    expect(unpacked).toBeLessThanOrEqual(2 * MiB);
  });

  it('counts what is unpacked once to check it, then lets a reader outside unpack it again', async () => {
    const zip = new JSZip();
    zip.file('a.xml', Buffer.alloc(MiB + 1, 0x20));
    const bounded = await BoundedZip.open(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }), limits(2 * MiB));
    await bounded.checkUnpacked();
    expect((await bounded.text('a.xml'))?.length).toBe(MiB + 1);
    await expect((await BoundedZip.open(await lyingZip(8), limits(2 * MiB))).checkUnpacked()).rejects.toBeInstanceOf(TooLarge);
  });

  it('makes a zip of the parts named, in that order, counting them, for a reader that wants some parts before others', async () => {
    const zip = new JSZip();
    for (const name of ['sheet.xml', 'media.png', 'workbook.xml']) zip.file(name, `<${name}/>`);
    const bounded = await BoundedZip.open(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }), limits(MiB));
    const only = await JSZip.loadAsync(await bounded.only(['workbook.xml', 'missing.xml', 'strings.xml', 'sheet.xml'], { 'strings.xml': '<none/>' }));
    expect(Object.keys(only.files)).toEqual(['workbook.xml', 'strings.xml', 'sheet.xml']);
    expect(await only.file('sheet.xml')!.async('string')).toBe('<sheet.xml/>');
    expect(await only.file('strings.xml')!.async('string')).toBe('<none/>');
    await expect((await BoundedZip.open(await lyingZip(8), limits(2 * MiB))).only(['content.xml'])).rejects.toBeInstanceOf(TooLarge);
  });

  it('tells bytes that are not a zip from a damaged zip, or calls both damaged', async () => {
    await expect(BoundedZip.open(new Uint8Array([1, 2, 3]), limits(MiB))).rejects.toBeInstanceOf(NotZip);
    await expect(BoundedZip.open(new Uint8Array([1, 2, 3]), limits(MiB, false))).rejects.toBeInstanceOf(Damaged);
    await expect(BoundedZip.open(new Uint8Array([0x50, 0x4b, 3, 4, 9, 9, 9]), limits(MiB))).rejects.toBeInstanceOf(Damaged);
  });
});
