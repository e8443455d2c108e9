import { PREVIEW_LIMITS, PREVIEW_PICTURE_SRC, type PreviewKind, type TPreviewHtml } from '@cabinet/contracts';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../infra/workers/pool.ts';
import { openPicture, PictureTooLarge } from '../../../lib/pictures.ts';
import { picturesDocx, picturesOdt, type FilePicture } from '../../../testing/preview-files.ts';
import { animatedGif, pngOf, twoColours } from '../../../testing/test-images.ts';

const TASK = new URL('./document.ts', import.meta.url);

// Documents are shown as Cabinet shows them: converted in a worker of a pool with memory and time limits.
const pool = new WorkerPool({ threads: 1, queue: 4, memoryMb: 768, timeoutMs: 60_000, env: {} });
afterAll(() => pool.close());
const preview = (kind: PreviewKind, bytes: Uint8Array) => pool.run<TPreviewHtml>(TASK, 'documentPreview', { kind, bytes });

/** The pictures of a preview's HTML: each one's attributes, and its WebP's size and metadata. */
async function picturesOf(html: string) {
  const tags = [...html.matchAll(/<img([^>]*)>/g)].map((m) => m[1]!);
  return Promise.all(
    tags.map(async (attrs) => {
      const names = [...attrs.matchAll(/\s([a-z-]+)="/g)].map((m) => m[1]);
      const src = /\ssrc="([^"]*)"/.exec(attrs)![1]!;
      const alt = /\salt="([^"]*)"/.exec(attrs)?.[1];
      expect(src).toMatch(PREVIEW_PICTURE_SRC);
      const meta = await sharp(Buffer.from(src.slice(src.indexOf(',') + 1), 'base64')).metadata();
      return { names, alt, format: meta.format, width: meta.width, height: meta.height, exif: meta.exif, pages: meta.pages ?? 1 };
    }),
  );
}

const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><rect width="10" height="10"/></svg>');
const png = () => twoColours(40, 30).png().toBuffer();

