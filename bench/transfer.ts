import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { barePut } from './bare-put.mjs';
import type { RawCall } from '../apps/server/src/testing/route-call.ts';
import type { BenchApp } from './setup.ts';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

/** `size` bytes as a list of views on one random 64 MiB block: big files without big memory. */
export function syntheticFile(size: number): { chunks: Buffer[]; sha256: string } {
  const block = randomBytes(64 * MiB);
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  for (let offset = 0; offset < size; offset += block.length) {
    const chunk = block.subarray(0, Math.min(block.length, size - offset));
    chunks.push(chunk);
    hash.update(chunk);
  }
  return { chunks, sha256: hash.digest('hex') };
}

/** The bytes from `start` to `end` of a file made of chunks, as views (no copy when inside one chunk). */
export function slice(chunks: Buffer[], start: number, end: number): Buffer {
  const out: Buffer[] = [];
  let offset = 0;
  for (const chunk of chunks) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + chunk.length);
    if (from < to) out.push(chunk.subarray(from - offset, to - offset));
    offset += chunk.length;
    if (offset >= end) break;
  }
  return out.length === 1 ? out[0]! : Buffer.concat(out);
}

/** A file through Cabinet's real upload protocol: start, sign, PUT parts (`inFlight` at once), complete. Returns the item id. */
export async function uploadThroughCabinet(
  app: Pick<BenchApp, 'raw'> & { workspace: { id: string; homeId: string } },
  name: string,
  file: { chunks: Buffer[]; sha256: string },
  size: number,
  inFlight = 4,
  parentId = app.workspace.homeId,
): Promise<string> {
  const started = await app.raw('POST', `/workspaces/${app.workspace.id}/uploads`, { parentId, name, size, onConflict: 'keep_both' });
  if (started.status !== 201) throw new Error(`starting an upload answered ${started.status} ${started.error?.code ?? ''}`);
  const upload = started.body as { id: string; partSize: number; partCount: number; parts: { partNumber: number; url: string }[] };
  // As the browser does: each of the `inFlight` lanes takes the next part; a part not signed yet
  // is signed with the seven after it, which stay in the queue for whichever lane takes them.
  const queue = Array.from({ length: upload.partCount }, (_, i) => i + 1);
  const signed = new Map(upload.parts.map((p) => [p.partNumber, p.url]));
  try {
    await putParts(file, size, upload.partSize, inFlight, async () => {
      const n = queue.shift();
      if (n === undefined) return undefined;
      if (!signed.has(n)) {
        const more = await app.raw('POST', `/uploads/${upload.id}/parts`, { partNumbers: [n, ...queue.slice(0, 7)] });
        if (more.status !== 200) throw new Error(`signing parts answered ${more.status} ${more.error?.code ?? ''}`);
        for (const p of (more.body as { parts: { partNumber: number; url: string }[] }).parts) signed.set(p.partNumber, p.url);
      }
      return { partNumber: n, url: signed.get(n)! };
    });
    const done = await app.raw('POST', `/uploads/${upload.id}/complete`, { sha256: file.sha256 });
    if (done.status !== 200) throw new Error(`completing answered ${done.status} ${done.error?.code ?? ''}`);
    return done.body.item.id;
  } catch (error) {
    // Cancelled as the browser cancels an upload that failed.
    await app.raw('DELETE', `/uploads/${upload.id}`).catch(() => undefined);
    throw error;
  }
}

/** A file of a batch: its name, its bytes, and their SHA-256 when the completion should check it. */
export interface BatchFile {
  name: string;
  bytes: Uint8Array;
  sha256?: string;
}

/**
 * Small files as the browser sends them: one call starts them all, each file's one part is PUT (through `limit`,
 * which bounds the parts in flight), one call completes them all. A refused start, a failed part or a completion
 * without its file fails the batch, and the uploads it started are cancelled, as the browser does. Returns the new
 * items' ids.
 */
