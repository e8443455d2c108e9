import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { BoundedZip } from './zip.ts';

const MiB = 1024 * 1024;

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
    const bounded = await BoundedZip.open(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }), 2 * MiB, 'a test file');
    expect(() => bounded.checkDeclared()).toThrow(/unpacks to more than 2 MiB/);
  });

  it('stops a part whose directory lies about its size once what it unpacks passes the limit', async () => {
    const bounded = await BoundedZip.open(await lyingZip(8), 2 * MiB, 'a test file');
    expect(() => bounded.checkDeclared()).not.toThrow();
    let unpacked = 0;
    await expect(bounded.read('content.xml', (chunk) => (unpacked += chunk.length))).rejects.toMatchObject({
      code: 'unsupported_media_type',
      details: { reason: 'too_complex' },
    });
    expect(unpacked).toBeLessThanOrEqual(2 * MiB);
  });

  it('answers damaged for what is not a zip', async () => {
    await expect(BoundedZip.open(new Uint8Array([1, 2, 3]), MiB, 'a test file')).rejects.toMatchObject({ details: { reason: 'damaged' } });
    await expect(BoundedZip.open(new Uint8Array([0x50, 0x4b, 3, 4, 9, 9, 9]), MiB, 'a test file')).rejects.toMatchObject({ details: { reason: 'damaged' } });
  });
});
