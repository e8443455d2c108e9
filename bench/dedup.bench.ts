import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, linkSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverProcess } from '../apps/server/src/testing/server-process.ts';
import { launchChromium, signInThroughPages } from './browser.ts';
import { report } from './report.ts';
import { GiB, syntheticFile, uploadThroughCabinet } from './transfer.ts';

const SIZE = Number(process.env.BENCH_DEDUP_BYTES ?? GiB);
const RUNS = 3;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HASH_WASM = path.join(root, 'node_modules/hash-wasm/dist/sha256.umd.min.js');
/** In the blank page (as text: this file is compiled without the DOM's types): the chosen file's SHA-256 by hash-wasm, 8 MiB at a time. */
const HASH_IN_PAGE = `(async () => {
  const f = document.getElementById('f').files[0];
  const hasher = await hashwasm.createSHA256();
  hasher.init();
  for (let at = 0; at < f.size; at += 8 * 1024 * 1024) hasher.update(new Uint8Array(await f.slice(at, at + 8 * 1024 * 1024).arrayBuffer()));
  return hasher.digest('hex');
})()`;

/**
 * dedup: a second upload of a 1 GiB file the workspace already holds, in Chromium through the
 * built app — from choosing the file until the uploads panel says nothing was sent (the file is
 * hashed in the uploader's worker, the server's challenge answered from the file, the upload
 * completed) — against hashing the same file alone in the same browser (hash-wasm's SHA-256 over
 * the same 8 MiB slices, on a blank page). The goal (issue 22): the time of hashing it, no bytes
 * sent; the benchmark fails if any part is PUT. BENCH_DEDUP_BYTES sets a smaller size for a quick check.
 */
export default async function dedup() {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) execFileSync('npm', ['run', 'build', '-w', '@cabinet/web'], { cwd: root, stdio: 'inherit' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-dedup-'));
  const filePath = path.join(dir, 'survey.bin');
  const file = syntheticFile(SIZE);
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(filePath);
    out.on('error', reject);
    for (const chunk of file.chunks) out.write(chunk);
    out.end(resolve);
  });
  const server = await serverProcess();
  const browser = await launchChromium();
  try {
    const email = 'dedup@example.com';
    const token = server.person(email, 'Dedup Bench');
    await server.start();
    const person = server.as(token);
    const workspace = (await person.raw('GET', '/workspaces')).body.items[0];
    // The workspace holds the bytes: uploaded once through the real protocol.
    await uploadThroughCabinet({ raw: person.raw, workspace }, 'survey.bin', file, SIZE);

    const context = await browser.newContext();
    const page = await context.newPage();
    await signInThroughPages(page, server.url, email);
    await page.goto(`${server.url}/w/${workspace.slug}/my`);
    await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'survey.bin' }).waitFor();
    let puts = 0;
    page.on('request', (r) => void (r.method() === 'PUT' && puts++));

    const blank = await context.newPage();
    await blank.goto('about:blank');
    await blank.addScriptTag({ path: HASH_WASM });
    await blank.evaluate(`document.body.insertAdjacentHTML('beforeend', '<input type="file" id="f">')`);

    const values: number[] = [];
    const baselines: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Baseline: the same bytes hashed alone, in the same browser, the same way (8 MiB slices).
      let start = performance.now();
      await blank.setInputFiles('#f', filePath);
      const digest = await blank.evaluate(HASH_IN_PAGE);
      baselines.push(performance.now() - start);
      if (digest !== file.sha256) throw new Error('the baseline hashed other bytes');

      // Cabinet: the same bytes chosen again under another name (a hard link), until the panel says nothing was sent.
      const again = path.join(dir, `survey-${run}.bin`);
      linkSync(filePath, again);
      start = performance.now();
      await page.getByLabel('Files to upload').setInputFiles(again);
      await page
        .getByRole('region', { name: 'Uploads' })
        .getByRole('listitem', { name: `Upload of survey-${run}.bin` })
        .getByText('Already in the workspace — nothing sent')
        .waitFor({ timeout: 600_000 });
      values.push(performance.now() - start);
    }
    report(`dedup ${(SIZE / GiB).toFixed(2)} GiB re-upload`, 'ms', values, baselines);
    if (puts) throw new Error(`${puts} parts were sent`);
  } finally {
    await browser.close();
    await server.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
