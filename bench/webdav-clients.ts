// The in-process clients of bench webdav, in a worker thread of their own, as rclone runs in processes of its own: the
// upload API's baseline and rclone's calls without its pacer would otherwise share the event loop of the server they
// measure, which would time the clients' work as the server's. Given the server, a token, an app password, the small
// files' folder and the large file; each job posted is answered with its seconds (or its error). Run through
// ts-worker.mjs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { callingRoutes, withToken } from '../apps/server/src/testing/route-call.ts';
import { uploadThroughCabinet } from './transfer.ts';

export interface WebdavClients {
  url: string;
  token: string;
  workspace: { id: string; homeId: string };
  /** `/dav/<slug>/My files`, on the server. */
  davBase: string;
  /** The Basic authorization of the app password. */
  authorization: string;
  /** Where `folder <i % 20>/file <i>.bin` are, for i below `count`. */
  small: string;
  count: number;
  transfers: number;
  /** The one large file, sent in one upload whose parts go one at a time (rclone sends one stream). */
  large: string;
}

/** Files 0…count-1 through the upload API into their folders (`folderIds[i % 20]`), or by rclone's calls into `into`. */
export type WebdavJob = { kind: 'api'; count: number; folderIds: string[] } | { kind: 'calls'; count: number; into: string } | { kind: 'large'; name: string };
export type WebdavAnswer = { seconds: number } | { error: string };

const data = (workerData as { data: WebdavClients }).data;
const { raw } = callingRoutes(withToken(data.url, data.token));
const app = { raw, workspace: data.workspace };
// Read and hashed before anything is timed.
const files = Array.from({ length: data.count }, (_, i) => readFileSync(path.join(data.small, `folder ${i % 20}`, `file ${i}.bin`)));
const sha256s = files.map((f) => createHash('sha256').update(f).digest('hex'));
const sha1s = files.map((f) => createHash('sha1').update(f).digest('hex'));
const large = readFileSync(data.large);
const largeFile = {
  chunks: Array.from({ length: Math.ceil(large.length / 2 ** 20) }, (_, i) => large.subarray(i * 2 ** 20, (i + 1) * 2 ** 20)),
  sha256: createHash('sha256').update(large).digest('hex'),
};

/** What rclone asks of each file it sent (its webdav backend, vendor owncloud). */
const PROPS =
  '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop><d:displayname/><d:getlastmodified/>' +
  '<d:getcontentlength/><d:resourcetype/><d:getcontenttype/><oc:checksums/></d:prop></d:propfind>';

async function dav(method: string, where: string, init: { body?: Buffer | string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${data.davBase}/${where.split('/').map(encodeURIComponent).join('/')}`, {
    method,
    headers: { authorization: data.authorization, ...init.headers },
    ...(init.body ? { body: init.body } : {}),
  });
  await res.arrayBuffer();
  if (res.status >= 400 && !(method === 'MKCOL' && res.status === 405)) throw new Error(`${method} ${where}: ${res.status}`);
}

/** `count` files, `data.transfers` at a time, each through `send`. */
async function lanes(count: number, send: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: data.transfers }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

const jobs = {
  large: (job: Extract<WebdavJob, { kind: 'large' }>) => uploadThroughCabinet(app, job.name, largeFile, large.length, 1),
  api: (job: Extract<WebdavJob, { kind: 'api' }>) =>
    lanes(job.count, (i) =>
      uploadThroughCabinet(app, `file ${i}.bin`, { chunks: [files[i]!], sha256: sha256s[i]! }, files[i]!.length, 1, job.folderIds[i % 20]),
    ),
  // rclone's three calls a file: MKCOL of its folder (there already: 405), the PUT with its time and SHA-1, a PROPFIND.
  calls: async (job: Extract<WebdavJob, { kind: 'calls' }>) => {
    await dav('MKCOL', job.into);
    await lanes(job.count, async (i) => {
      const file = `${job.into}/folder ${i % 20}/file ${i}.bin`;
      await dav('MKCOL', `${job.into}/folder ${i % 20}`);
      await dav('PUT', file, {
        body: files[i]!,
        headers: { 'content-type': 'application/octet-stream', 'x-oc-mtime': String(Math.floor(Date.now() / 1000)), 'oc-checksum': `SHA1:${sha1s[i]}` },
      });
      await dav('PROPFIND', file, { body: PROPS, headers: { depth: '0', 'content-type': 'application/xml' } });
    });
  },
};

parentPort!.on('message', (job: WebdavJob) => {
  const start = performance.now();
  (job.kind === 'api' ? jobs.api(job) : job.kind === 'calls' ? jobs.calls(job) : jobs.large(job)).then(
    () => parentPort!.postMessage({ seconds: (performance.now() - start) / 1000 } satisfies WebdavAnswer),
    (error: unknown) => parentPort!.postMessage({ error: String(error) } satisfies WebdavAnswer),
  );
});
parentPort!.postMessage({ seconds: 0 } satisfies WebdavAnswer);
