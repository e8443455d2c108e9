import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors.ts';
import { createItem, trashItem, type ItemAccess } from '../items/index.ts';
import { uploadThrough, type ClientChecksum } from '../files/index.ts';
import { header, type DavCall } from './dav-call.ts';
import { changeable, DOCUMENT_EXTENSION, newPlaceOf, parentOf, type Resolved } from './dav-resources.ts';
import { etagListed } from './get.ts';
import { etagOf } from './live-props.ts';
import { requireUnlocked } from './locks.ts';
import { DavRefusal, isAppError } from './refusal.ts';

/** A PUT whose bytes took longer than this signs in again before its file is made. */
const SIGN_IN_AGAIN_AFTER_MS = 1_000;

/** A request body is there: a length above zero, or one sent in chunks. */
const hasBody = (call: DavCall) => Number(call.req.headers['content-length'] ?? 0) > 0 || call.req.headers['transfer-encoding'] !== undefined;

/** MKCOL: a new folder (201); where something is, 405; with no folder to go in, 409; a body, 415 (none is defined). */
export async function mkcol(call: DavCall, target: Resolved): Promise<void> {
  if (hasBody(call)) throw new DavRefusal(415, 'MKCOL takes no body.');
  if ('found' in target) {
    call.reply.header('allow', 'OPTIONS, PROPFIND, GET, HEAD, PUT, DELETE');
    throw new DavRefusal(405, 'Something of that name is already there.');
  }
  const { parent, name } = newPlaceOf(target.missing);
  await requireUnlocked(call, parent);
  try {
    await createItem(call.ctx.db, call.actor, parent.workspace.id, { kind: 'folder', name, parentId: parent.item.id });
  } catch (error) {
    // Made meanwhile by another request.
    if (isAppError(error, 'name_conflict')) throw new DavRefusal(405, 'Something of that name is already there.');
    throw error;
  }
  call.reply.code(201).send();
}

/** DELETE: to the trash, as in the browser (204); what is in a folder goes with it, restored with it. */
export async function remove(call: DavCall, target: Resolved): Promise<void> {
  if (!('found' in target)) throw new DavRefusal(404, 'Nothing is there.');
  const r = changeable(target.found, 'deleted');
  const depth = header(call, 'depth');
  if (r.item.kind === 'folder' && depth !== undefined && depth.trim().toLowerCase() !== 'infinity') {
    throw new DavRefusal(400, 'A folder is deleted with everything in it (Depth: infinity).');
  }
  const ifMatch = call.req.headers['if-match'];
  if (ifMatch && !etagListed(ifMatch, etagOf(r.item))) throw new DavRefusal(412, 'It changed since (If-Match).');
  await requireUnlocked(call, r, { taking: true });
  await requireUnlocked(call, await parentOf(call.ctx.db, call.actor, r));
  await trashItem(call.ctx.db, call.actor, r.item.id);
  call.reply.code(204).send();
}

/**
 * PUT: the body streamed into storage as an upload (201 for a new file; 204 for a new version of the file of that
 * name). A folder is not replaced (405), and a document is read-only here (403).
 */
