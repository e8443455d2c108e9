// Test inputs made on the spot (tests and the benchmark): pictures, bombs, PDFs, videos.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A picture half red (left), half blue (right). */
export function twoColours(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 220, g: 20, b: 40 } } }).composite([
    { input: { create: { width: Math.floor(width / 2), height, channels: 3, background: { r: 20, g: 40, b: 230 } } }, left: Math.ceil(width / 2), top: 0 },
  ]);
}

/** A JPEG of 200 × 100 pixels whose EXIF says to turn it a quarter clockwise (orientation 6): shown 100 × 200. */
export const rotatedJpeg = () => twoColours(200, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer();

/** An animated GIF of three 60 × 40 frames. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(
    [0, 120, 240].map((hue) =>
      sharp({ create: { width: 60, height: 40, channels: 3, background: { r: hue, g: 100, b: 255 - hue } } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: [100, 100, 100] })
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A grey PNG of `width` × `height` pixels. `rows` of them are really compressed in (all zeros:
 * a few hundred KB unpack to hundreds of MB — a decompression bomb); without `rows`, the header alone.
 */
export function pngOf(width: number, height: number, rows = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  const idat = rows > 0 ? deflateSync(Buffer.alloc(rows * (width + 1)), { level: 9 }) : Buffer.alloc(0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(rows > 0 ? [chunk('IDAT', idat)] : []),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF of `width` × `height` points with a filled rectangle, written by hand. */
export function simplePdf(width = 300, height = 400): Buffer {
  const content = `0.1 0.3 0.9 rg 20 20 ${width - 40} ${height / 2} re f`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A two-second MP4 of 320 × 240 made by ffmpeg. */
export function shortVideo(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-video-test-'));
  try {
    const file = path.join(dir, 'v.mp4');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '2', '-pix_fmt', 'yuv420p', file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
