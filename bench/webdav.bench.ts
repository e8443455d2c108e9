import { execFile } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { randomBytes } from 'node:crypto';
import { meApi, workspacesApi } from '@cabinet/contracts';
import { createApiToken } from '../apps/server/src/modules/tokens/tokens.service.ts';
import { untilBackgroundDone } from './metrics.ts';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';
import { GiB, syntheticFile } from './transfer.ts';
import type { WebdavAnswer, WebdavClients, WebdavJob } from './webdav-clients.ts';

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
 * bytes: as many previews to make) through the API's upload protocol — start, PUT the part(s), complete — 4 files at a
 * time for the small ones and the large one's parts one at a time (rclone sends one stream), sent from a thread of
 * their own (webdav-clients.ts) as rclone sends from processes of its own. Files per second, and MiB/s. Both ways are
 * warmed up first, and each measurement starts once the server's background work (previews, search texts) left by the
 * one before is done, so that none pays for another's.
 *
 * The small files go three ways through WebDAV. rclone 1.60 (Debian's) starts one process's WebDAV calls at least
 * 10 ms apart whatever its transfers (its pacer, ADR 0071): at three calls a file (MKCOL of the folder, the PUT, a
 * PROPFIND of the file) one process cannot pass about 33 files/s. So: one rclone with 4 transfers, as a person would
 * run it (capped by its pacer); 4 rclones of one transfer each, a quarter of the folders each — 4 files at a time, as
 * the baseline, each process paced on its own; and rclone's very calls for each file, 4 files at a time and no pacer,
 * from the baseline's thread: what Cabinet's WebDAV costs, the client aside (ADR 0072).
 * rclone must be installed (Debian's package).
 */
export default async function webdav() {
  const app = await startBenchApp();
  const here = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-webdav-'));
  let clients: Awaited<ReturnType<typeof webdavClients>> | undefined;
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
    await pipeline(Readable.from(syntheticFile(GiB).chunks), createWriteStream(path.join(large, 'large.bin')));
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
    const folder = async (name: string, parentId = app.workspace.homeId) =>
      (await app.raw('POST', `/workspaces/${app.workspace.id}/items`, { kind: 'folder', name, parentId })).body.id as string;
    // The baseline sends the very files rclone sends (each its own bytes: its own preview and text to index), from a
    // thread of its own, as do rclone's calls without its pacer (webdav-clients.ts).
    const worker = await webdavClients({
      url: app.t.url,
      token: app.token,
      workspace: app.workspace,
      davBase: `${app.t.url}/dav/${encodeURIComponent(slug)}/My%20files`,
      authorization: `Basic ${Buffer.from(`${me.user.email}:${password}`).toString('base64')}`,
      small,
      count: SMALL,
      transfers: TRANSFERS,
      large: path.join(large, 'large.bin'),
    });
    const folders = (into: string) => Promise.all(Array.from({ length: 20 }, (_, i) => folder(`folder ${i}`, into)));
    const api = async (count: number, name: string) => {
      const job: WebdavJob = { kind: 'api', count, folderIds: await folders(await folder(name)) };
      return () => worker.run(job);
    };
    clients = worker;
    const calls = (count: number, into: string) => worker.run({ kind: 'calls', count, into });
    await (
      await api(WARM_UP, 'api warm-up')
    )();
    await calls(WARM_UP, 'calls warm-up');
    const smallDav: number[] = [];
    const smallDavs: number[] = [];
    const smallCalls: number[] = [];
    const smallApi: number[] = [];
    const largeDav: number[] = [];
    const largeApi: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      smallDav.push(SMALL / (await timed(() => rclone(small, `small ${r}`))));
      smallDavs.push(SMALL / (await timed(() => rclones(`small by 4 ${r}`))));
      const sendApi = await api(SMALL, `api small ${r}`);
      await untilBackgroundDone(app.t.url);
      smallApi.push(SMALL / (await sendApi()));
      await untilBackgroundDone(app.t.url);
      smallCalls.push(SMALL / (await calls(SMALL, `calls small ${r}`)));
      largeDav.push(1024 / (await timed(() => rclone(large, `large ${r}`))));
      await untilBackgroundDone(app.t.url);
      largeApi.push(1024 / (await worker.run({ kind: 'large', name: `large ${r}.bin` })));
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
    await clients?.close();
    rmSync(here, { recursive: true, force: true });
    await app.close();
  }
}

/** The clients' worker (webdav-clients.ts), once it has read the files: `run` posts a job and answers its seconds. */
async function webdavClients(data: WebdavClients) {
  const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), {
    workerData: { module: new URL('./webdav-clients.ts', import.meta.url).href, data },
  });
  const answer = () =>
    new Promise<number>((resolve, reject) => {
      const off = () => {
        worker.off('message', answered);
        worker.off('error', failed);
        worker.off('exit', ended);
      };
      const answered = (a: WebdavAnswer) => {
        off();
        if ('error' in a) reject(new Error(a.error));
        else resolve(a.seconds);
      };
      const failed = (error: Error) => {
        off();
        reject(error);
      };
      const ended = (code: number) => {
        off();
        reject(new Error(`the clients' worker ended (${code}) before its answer`));
      };
      worker.on('message', answered);
      worker.on('error', failed);
      worker.on('exit', ended);
    });
  await answer();
  return {
    run(job: WebdavJob): Promise<number> {
      const answered = answer();
      worker.postMessage(job);
      return answered;
    },
    close: () => worker.terminate(),
  };
}
