import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { PREVIEW_LIMITS } from '@cabinet/contracts';
import { serverProcess } from '../apps/server/src/testing/server-process.ts';
import { parseRange } from '../apps/server/src/infra/storage/local-routes.ts';
import { bigPdf } from '../apps/server/src/testing/big-pdf.ts';
import { launchChromium, signInThroughPages } from './browser.ts';
import { report } from './report.ts';
import { uploadThroughCabinet, MiB } from './transfer.ts';
import type { BenchApp } from './setup.ts';

const PAGES = 200;
const RUNS = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pdfjs = path.join(root, 'node_modules/pdfjs-dist/build');

/**
 * The baseline: pdf.js alone, the build the app uses, with the viewer's options (its ranges asked
 * for by fetch in chunks of the same size, nothing fetched ahead), drawing page 1 and its text
 * layer from a bare server that answers Range requests of the same file.
 */
const BARE_PAGE = `<!doctype html><meta charset="utf-8"><div id="page"><canvas></canvas><div id="text"></div></div>
<script type="module">
import { getDocument, GlobalWorkerOptions, PDFDataRangeTransport, TextLayer } from '/pdfjs/pdf.min.mjs';
GlobalWorkerOptions.workerSrc = '/pdfjs/pdf.worker.min.mjs';
const size = Number((await fetch('/file.pdf', { method: 'HEAD' })).headers.get('content-length'));
class Ranges extends PDFDataRangeTransport {
  requestDataRange(begin, end) {
    fetch('/file.pdf', { headers: { range: 'bytes=' + begin + '-' + (end - 1) } })
      .then((res) => res.arrayBuffer())
      .then((bytes) => this.onDataRange(begin, new Uint8Array(bytes)));
  }
}
const doc = await getDocument({ range: new Ranges(size, null), length: size, rangeChunkSize: ${PREVIEW_LIMITS.pdfRangeBytes}, disableAutoFetch: true, disableStream: true, isEvalSupported: false, enableXfa: false, useWasm: false }).promise;
const page = await doc.getPage(1);
const viewport = page.getViewport({ scale: 1 });
const canvas = document.querySelector('canvas');
canvas.width = viewport.width; canvas.height = viewport.height;
await page.render({ canvas, viewport }).promise;
await new TextLayer({ textContentSource: page.streamTextContent(), container: document.getElementById('text'), viewport }).render();
document.getElementById('text').dataset.drawn = '';
</script>`;

function bareServer(file: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BARE_PAGE);
    if (url.startsWith('/pdfjs/')) {
      const name = path.basename(url);
      return void res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=3600' }).end(readFileSync(path.join(pdfjs, name)));
    }
    if (url === '/file.pdf') {
      const range = parseRange(req.headers.range, file.length);
      if (range === 'unsatisfiable') return void res.writeHead(416).end();
      const { start, end } = range ?? { start: 0, end: file.length - 1 };
      res.writeHead(range ? 206 : 200, {
        'content-type': 'application/pdf',
        'accept-ranges': 'bytes',
        'content-length': String(end - start + 1),
        ...(range ? { 'content-range': `bytes ${start}-${end}/${file.length}` } : {}),
      });
      return void res.end(file.subarray(start, end + 1));
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })),
  );
}

/**
 * Runs in each page before its own script (the benchmark's files have no DOM types: the page's code is
 * text): notes the moment page 1 is drawn with its text (Cabinet's viewer marks it `data-drawn`, the
 * bare page `#text[data-drawn]`), and keeps every request's timing.
 */
const WATCH_FIRST_PAGE = `
performance.setResourceTimingBufferSize(100000);
new MutationObserver(() => {
  if (window.seenAt === undefined && document.querySelector('[data-page-picture][data-drawn], [data-page="1"][data-drawn], #text[data-drawn]')) window.seenAt = performance.now();
  if (window.drawnAt === undefined && document.querySelector('[data-page="1"][data-drawn], #text[data-drawn]')) window.drawnAt = performance.now();
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'] });`;

/** What the page's script sees of it (the benchmark's files have no DOM types). */
interface Measured {
  seenAt?: number;
  drawnAt?: number;
  performance: { getEntriesByType(type: 'resource'): { name: string; responseEnd: number; encodedBodySize: number }[] };
}