describe('pictures of Word and OpenDocument files', () => {
  it('shows the PNG and JPEG pictures of a Word file made into WebP, at most 1600 pixels long, with their descriptions and nothing else of them', async () => {
    const jpeg = await twoColours(3200, 2000)
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret maker', ImageDescription: '<script>alert(1)</script>' } } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const out = await preview(
      'docx',
      await picturesDocx([
        { name: 'chart.png', bytes: await png(), alt: 'Sales by region' },
        { name: 'photo.jpeg', bytes: jpeg, alt: 'The team "on site" & <friends>' },
      ]),
    );
    expect(out.truncated).toBe(false);
    expect(out.html).toMatch(/^<p>Before the pictures\.<\/p><p><img [^>]+><\/p><p><img [^>]+><\/p><p>After the pictures\.<\/p>$/);
    expect(out.html).toContain('alt="The team &quot;on site&quot; &amp; &lt;friends&gt;"');
    expect(out.html).not.toContain('[Picture');
    expect(await picturesOf(out.html)).toEqual([
      { names: ['src', 'alt'], alt: 'Sales by region', format: 'webp', width: 40, height: 30, exif: undefined, pages: 1 },
      {
        names: ['src', 'alt'],
        alt: 'The team &quot;on site&quot; &amp; &lt;friends&gt;',
        format: 'webp',
        width: 1600,
        height: 1000,
        exif: undefined,
        pages: 1,
      },
    ]);
  });

  it('shows the first frame of an animated GIF', async () => {
    const out = await preview('docx', await picturesDocx([{ name: 'moving.gif', bytes: await animatedGif(), alt: 'Moving' }]));
    expect(await picturesOf(out.html)).toMatchObject([{ alt: 'Moving', format: 'webp', width: 60, height: 40, pages: 1 }]);
  });

  it('shows the picture of an OpenDocument text with its frame’s description, which is not shown as text', async () => {
    const out = await preview('odt', await picturesOdt([{ name: 'map.png', bytes: await png(), alt: 'Map of the ridge' }]));
    expect(out.truncated).toBe(false);
    expect(await picturesOf(out.html)).toMatchObject([{ names: ['src', 'alt'], alt: 'Map of the ridge', format: 'webp', width: 40, height: 30 }]);
    expect(out.html).toMatch(/^<p>Before the pictures\.<\/p><p><img [^>]+><\/p><p>After the pictures\.<\/p>$/);
    expect(out.html).not.toContain('Title of');
  });

  it('leaves SVG, linked and unreadable pictures as their description, and reads no linked one', async () => {
    const pictures: FilePicture[] = [
      { name: 'drawing.svg', bytes: svg, alt: 'A drawing' },
      { url: 'https://tracker.example/pixel.png', alt: 'Tracked' },
      { name: 'broken.png', bytes: (await png()).subarray(0, 60), alt: 'Broken' },
      { name: 'notes.png', bytes: Buffer.from('just text named as a picture'), alt: 'Not a picture' },
    ];
    for (const [kind, file] of [
      ['docx', await picturesDocx(pictures)],
      ['odt', await picturesOdt(pictures)],
    ] as const) {
      const out = await preview(kind, file);
      expect(out.html, kind).not.toContain('<img');
      expect(out.html, kind).not.toMatch(/svg|onload|tracker\.example|data:/);
      for (const alt of ['A drawing', 'Tracked', 'Broken', 'Not a picture']) expect(out.html, kind).toContain(`<em>[Picture: ${alt}]</em>`);
      expect(out.truncated, kind).toBe(false);
    }
  });

  it('refuses a picture larger than 100 megapixels by its header, before decoding it: it stays its description', async () => {
    // 20,000 × 20,000 grey pixels (400 MB unpacked) in a few hundred KB: a decompression bomb.
    const bomb = pngOf(20_000, 20_000, 20_000);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    await expect(openPicture(bomb)).rejects.toBeInstanceOf(PictureTooLarge);
    const started = Date.now();
    const out = await preview(
      'docx',
      await picturesDocx([
        { name: 'bomb.png', bytes: bomb, alt: 'Huge' },
        { name: 'fine.png', bytes: await png(), alt: 'Fine' },
      ]),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(out.html).toContain('<em>[Picture: Huge]</em>');
    expect(await picturesOf(out.html)).toMatchObject([{ alt: 'Fine', width: 40 }]);
  });

  it('shows at most 50 pictures, and says the preview is cut', async () => {
    const bytes = await twoColours(8, 8).png().toBuffer();
    const many = Array.from({ length: PREVIEW_LIMITS.pictures + 2 }, (_, i) => ({ name: `p${i}.png`, bytes, alt: `Picture ${i}` }));
    const out = await preview('docx', await picturesDocx(many));
    expect(out.truncated).toBe(true);
    const shown = await picturesOf(out.html);
    expect(shown).toHaveLength(PREVIEW_LIMITS.pictures);
    expect(shown.at(-1)!.alt).toBe(`Picture ${PREVIEW_LIMITS.pictures - 1}`);
    expect(out.html).toContain(`<em>[Picture: Picture ${PREVIEW_LIMITS.pictures}]</em>`);
    expect(out.html).toContain(`<em>[Picture: Picture ${PREVIEW_LIMITS.pictures + 1}]</em>`);
    expect(out.html).toContain('After the pictures.');
  });

  it('shows pictures up to 8 MiB of WebP in all, and says the preview is cut', async () => {
    // Noise does not compress: each of these is a few MB of WebP, and one part of the file is shown six times.
    const noise = await sharp(randomBytes(1600 * 1600 * 3), { raw: { width: 1600, height: 1600, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const out = await preview('docx', await picturesDocx(Array.from({ length: 6 }, (_, i) => ({ name: 'noise.jpeg', bytes: noise, alt: `Noise ${i}` }))));
    expect(out.truncated).toBe(true);
    const shown = await picturesOf(out.html);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(6);
    const data = [...out.html.matchAll(/src="data:image\/webp;base64,([^"]+)"/g)].reduce((n, m) => n + Buffer.from(m[1]!, 'base64').length, 0);
    expect(data).toBeLessThanOrEqual(PREVIEW_LIMITS.pictureBytes);
    expect(out.html).toContain('<em>[Picture: Noise 5]</em>');
  });
});