export async function uploadBatch(
  raw: RawCall,
  workspaceId: string,
  parentId: string,
  files: BatchFile[],
  limit: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn(),
): Promise<string[]> {
  const started = await raw('POST', `/workspaces/${workspaceId}/uploads/batch`, {
    uploads: files.map((f) => ({ parentId, name: f.name, size: f.bytes.length, onConflict: 'keep_both' })),
  });
  if (started.status !== 200) throw new Error(`starting a batch answered ${started.status} ${started.error?.code ?? ''}`);
  const answers = started.body.results as { upload?: { id: string; parts: { url: string }[] }; error?: { code: string } }[];
  const uploads = answers.flatMap((r) => (r.upload ? [r.upload] : []));
  try {
    const refused = answers.find((r) => !r.upload);
    if (refused) throw new Error(`an upload was refused: ${refused.error?.code}`);
    await Promise.all(
      uploads.map((u, i) =>
        limit(async () => {
          const res = await fetch(u.parts[0]!.url, { method: 'PUT', body: files[i]!.bytes });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`PUT of a part answered ${res.status}`);
        }),
      ),
    );
    const done = await raw('POST', '/uploads/complete', {
      uploads: uploads.map((u, i) => ({ id: u.id, ...(files[i]!.sha256 ? { sha256: files[i]!.sha256 } : {}) })),
    });
    if (done.status !== 200) throw new Error(`completing a batch answered ${done.status} ${done.error?.code ?? ''}`);
    return (done.body.results as { item?: { id: string }; error?: { code: string } }[]).map((r) => {
      if (!r.item) throw new Error(`an upload did not complete: ${r.error?.code}`);
      return r.item.id;
    });
  } catch (error) {
    await Promise.all(uploads.map((u) => raw('DELETE', `/uploads/${u.id}`).catch(() => undefined)));
    throw error;
  }
}

/** `names.length` files of the same `size` bytes through uploadBatch, as the small-files bench sends them. */
export async function uploadSmallFiles(
  app: BenchApp,
  names: string[],
  file: { chunks: Buffer[]; sha256: string },
  size: number,
  parentId: string,
  limit: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const bytes = slice(file.chunks, 0, size);
  await uploadBatch(
    app.raw,
    app.workspace.id,
    parentId,
    names.map((name) => ({ name, bytes, sha256: file.sha256 })),
    limit,
  );
}

/** The bare crash-safe PUT of one small file (bare-put.mjs), on a port of its own. */
export async function bareFileServer(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer(barePut(dir));
  await listen(server);
  return { url: `${origin(server)}/object`, server };
}

async function listen(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}

