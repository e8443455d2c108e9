import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createHash, randomBytes } from 'node:crypto';
import { meApi, workspacesApi } from '@cabinet/contracts';
import { createApiToken } from '../apps/server/src/modules/tokens/tokens.service.ts';
import { untilBackgroundDone } from './metrics.ts';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';
import { GiB, syntheticFile, uploadThroughCabinet } from './transfer.ts';

const run = promisify(execFile);
const SMALL = 1000;
const SMALL_SIZE = 10 * 1024;
const TRANSFERS = 4;
const RUNS = 3;
/** Files of each way sent before anything is timed. */
const WARM_UP = 100;

/**
 * webdav: what a WebDAV client costs against the browser's own upload path, the same files at the same concurrency.
 * Through rclone (its own WebDAV client, ownCloud's dialect with modification times and SHA-1) to /dav/: 1,000 files of
 * 10 KiB in 20 folders, and one file of 1 GiB (one stream, as a WebDAV PUT is). Baseline: the same files (the same
 * bytes: as many previews to make) through the API's upload protocol in this process — start, PUT the part(s),
 * complete — 4 files at a time for the small ones, and the large one's parts one at a time (rclone sends one stream).
 * Files per second, and MiB/s. Both ways are warmed up first, and each measurement starts once the server's background
 * work (previews, search texts) left by the one before is done, so that none pays for another's.
 *
 * The small files go three ways through WebDAV. rclone 1.60 (Debian's) starts one process's WebDAV calls at least
 * 10 ms apart whatever its transfers (its pacer, ADR 0071): at three calls a file (MKCOL of the folder, the PUT, a
 * PROPFIND of the file) one process cannot pass about 33 files/s. So: one rclone with 4 transfers, as a person would
 * run it (capped by its pacer); 4 rclones of one transfer each, a quarter of the folders each — 4 files at a time, as
 * the baseline, each process paced on its own; and rclone's very calls for each file sent from this process, 4 files
 * at a time and no pacer: what Cabinet's WebDAV costs, the client aside.
 * rclone must be installed (Debian's package).
 */
