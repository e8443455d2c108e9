import type { ByteRange } from '../../infra/storage/driver.ts';
import { currentBytes } from '../files/index.ts';
import type { DavCall } from './dav-call.ts';
import { isCollection, type DavResource } from './dav-resources.ts';
import { etagOf } from './live-props.ts';
import { DavRefusal } from './refusal.ts';

/**
 * The single range of a `Range` header, held to the length; undefined for none, for several (the whole is sent), or
 * for a header that does not parse (ignored, RFC 9110 §14.2); 'unsatisfiable' when it starts past the end.
 */
export function byteRange(header: string | undefined, length: number): ByteRange | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, length - suffix), end: length - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? length - 1 : Math.min(Number(m[2]), length - 1);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  if (start >= length) return 'unsatisfiable';
  return { start, end };
}

/** Whether an `If-None-Match` or `If-Match` list names the entity tag (or is `*`). */
export function etagListed(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === etag);
}

/**
 * GET and HEAD: a file's current bytes streamed from storage (a range of them when asked), a document as its
 * Markdown; a collection has no body of its own (405). The entity tag answers `If-None-Match` with 304 and
 * `If-Match` with 412.
 */
export async function get(call: DavCall, r: DavResource, head: boolean): Promise<void> {
  const { ctx, actor, req, reply } = call;
  if (isCollection(r) || r.kind !== 'item') {
    reply.header('allow', 'OPTIONS, PROPFIND');
    throw new DavRefusal(405, 'A folder has no content to download: list it with PROPFIND.');
  }
  const etag = etagOf(r.item);
  const ifMatch = req.headers['if-match'];
  if (ifMatch && !etagListed(ifMatch, etag)) throw new DavRefusal(412, 'The file changed since (If-Match).');
  reply.header('etag', etag).header('last-modified', new Date(r.item.updatedAt).toUTCString());
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch && etagListed(ifNoneMatch, etag)) {
    reply.code(304).send();
    return;
  }
  if (r.item.kind === 'document') {
    const markdown = Buffer.from(await call.markdown(r.item.id));
    reply.type('text/markdown; charset=utf-8').header('content-length', markdown.byteLength);
    reply.send(head ? undefined : markdown);
    return;
  }
  const bytes = await currentBytes(ctx, actor, r.item.id);
  reply.header('accept-ranges', 'bytes').type(bytes.mimeType);
  const range = byteRange(req.headers.range, bytes.size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${bytes.size}`);
    throw new DavRefusal(416, 'The range starts past the end of the file.');
  }
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${bytes.size}`);
  const length = range ? range.end - range.start + 1 : bytes.size;
  reply.header('content-length', length);
  if (head || length === 0) {
    reply.send();
    return;
  }
  reply.send(await ctx.storage.read(bytes.blobKey, range));
}
