import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { uploadsApi } from '@cabinet/contracts';
import { putParts, sha256Hex, type Person } from '../apps/server/src/testing/given.ts';
import { makeDuePreviews } from '../apps/server/src/modules/previews/previews.service.ts';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';

const COUNT = Number(process.env.BENCH_THUMBS_COUNT ?? 200);
const RUNS = Number(process.env.BENCH_THUMBS_RUNS ?? 3);
/** Thumbnails made at once, by Cabinet's pool and by the baseline alike. */
const CONCURRENCY = 2;

/** 12 MP photos (4000 × 3000 JPEG: a gradient, a disc and some grain), made once and kept in a temporary folder. */
async function photos(): Promise<string[]> {
  const dir = path.join(os.tmpdir(), `cabinet-bench-thumbnails-${COUNT}`);
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const file = path.join(dir, `photo-${i}.jpg`);
    files.push(file);
    if (existsSync(file)) continue;
    const hue = (i * 37) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000">
      <defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,35%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},70%,75%)"/></linearGradient></defs>
      <rect width="4000" height="3000" fill="url(#g)"/><circle cx="${1000 + ((i * 131) % 2000)}" cy="1500" r="700" fill="hsl(${(hue + 200) % 360},80%,60%)"/></svg>`;
    const grain = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
      .raw()
      .toBuffer();
    const image = await sharp(Buffer.from(svg))
      .composite([{ input: grain, raw: { width: 4000, height: 3000, channels: 3 }, blend: 'overlay' }])
      .jpeg({ quality: 85 })
      .toBuffer();
    writeFileSync(file, image);
  }
  return files;
}

/** The baseline: sharp alone, the same two WebP sizes and placeholder of the same photos (from disk), at the same concurrency. */
async function sharpAlone(files: string[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  const fit = (side: number) => ({ width: side, height: side, fit: 'inside' as const, withoutEnlargement: true });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < files.length) {
        const bytes = readFileSync(files[next++]!);
        const large = await sharp(bytes, { sequentialRead: true }).rotate().resize(fit(1024)).webp({ quality: 80 }).toBuffer();
        const small = await sharp(large).resize(fit(256)).webp({ quality: 75 }).toBuffer();
        // The placeholder Cabinet keeps with them (a ThumbHash of at most 100 px).
        const tiny = await sharp(small).resize(fit(100)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        rgbaToThumbHash(tiny.info.width, tiny.info.height, tiny.data);
      }
    }),
  );
  return (2 * files.length) / ((performance.now() - started) / 1000);
}

/**
 * thumbnails: 200 photos of 12 MP, thumbnails (256 and 1024 px WebP) per second through Cabinet's
 * job path — claim, read the bytes from storage, decode in the previewers' worker pool (with its
 * limits; a ThumbHash too), write both to storage, mark them ready and announce them — against
 * sharp alone making the same two sizes and ThumbHash of the same photos at the same concurrency (ADR 0026).
 */
export default async function thumbnails() {
  const files = await photos();
  sharp.concurrency(1);
  const app = await startBenchApp({ PREVIEW_THREADS: String(CONCURRENCY) });
  const { ctx } = app.t;
  try {
    const person = { call: app.call } as Person;
    for (const [i, file] of files.entries()) {
      const bytes = readFileSync(file);
      const start = await app.call(uploadsApi.start, {
        params: { ws: app.workspace.id },
        body: { parentId: app.workspace.homeId, name: `photo-${i}.jpg`, size: bytes.length, sha256: sha256Hex(bytes) },
      });
      await putParts(person, start.body, bytes);
      await app.call(uploadsApi.complete, { params: { id: start.body.id }, body: {} });
    }
    // The uploads woke the reader: let it finish, then time passes over every photo afresh (nothing wakes it then).
    const left = () =>
      ctx.db
        .selectFrom('previews')
        .select('sha256')
        .where((eb) => eb.or([eb('state', '=', 'pending'), eb('locked_until', 'is not', null)]))
        .execute();
    // What a pass postponed is the catch-up job's in the app; here the bench takes it up at once.
    for (let waited = 0; (await left()).length > 0; waited += 200) {
      if (waited > 300_000) throw new Error('the previews of the uploads were not made within 5 minutes');
      await ctx.db
        .updateTable('previews')
        .set({ run_after: new Date(0) })
        .where('state', '=', 'pending')
        .execute();
      await makeDuePreviews(ctx);
      await new Promise((r) => setTimeout(r, 200));
    }
    const values: number[] = [];
    const baselines: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await ctx.db
        .updateTable('previews')
        .set({ state: 'pending', attempts: 0, locked_until: null, run_after: new Date(0) })
        .execute();
      const started = performance.now();
      await makeDuePreviews(ctx);
      // A catch-up pass of the app's own may hold some of them: done when none is left.
      while ((await left()).length > 0) await new Promise((r) => setTimeout(r, 20));
      const ready = await ctx.db
        .selectFrom('previews')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('state', '=', 'ready')
        .executeTakeFirstOrThrow();
      if (Number(ready.n) !== 2 * files.length) {
        const states = await ctx.db.selectFrom('previews').select(['kind', 'state', 'error', 'attempts']).execute();
        throw new Error(`only ${ready.n} of ${2 * files.length} thumbnails were made: ${JSON.stringify(states)}`);
      }
      values.push((2 * files.length) / ((performance.now() - started) / 1000));
      baselines.push(await sharpAlone(files));
    }
    report(`thumbnails (${files.length} photos of 12 MP, ${CONCURRENCY} at once)`, '/s', values, baselines);
  } finally {
    await app.close();
  }
}
