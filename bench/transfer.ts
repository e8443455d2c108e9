import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { finished } from 'node:stream/promises';
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
export async function uploadThroughCabinet(app: BenchApp, name: string, file: { chunks: Buffer[]; sha256: string }, size: number, inFlight = 4, parentId = app.workspace.homeId): Promise<string> {
  const started = await app.call('POST', `/workspaces/${app.workspace.id}/uploads`, { parentId, name, size, onConflict: 'keep_both' });
  if (started.status !== 201) throw new Error(JSON.stringify(started.body));
  const upload = started.body as { id: string; partSize: number; partCount: number; parts: { partNumber: number; url: string }[] };
  // The first parts come signed with the start; the rest are signed eight at a time.
  const queue = Array.from({ length: upload.partCount }, (_, i) => i + 1).filter((n) => !upload.parts.some((p) => p.partNumber === n));
  const signedAtStart = [...upload.parts];
  const worker = async () => {
    while (queue.length || signedAtStart.length) {
      const parts = signedAtStart.length
        ? signedAtStart.splice(0, 1)
        : ((await app.call('POST', `/uploads/${upload.id}/parts`, { partNumbers: queue.splice(0, 8) })).body.parts as { partNumber: number; url: string }[]);
      for (const part of parts) {
        const start = (part.partNumber - 1) * upload.partSize;
        const res = await fetch(part.url, { method: 'PUT', body: slice(file.chunks, start, Math.min(size, start + upload.partSize)) });
        if (!res.ok) throw new Error(`part ${part.partNumber}: ${res.status}`);
        await res.arrayBuffer();
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const done = await app.call('POST', `/uploads/${upload.id}/complete`, { sha256: file.sha256 });
  if (done.status !== 200) throw new Error(JSON.stringify(done.body));
  return done.body.item.id;
}

/**
 * Small files as the browser sends them: one call starts them all, each file's one part is PUT
 * (through `limit`, which bounds the parts in flight), one call completes them all.
 */
export async function uploadSmallFiles(app: BenchApp, names: string[], file: { chunks: Buffer[]; sha256: string }, size: number, parentId: string, limit: <T>(fn: () => Promise<T>) => Promise<T>): Promise<void> {
  const started = await app.call('POST', `/workspaces/${app.workspace.id}/uploads/batch`, { uploads: names.map((name) => ({ parentId, name, size, onConflict: 'keep_both' })) });
  const uploads = (started.body.results as { upload?: { id: string; parts: { url: string }[] } }[]).map((r) => {
    if (!r.upload) throw new Error(JSON.stringify(r));
    return r.upload;
  });
  const body = slice(file.chunks, 0, size);
  await Promise.all(
    uploads.map((u) =>
      limit(async () => {
        const res = await fetch(u.parts[0]!.url, { method: 'PUT', body });
        if (!res.ok) throw new Error(`part: ${res.status}`);
        await res.arrayBuffer();
      }),
    ),
  );
  const done = await app.call('POST', '/uploads/complete', { uploads: uploads.map((u) => ({ id: u.id, sha256: file.sha256 })) });
  for (const r of done.body.results as { item?: unknown }[]) if (!r.item) throw new Error(JSON.stringify(r));
}

/**
 * The crash-safe ceiling, built here from Node alone: a PUT streamed to a temporary file while
 * hashing SHA-256, then fsync and rename; and a GET streaming a file back.
 */
export async function bareFileServer(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const target = path.join(dir, 'object');
    if (req.method === 'PUT') {
      const tmp = path.join(dir, `.tmp-${Math.random().toString(36).slice(2)}`);
      const out = createWriteStream(tmp);
      const hash = createHash('sha256');
      req.on('data', (chunk: Buffer) => hash.update(chunk));
      req.pipe(out);
      void finished(out).then(async () => {
        const handle = await open(tmp, 'r');
        await handle.sync();
        await handle.close();
        await rename(tmp, target);
        res.end(hash.digest('hex'));
      });
      return;
    }
    void stat(target).then((info) => {
      res.writeHead(200, { 'content-length': info.size, 'content-type': 'application/octet-stream' });
      createReadStream(target).pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/object`, server };
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