/**
 * Milliseconds from the start of navigation until page 1 is seen (Cabinet's picture of it, or the
 * page drawn) and until it is drawn with its text, as the page itself measures them, and the body
 * bytes of the requests for the PDF and the picture that had completed by the first.
 */
async function firstPage(page: Page, url: string, pdfRequest: RegExp): Promise<{ seen: number; drawn: number; bytes: number }> {
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as Measured).drawnAt !== undefined, undefined, { timeout: 120_000 });
  return page.evaluate((source) => {
    const { seenAt, drawnAt, performance } = globalThis as unknown as Required<Measured>;
    const pattern = new RegExp(source);
    const reads = performance.getEntriesByType('resource').filter((e) => pattern.test(e.name) && e.responseEnd > 0 && e.responseEnd <= seenAt);
    return { seen: seenAt, drawn: drawnAt, bytes: reads.reduce((sum, e) => sum + e.encodedBodySize, 0) };
  }, pdfRequest.source);
}

/**
 * pdf-first-page: the time from opening a 200-page PDF of about 200 MB in Cabinet's viewer until its
 * first page is seen (the picture Cabinet made of it, ADR 0040, drawn over by pdf.js) and until it is
 * drawn with its text (Chromium, the built app, the bytes by Range from local storage), and the
 * bytes fetched before it is seen; against pdf.js alone drawing page 1 with its text from a bare
 * Range server (which has no picture to show first). Goals: seen under 1 s, under 2 MB fetched.
 */
export default async function pdfFirstPage() {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) execFileSync('npm', ['run', 'build', '-w', '@cabinet/web'], { cwd: root, stdio: 'inherit' });
  const pdf = bigPdf(PAGES, MiB);
  const whole = Buffer.concat(pdf.chunks);
  const bare = await bareServer(whole);
  const server = await serverProcess();
  const browser = await launchChromium();
  try {
    const email = 'pdf-first-page@example.com';
    const token = server.person(email, 'Pdf First Page');
    await server.start();
    const as = server.as(token);
    const workspace = (await as.raw('GET', '/workspaces')).body.items[0];
    const app = { raw: as.raw, workspace } as unknown as BenchApp;
    const id = await uploadThroughCabinet(app, 'atlas.pdf', pdf, pdf.size);
    // Opened as anyone opens a PDF uploaded more than a moment ago: its first page's picture is made.
    for (let waited = 0; (await as.raw('GET', `/items/${id}`)).body.preview?.state !== 'ready'; waited += 250) {
      if (waited > 120_000) throw new Error('the PDF got no preview within 2 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }

    const page = await (await browser.newContext()).newPage();
    await signInThroughPages(page, server.url, email);
    const viewerUrl = `${server.url}/w/${workspace.slug}/file/${id}`;
    await page.addInitScript(WATCH_FIRST_PAGE);
    // Once each, so code is cached as it would be for someone who has used Cabinet before.
    const reads = /\/storage\/blob|\/thumbnail/;
    await firstPage(page, viewerUrl, reads);
    await firstPage(page, bare.url, /\/file\.pdf/);

    const seen: number[] = [];
    const drawn: number[] = [];
    const baselines: number[] = [];
    const fetched: number[] = [];
    const bareFetched: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const b = await firstPage(page, bare.url, /\/file\.pdf/);
      baselines.push(b.drawn);
      bareFetched.push(b.bytes);
      const v = await firstPage(page, viewerUrl, reads);
      seen.push(v.seen);
      drawn.push(v.drawn);
      fetched.push(v.bytes);
    }
    report(`pdf-first-page ${PAGES} pages, ${(pdf.size / MiB).toFixed(0)} MiB: page 1 seen`, 'ms', seen, baselines);
    report(`pdf-first-page bytes fetched before page 1 is seen`, 'B', fetched, bareFetched);
    report(`pdf-first-page page 1 drawn with its text`, 'ms', drawn, baselines);
  } finally {
    await browser.close();
    await server.dispose();
    bare.server.close();
  }
}