function origin(server: Server): string {
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function fsyncPath(p: string): Promise<void> {
  const handle = await open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The part files of an object's or an upload's folder, in part order, with their sizes. */
async function partFiles(dir: string): Promise<{ file: string; size: number }[]> {
  const parts: { n: number; file: string; size: number }[] = [];
  for (const name of await readdir(dir)) {
    const m = /^(\d+)\.(\d+)\.part$/.exec(name) ?? /^(\d+)\.[0-9a-f]{32}\.(\d+)(?:\.[0-9a-f]{64})?\.part$/.exec(name);
    if (m) parts.push({ n: Number(m[1]), file: path.join(dir, name), size: Number(m[2]) });
  }
  return parts.sort((a, b) => a.n - b.n);
}

/**
 * The baseline of the upload and download benchmarks: a bare multipart store, from Node alone,
 * doing what Cabinet's local storage does and nothing else — no accounts, no database, no signed
 * URLs. `POST /uploads` makes an upload's folder. `PUT /uploads/<id>/<n>` writes a part the way
 * Cabinet writes one: through one file handle to a temporary file, fsync, rename to a name
 * carrying its size. `POST /uploads/<id>/complete` with the SHA-256 as its body joins them as
 * Cabinet does: reads the parts back in order to hash them, compares, fsyncs the folder, renames
 * it into `objects/`, fsyncs that. `GET /objects/<id>` streams an object the way Cabinet serves
 * one: lists the folder for the parts and the length, sends the same headers, and reads the parts
 * one after another in 256 KiB chunks into the response. `GET /folder?path=…` does the same for
 * any folder of parts — Cabinet's own stored object, so both read the same bytes.
 *
 * For many small files, as Cabinet's batch calls: `POST /uploads?count=N` makes N upload folders
 * and answers their ids as JSON; `POST /complete` with `[{ id, sha256 }]` completes them, 8 at a
 * time. `record`, when given, is called with the ids each completing call finished, before it
 * answers: what the store keeps of its files beside their bytes.
 */
export async function bareMultipartServer(dir: string, record?: (ids: string[]) => Promise<void>): Promise<{ url: string; server: Server }> {
  const uploads = path.join(dir, 'multipart');
  const objects = path.join(dir, 'objects');
  await mkdir(uploads, { recursive: true });
  await mkdir(objects, { recursive: true });
  let next = 0;

  async function writePart(upload: string, partNumber: number, body: AsyncIterable<Buffer>): Promise<void> {
    const tmp = path.join(upload, `.tmp-${randomBytes(6).toString('hex')}`);
    const file = await open(tmp, 'w');
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      for (let offset = 0; offset < chunk.length;) offset += (await file.write(chunk, offset)).bytesWritten;
    }
    await file.sync();
    await file.close();
    await rename(tmp, path.join(upload, `${partNumber}.${size}.part`));
  }

  async function complete(id: string, sha256: string): Promise<boolean> {
    const upload = path.join(uploads, id);
    const hash = createHash('sha256');
    for (const part of await partFiles(upload)) for await (const chunk of createReadStream(part.file, { highWaterMark: MiB })) hash.update(chunk as Buffer);
    if (hash.digest('hex') !== sha256) return false;
    await fsyncPath(upload);
    await rename(upload, path.join(objects, id));
    await fsyncPath(objects);
    return true;
  }

  async function serve(folder: string, res: ServerResponse): Promise<void> {
    const parts = await partFiles(folder);
    res.writeHead(200, {
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
      'content-disposition': "attachment; filename*=UTF-8''object.bin",
      'cache-control': 'private, max-age=300',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-length': String(parts.reduce((sum, p) => sum + p.size, 0)),
    });
    async function* bytes() {
      for (const part of parts) yield* createReadStream(part.file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>;
    }
    Readable.from(bytes()).pipe(res);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bare');
    const [, area, id, step] = url.pathname.split('/');
    const answer = async (): Promise<void> => {
      if (req.method === 'POST' && area === 'uploads' && !id) {
        const count = url.searchParams.get('count');
        const made = Array.from({ length: count ? Number(count) : 1 }, () => String(next++));
        for (const upload of made) await mkdir(path.join(uploads, upload));
        res.end(count ? JSON.stringify(made) : made[0]);
      } else if (req.method === 'PUT' && area === 'uploads' && id && step) {
        await writePart(path.join(uploads, id), Number(step), req);
        res.end();
      } else if (req.method === 'POST' && area === 'uploads' && id && step === 'complete') {
        const ok = await complete(id, await text(req));
        if (ok) await record?.([id]);
        res.statusCode = ok ? 200 : 400;
        res.end();
      } else if (req.method === 'POST' && area === 'complete') {
        const wanted = JSON.parse(await text(req)) as { id: string; sha256: string }[];
        const done: string[] = [];
        for (let i = 0; i < wanted.length; i += 8)
          await Promise.all(wanted.slice(i, i + 8).map(async (w) => (await complete(w.id, w.sha256)) && done.push(w.id)));
        await record?.(done);
        res.statusCode = done.length === wanted.length ? 200 : 400;
        res.end();
      } else if (req.method === 'GET' && area === 'objects' && id) {
        await serve(path.join(objects, id), res);
      } else if (req.method === 'GET' && area === 'folder') {
        await serve(url.searchParams.get('path')!, res);
      } else {
        res.statusCode = 404;
        res.end();
      }
    };
    answer().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await listen(server);
  return { url: origin(server), server };
}

/** A file's parts PUT `inFlight` at once, each part as Cabinet's client sends it. */
export async function putParts(
  file: { chunks: Buffer[] },
  size: number,
  partSize: number,
  inFlight: number,
  nextPart: () => Promise<{ partNumber: number; url: string } | undefined>,
): Promise<void> {
  // A lane stops taking parts once another has failed: nothing goes on after the upload has failed.
  let failed = false;
  const worker = async () => {
    try {
      for (let part = await nextPart(); part && !failed; part = await nextPart()) {
        const start = (part.partNumber - 1) * partSize;
        const res = await fetch(part.url, { method: 'PUT', body: slice(file.chunks, start, Math.min(size, start + partSize)) });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`part ${part.partNumber}: ${res.status}`);
      }
    } catch (error) {
      failed = true;
      throw error;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/** The same file through the bare multipart store: start, PUT parts (`inFlight` at once), complete. Returns the object's id. */
export async function uploadThroughBare(
  url: string,
  file: { chunks: Buffer[]; sha256: string },
  size: number,
  partSize: number,
  inFlight = 4,
): Promise<string> {
  const id = await (await fetch(`${url}/uploads`, { method: 'POST' })).text();
  const queue = Array.from({ length: Math.max(1, Math.ceil(size / partSize)) }, (_, i) => i + 1);
  await putParts(file, size, partSize, inFlight, async () => {
    const n = queue.shift();
    return n === undefined ? undefined : { partNumber: n, url: `${url}/uploads/${id}/${n}` };
  });
  const done = await fetch(`${url}/uploads/${id}/complete`, { method: 'POST', body: file.sha256 });
  await done.arrayBuffer();
  if (!done.ok) throw new Error(`bare complete: ${done.status}`);
  return id;
}

/** Small files through the bare multipart store as Cabinet's browser sends them: one call starts them all, each one's part is PUT (through `limit`), one call completes them all. */
export async function uploadSmallFilesThroughBare(
  url: string,
  count: number,
  file: { chunks: Buffer[]; sha256: string },
  size: number,
  limit: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const ids = (await (await fetch(`${url}/uploads?count=${count}`, { method: 'POST' })).json()) as string[];
  const body = slice(file.chunks, 0, size);
  await Promise.all(
    ids.map((id) =>
      limit(async () => {
        const res = await fetch(`${url}/uploads/${id}/1`, { method: 'PUT', body });
        if (!res.ok) throw new Error(`bare part: ${res.status}`);
        await res.arrayBuffer();
      }),
    ),
  );
  const done = await fetch(`${url}/complete`, { method: 'POST', body: JSON.stringify(ids.map((id) => ({ id, sha256: file.sha256 }))) });
  await done.arrayBuffer();
  if (!done.ok) throw new Error(`bare complete: ${done.status}`);
}

/** PUTs the whole file in one streamed request. */
export async function putWhole(url: string, chunks: Buffer[]): Promise<void> {
  async function* body() {
    for (const c of chunks) yield c;
  }
  const res = await fetch(url, { method: 'PUT', body: body() as unknown as ReadableStream, duplex: 'half' } as RequestInit);
  await res.text();
}

/** Reads a response to its end, counting bytes. */
export async function drain(res: Response): Promise<number> {
  let n = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) n += chunk.length;
  return n;
}

/** `dd … conv=fdatasync`: what the disk takes raw, for the record. */
export function ddFigure(dir: string, sizeMiB: number): string {
  const out = path.join(dir, 'dd.bin');
  const result = spawnSync('dd', ['if=/dev/zero', `of=${out}`, 'bs=1M', `count=${sizeMiB}`, 'conv=fdatasync'], { encoding: 'utf8' });
  void rm(out, { force: true });
  return (result.stderr || String(result.error ?? '')).trim().split('\n').at(-1) ?? '';
}
