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
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';
import { GiB, syntheticFile, uploadThroughCabinet } from './transfer.ts';

const run = promisify(execFile);
const SMALL = 1000;
const SMALL_SIZE = 10 * 1024;
const TRANSFERS = 4;
const RUNS = 2;

/**
 * webdav: what a WebDAV client costs against the browser's own upload path, the same files at the same concurrency.
 * Through rclone (its own WebDAV client, 4 transfers, ownCloud's dialect with modification times) to /dav/: 1,000
 * files of 10 KiB in 20 folders, and one file of 1 GiB (one stream, as a WebDAV PUT is). Baseline: the same files
 * (the same bytes: as many previews to make) through the API's upload protocol in this process — start, PUT the
 * part(s), complete — 4 files at a time for the small ones, and the large one's parts one at a time (rclone sends one
 * stream). Files per second, and MiB/s.
 * rclone 1.60 (Debian's) starts its WebDAV calls at least 10 ms apart whatever its transfers (its pacer; ADR 0071): at
 * three calls a file it cannot pass about 33 files/s. So a third line sends rclone's very calls for each small file —
 * MKCOL of its folder, the PUT with its modification time and SHA-1, a PROPFIND of the file — from this process, 4 files
 * at a time and no pacer, against the same baseline: what Cabinet's WebDAV costs, the client aside.
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
    const rclone = async (from: string, to: string) => {
      const start = performance.now();
      await run('rclone', ['copy', from, `cab:${to}`, '--transfers', String(TRANSFERS), '--retries', '1'], { env, maxBuffer: 16 * 1024 * 1024 });
      return (performance.now() - start) / 1000;
    };
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
      const start = performance.now();
      await Promise.all(
        Array.from({ length: TRANSFERS }, async () => {
          while (next < count) {
            const i = next++;
            await uploadThroughCabinet(app, `file ${i}.bin`, smallFiles[i]!, SMALL_SIZE, 1, ids[i % 20]);
          }
        }),
      );
      return (performance.now() - start) / 1000;
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
      const start = performance.now();
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
      return (performance.now() - start) / 1000;
    };

    const smallDav: number[] = [];
    const smallCalls: number[] = [];
    const smallApi: number[] = [];
    const largeDav: number[] = [];
    const largeApi: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      smallDav.push(SMALL / (await rclone(small, `small ${r}`)));
      smallApi.push(SMALL / (await api(SMALL, await folder(`api small ${r}`))));
      smallCalls.push(SMALL / (await davCalls(SMALL, `calls small ${r}`)));
      largeDav.push(1024 / (await rclone(large, `large ${r}`)));
      const start = performance.now();
      await uploadThroughCabinet(app, `large ${r}.bin`, big, GiB, 1);
      largeApi.push(1024 / ((performance.now() - start) / 1000));
    }
    report('webdav 1,000 files of 10 KiB through rclone, against the upload API', 'files/s', smallDav, smallApi);
    report('webdav 1,000 files of 10 KiB by rclone’s calls without its pacer, against the upload API', 'files/s', smallCalls, smallApi);
    report('webdav 1 GiB through rclone, against the upload API', 'MiB/s', largeDav, largeApi);
  } finally {
    rmSync(here, { recursive: true, force: true });
    await app.close();
  }
}
