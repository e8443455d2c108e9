import { readFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { TaskError, WorkerPool } from '../../infra/workers/pool.ts';
import { serveRanges, type ReadRange } from '../../lib/range-port.ts';
import { bigPdf } from '../../testing/big-pdf.ts';
import type { PreviewInput, PreviewOutcome } from './preview-task.ts';
import { sourceKindOf } from './source-kind.ts';
import { animatedGif, pngOf, rotatedJpeg, simplePdf } from '../../testing/test-images.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const TASK = new URL('./preview-task.ts', import.meta.url);

// The generators run as Cabinet runs them: in a worker of a pool with memory and time limits, with
// the memory the server gives previews by default (PREVIEW_MEMORY_MB). The limit watches the whole
// process's resident memory: with half of it, the 30 MiB PDF below went past it now and then.
const pool = new WorkerPool({ threads: 1, queue: 4, memoryMb: 1024, timeoutMs: 60_000, env: {} });
afterAll(() => pool.close());
const make = (input: PreviewInput) => pool.run<PreviewOutcome>(TASK, 'makePreview', input);

/** A PDF's preview made as Cabinet makes it: the worker asks for ranges, which `read` answers (the bytes by default). Counts what was read. */
async function makeFromPdf(bytes: Buffer, o: { maxBytes?: number; read?: ReadRange } = {}) {
  const { port1, port2 } = new MessageChannel();
  let read = 0;
  serveRanges(port1, bytes.length, o.read ?? (async (begin, end) => ((read += end - begin), bytes.subarray(begin, end))), o.maxBytes ?? bytes.length);
  try {
    return { outcome: await pool.run<PreviewOutcome>(TASK, 'makePreview', { kind: 'pdf', size: bytes.length, port: port2 }, [port2]), read };
  } finally {
    port1.close();
  }
}

async function sizesOf(outcome: PreviewOutcome) {
  expect(outcome.state).toBe('ready');
  if (outcome.state !== 'ready') throw new Error('not ready');
  return Promise.all(
    outcome.previews.map(async (p) => {
      const meta = await sharp(p.bytes).metadata();
      expect(meta.format).toBe('webp');
      expect([meta.width, meta.height]).toEqual([p.width, p.height]);
      return { kind: p.kind, width: p.width, height: p.height, bytes: p.bytes };
    }),
  );
}

describe('preview generators', () => {
  it('turns a JPEG as its EXIF orientation says, in two WebP sizes that fit inside, never enlarged, with a placeholder of its aspect', async () => {
    const outcome = await make({ kind: 'image', bytes: await rotatedJpeg() });
    const [small, large] = await sizesOf(outcome);
    expect(large).toMatchObject({ kind: 'thumb-1024', width: 100, height: 200 });
    expect(small).toMatchObject({ kind: 'thumb-256', width: 100, height: 200 });
    // Turned clockwise: the red half (left) is now on top.
    const { data } = await sharp(large!.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[2]).toBeLessThan(100);
    const hash = Buffer.from((outcome as { placeholder: string }).placeholder, 'base64');
    // Portrait, as the picture is shown (a ThumbHash keeps the aspect roughly).
    expect(thumbHashToApproximateAspectRatio(hash)).toBeGreaterThan(0.4);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeLessThan(0.7);
  });

  it('scales a large picture to 1024 and 256 pixels on its longer side', async () => {
    const bytes = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const [small, large] = await sizesOf(await make({ kind: 'image', bytes }));
    expect([large!.width, large!.height]).toEqual([1024, 683]);
    expect([small!.width, small!.height]).toEqual([256, 171]);
  });

  it('takes the first frame of an animated GIF', async () => {
    const [, large] = await sizesOf(await make({ kind: 'image', bytes: await animatedGif() }));
    expect([large!.width, large!.height]).toEqual([60, 40]);
    expect((await sharp(large!.bytes).metadata()).pages ?? 1).toBe(1);
  });

  it('refuses a PNG decompression bomb and a 30,000 × 30,000 header by their size, before decoding', async () => {
    const bomb = pngOf(12_000, 12_000, 12_000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // 144 MB of pixels were never decoded: the process's memory (the workers' included) barely moves.
    const rss = process.memoryUsage.rss();
    expect(await make({ kind: 'image', bytes: bomb })).toEqual({ state: 'failed', reason: 'the picture is larger than 100 megapixels (12000 × 12000)' });
    expect(await make({ kind: 'image', bytes: pngOf(30_000, 30_000, 1) })).toEqual({
      state: 'failed',
      reason: 'the picture is larger than 100 megapixels (30000 × 30000)',
    });
    expect(process.memoryUsage.rss() - rss).toBeLessThan(100 * 1024 * 1024);
  });

  it('fails a damaged picture with a reason', async () => {
    const jpeg = await rotatedJpeg();
    expect(await make({ kind: 'image', bytes: jpeg.subarray(0, 200) })).toEqual({
      state: 'failed',
      reason: 'the picture is damaged or in a format that cannot be read',
    });
  });

  it('decodes a HEIC (which libvips cannot) and refuses a 200 MP one by its header', async () => {
    const [, large] = await sizesOf(await make({ kind: 'heic', bytes: fixture('tiny.heic') }));
    expect([large!.width, large!.height]).toEqual([64, 48]);
    expect(await make({ kind: 'heic', bytes: fixture('huge-header.heic') })).toEqual({
      state: 'failed',
      reason: 'the picture is larger than 100 megapixels (20000 × 10000)',
    });
  });

  it("draws a PDF's first page, and fails a damaged one", async () => {
    const [, large] = await sizesOf((await makeFromPdf(simplePdf(300, 400))).outcome);
    // Drawn at most twice its size: 600 × 800.
    expect([large!.width, large!.height]).toEqual([600, 800]);
    expect((await makeFromPdf(Buffer.from('%PDF-1.7\nthis is not a PDF at all'))).outcome).toEqual({
      state: 'failed',
      reason: 'the PDF is damaged: its first page cannot be drawn',
    });
  });

  it('reads a large PDF by ranges, only what its first page needs; more than the limit fails it, and a storage failure is thrown to be tried again', async () => {
    // 30 pages over a picture of 1 MiB each: 30 MiB, of which page 1 needs its picture and each page's dictionary.
    const pdf = Buffer.concat(bigPdf(30, 1024 * 1024).chunks);
    const { outcome, read } = await makeFromPdf(pdf);
    const [, large] = await sizesOf(outcome);
    expect([large!.width, large!.height]).toEqual([792, 1024]);
    expect(read).toBeLessThan(4 * 1024 * 1024);
    expect((await makeFromPdf(pdf, { maxBytes: 512 * 1024 })).outcome).toEqual({
      state: 'failed',
      reason: 'its first page needs more than 64 MiB of the file',
    });
    const failing = makeFromPdf(pdf, { read: () => Promise.reject(new Error('storage gone')) });
    await expect(failing).rejects.toBeInstanceOf(TaskError);
    await expect(failing).rejects.toMatchObject({ errorName: 'RangeReadFailure', message: 'storage gone' });
  });

  it('tells kinds by their bytes, not their names', async () => {
    expect(sourceKindOf(await rotatedJpeg())).toBe('image');
    expect(sourceKindOf(pngOf(10, 10))).toBe('image');
    expect(sourceKindOf(fixture('tiny.heic'))).toBe('heic');
    expect(sourceKindOf(simplePdf())).toBe('pdf');
    expect(sourceKindOf(Buffer.from('just some text, named photo.png'))).toBeNull();
    expect(sourceKindOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull();
  });
});