export async function put(call: DavCall, target: Resolved): Promise<void> {
  const { req, reply } = call;
  const ifNoneMatch = req.headers['if-none-match'];
  const ifMatch = req.headers['if-match'];
  let parentId: string;
  let workspaceId: string;
  let name: string;
  let versionOf: string | undefined;
  // The folder's access (a new file) or the file's (a new version), as this request's walk of the path read it.
  let known: ItemAccess | undefined;
  if ('found' in target) {
    const r = changeable(target.found, 'replaced');
    if (r.item.kind === 'folder') {
      reply.header('allow', 'OPTIONS, PROPFIND, DELETE, MKCOL');
      throw new DavRefusal(405, 'A folder cannot be replaced by a file.');
    }
    if (r.item.kind === 'document') throw new DavRefusal(403, `Documents are read-only here (${DOCUMENT_EXTENSION}): edit them in Cabinet.`);
    if (ifNoneMatch && etagListed(ifNoneMatch, etagOf(r.item))) throw new DavRefusal(412, 'The file is already there (If-None-Match).');
    if (ifMatch && !etagListed(ifMatch, etagOf(r.item))) throw new DavRefusal(412, 'The file changed since (If-Match).');
    await requireUnlocked(call, r);
    parentId = r.item.parentId!;
    workspaceId = r.workspace.id;
    name = r.item.name;
    versionOf = r.item.id;
    known = r.access;
  } else {
    if (ifMatch) throw new DavRefusal(412, 'There is no file there yet (If-Match).');
    const place = newPlaceOf(target.missing);
    await requireUnlocked(call, place.parent);
    parentId = place.parent.item.id;
    workspaceId = place.parent.workspace.id;
    name = place.name;
    known = place.parent.access;
  }
  const began = Date.now();
  const contentType = req.headers['content-type'];
  const modifiedAt = clientTime(header(call, 'x-oc-mtime'));
  const checksum = clientChecksum(header(call, 'oc-checksum'));
  const { replaced } = await withBody(call, (size, body) =>
    uploadThrough(
      call.ctx,
      call.actor,
      workspaceId,
      { parentId, name, versionOf, size, mimeType: contentType?.split(';', 1)[0]?.trim() || undefined, modifiedAt, checksum },
      body,
      {
        // Not read again by the upload's start.
        known,
        // An app password revoked, or the folder's access taken away, while the bytes came finishes nothing (looked at
        // again once they took a while: a change within a second of the start is one the request could as well have
        // just beaten, and the completion then takes the folder's access the start took).
        beforeComplete: async () => {
          if (Date.now() - began <= SIGN_IN_AGAIN_AFTER_MS) return true;
          await call.signIn();
          return false;
        },
      },
    ),
  );
  // rclone and ownCloud's clients send the file's own time and take it as kept when told so.
  if (modifiedAt) reply.header('x-oc-mtime', 'accepted');
  reply.code(replaced ? 204 : 201).send();
}

/** The time in an `X-OC-Mtime` header (seconds since 1970), when it is one between then and the year 9999. */
export function clientTime(value: string | undefined): Date | undefined {
  if (!value || !/^\d{1,12}(\.\d{1,9})?$/.test(value.trim())) return undefined;
  const ms = Number(value.trim()) * 1000;
  return ms > 0 && ms < 253_402_300_800_000 ? new Date(Math.floor(ms)) : undefined;
}

const DIGESTS = { SHA1: { algorithm: 'sha1', length: 40 }, MD5: { algorithm: 'md5', length: 32 }, SHA256: { algorithm: 'sha256', length: 64 } } as const;

/**
 * The digest in an `OC-Checksum` header (`SHA1:<hex>`, as rclone and ownCloud's clients send it; MD5 and SHA256 too),
 * which the bytes must match. One of another kind (ADLER32) is not checked; a known kind of the wrong length is refused.
 */
export function clientChecksum(value: string | undefined): ClientChecksum | undefined {
  const match = /^\s*([A-Za-z0-9]+):([0-9A-Fa-f]*)\s*$/.exec(value ?? '');
  if (!match) return undefined;
  const kind = match[1]!.toUpperCase();
  if (!Object.hasOwn(DIGESTS, kind)) return undefined;
  const { algorithm, length } = DIGESTS[kind as keyof typeof DIGESTS];
  const hex = match[2]!.toLowerCase();
  if (hex.length !== length) throw new DavRefusal(400, `OC-Checksum's ${kind} is ${length} hexadecimal digits.`);
  return { algorithm, hex };
}

/**
 * A PUT's body and its length: as declared (`Content-Length`, or Finder's `X-Expected-Entity-Length` beside a chunked
 * body), streamed straight on; a chunked body of no declared length is first written to a temporary file (up to the
 * largest file allowed) to learn it. No body at all is an empty file.
 */
async function withBody<T>(call: DavCall, use: (size: number, body: AsyncIterable<Buffer>) => Promise<T>): Promise<T> {
  const { req } = call;
  const declared = header(call, 'content-length') ?? header(call, 'x-expected-entity-length');
  if (declared !== undefined) {
    if (!/^\d{1,16}$/.test(declared.trim())) throw new DavRefusal(400, 'The length of the body is not a number.');
    return use(Number(declared), req.raw);
  }
  if (req.headers['transfer-encoding'] === undefined) return use(0, (async function* () {})());
  const folder = await mkdtemp(path.join(os.tmpdir(), 'cabinet-dav-'));
  try {
    const file = path.join(folder, 'body');
    let size = 0;
    const max = call.ctx.env.MAX_FILE_SIZE;
    await pipeline(
      req.raw,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          if (size > max) throw new AppError('file_too_large', undefined, { maxBytes: max });
          yield chunk;
        }
      },
      createWriteStream(file),
    );
    return await use(size, createReadStream(file));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