export default async function webdav() {
  const app = await startBenchApp();
  const here = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-webdav-'));
  try {
    const me = (await app.call(meApi.get)).body;
    const slug = (await app.call(workspacesApi.get, { params: { ws: app.workspace.id } })).body.slug;
    const { token: password } = await createApiToken(app.t.ctx.db, me.user.id, { name: 'bench', scopes: ['dav'] });
    const small = path.join(here, 'small');
    for (let i = 0; i < SMALL; i++) {
      const folder = path.join(small, `folder ${i % 20}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, `file ${i}.bin`), randomBytes(SMALL_SIZE));
    }
    const large = path.join(here, 'large');
    mkdirSync(large);
    const big = syntheticFile(GiB);
    await pipeline(Readable.from(big.chunks), createWriteStream(path.join(large, 'large.bin')));
    const env = {
      ...process.env,
      RCLONE_CONFIG: path.join(here, 'rclone.conf'),
      RCLONE_CONFIG_CAB_TYPE: 'webdav',
      RCLONE_CONFIG_CAB_URL: `${app.t.url}/dav/${slug}/My%20files/`,
      RCLONE_CONFIG_CAB_VENDOR: 'owncloud',
      RCLONE_CONFIG_CAB_USER: me.user.email,
      RCLONE_CONFIG_CAB_PASS: (await run('rclone', ['obscure', password])).stdout.trim(),
    };
    const rclone = async (from: string, to: string, transfers = TRANSFERS, only: string[] = []) => {
      const filters = only.flatMap((f) => ['--include', `/${f}/**`]);
      await run('rclone', ['copy', from, `cab:${to}`, '--transfers', String(transfers), '--retries', '1', ...filters], { env, maxBuffer: 16 * 1024 * 1024 });
    };
    const timed = async (fn: () => Promise<unknown>) => {
      await untilBackgroundDone(app.t.url);
      const start = performance.now();
      await fn();
      return (performance.now() - start) / 1000;
    };
    // 4 rclones of one transfer each, 5 of the 20 folders each.
    const quarters = Array.from({ length: TRANSFERS }, (_, q) => Array.from({ length: 20 / TRANSFERS }, (_, k) => `folder ${q * (20 / TRANSFERS) + k}`));
    const rclones = (to: string) => Promise.all(quarters.map((folders) => rclone(small, to, 1, folders)));
    const folder = async (name: string) =>
      (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name, parentId: app.workspace.homeId })).body.id as string;
    // The baseline sends the very files rclone sends (each its own bytes: its own preview and text to index), read before timing.
    const smallFiles = Array.from({ length: SMALL }, (_, i) => {
      const bytes = readFileSync(path.join(small, `folder ${i % 20}`, `file ${i}.bin`));
      return { chunks: [bytes], sha256: createHash('sha256').update(bytes).digest('hex') };
    });
    const api = async (count: number, into: string) => {
      const folders = await Promise.all(
        Array.from({ length: 20 }, (_, i) => app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name: `folder ${i}`, parentId: into })),
      );
      const ids = folders.map((f) => f.body.id as string);
      let next = 0;
      return async () => {
        await Promise.all(
          Array.from({ length: TRANSFERS }, async () => {
            while (next < count) {
              const i = next++;
              await uploadThroughCabinet(app, `file ${i}.bin`, smallFiles[i]!, SMALL_SIZE, 1, ids[i % 20]);
            }
          }),
        );
      };
    };

    // rclone's three calls a file (vendor owncloud), without its pacer.
    const davBase = `${app.t.url}/dav/${encodeURIComponent(slug)}/My%20files`;
    const authorization = `Basic ${Buffer.from(`${me.user.email}:${password}`).toString('base64')}`;
    const sha1s = smallFiles.map((f) => createHash('sha1').update(f.chunks[0]!).digest('hex'));
    const PROPS =
      '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><d:displayname/><d:getlastmodified/>' +
      '<d:getcontentlength/><d:resourcetype/><d:getcontenttype/><oc:checksums/></d:prop></d:propfind>';
    const dav = async (method: string, where: string, init: { body?: Buffer | string; headers?: Record<string, string> } = {}) => {
      const res = await fetch(`${davBase}/${where.split('/').map(encodeURIComponent).join('/')}`, {
        method,
        headers: { authorization, ...init.headers },
        ...(init.body ? { body: init.body } : {}),
      });
      await res.arrayBuffer();
      if (res.status >= 400 && !(method === 'MKCOL' && res.status === 405)) throw new Error(`${method} ${where}: ${res.status}`);
    };
    const davCalls = async (count: number, into: string) => {
      let next = 0;
      await dav('MKCOL', into);
      await Promise.all(
        Array.from({ length: TRANSFERS }, async () => {
          while (next < count) {
            const i = next++;
            const file = `${into}/folder ${i % 20}/file ${i}.bin`;
            await dav('MKCOL', `${into}/folder ${i % 20}`);
            await dav('PUT', file, {
              body: smallFiles[i]!.chunks[0]!,
              headers: { 'content-type': 'application/octet-stream', 'x-oc-mtime': String(Math.floor(Date.now() / 1000)), 'oc-checksum': `SHA1:${sha1s[i]}` },
            });
            await dav('PROPFIND', file, { body: PROPS, headers: { depth: '0', 'content-type': 'application/xml' } });
          }
        }),
      );
    };

    await (
      await api(WARM_UP, await folder('api warm-up'))
    )();
    await davCalls(WARM_UP, 'calls warm-up');
    const smallDav: number[] = [];
    const smallDavs: number[] = [];
    const smallCalls: number[] = [];
    const smallApi: number[] = [];
    const largeDav: number[] = [];
    const largeApi: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      smallDav.push(SMALL / (await timed(() => rclone(small, `small ${r}`))));
      smallDavs.push(SMALL / (await timed(() => rclones(`small by 4 ${r}`))));
      const sendApi = await api(SMALL, await folder(`api small ${r}`));
      smallApi.push(SMALL / (await timed(sendApi)));
      smallCalls.push(SMALL / (await timed(() => davCalls(SMALL, `calls small ${r}`))));
      largeDav.push(1024 / (await timed(() => rclone(large, `large ${r}`))));
      largeApi.push(1024 / (await timed(() => uploadThroughCabinet(app, `large ${r}.bin`, big, GiB, 1))));
    }
    report(
      'webdav 1,000 files of 10 KiB through one rclone of 4 transfers (its pacer: 3 calls a file, 10 ms apart), against the upload API',
      'files/s',
      smallDav,
      smallApi,
    );
    report('webdav 1,000 files of 10 KiB through 4 rclones of one transfer each, against the upload API', 'files/s', smallDavs, smallApi);
    report('webdav 1,000 files of 10 KiB by rclone’s calls without its pacer, against the upload API', 'files/s', smallCalls, smallApi);
    report('webdav 1 GiB through rclone, against the upload API', 'MiB/s', largeDav, largeApi);
  } finally {
    rmSync(here, { recursive: true, force: true });
    await app.close();
  }
}
