import { randomUUID } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { header, type DavCall } from './dav-call.ts';
import { davHref, davPathOf } from './dav-path.ts';
import { resolve, validName, type ItemResource } from './dav-resources.ts';
import { deleteLock, deleteSideFile, findSideFile, findSideLocks, insertLock, moveSideFile, putSideFile } from './dav.repo.ts';
import { activeLock, lockSeconds, readLockInfo } from './lock-info.ts';
import { clientName, ownerOf, requireLockRoom } from './locks.ts';
import { multistatus, propResponse } from './multistatus.ts';
import { readPropFind } from './prop-requests.ts';
import { DavRefusal } from './refusal.ts';
import { readXml } from './xml-read.ts';
import { d, DAV, writeXml, type XmlElement } from './xml-write.ts';

/** Bounds on what Finder may keep: one side file's size, and how many and how much a person keeps (the oldest go first). */
export const SIDE_FILES = { maxBytes: 1024 * 1024, perPerson: { count: 5000, bytes: 64 * 1024 * 1024 } } as const;

/**
 * Names macOS Finder writes beside what it copies: `._name` (the file's extended attributes, AppleDouble) and
 * `.DS_Store` (how a folder was shown). They are the Mac's own bookkeeping, not the team's files: kept for the person
 * whose Finder wrote them, never shown to anyone else, in the browser or in listings (Finder asks for each by name).
 */
export const isSideFileName = (name: string) => name.startsWith('._') || name.toLowerCase() === '.ds_store';

const etagOf = (row: { modified_at: Date; bytes: Uint8Array }) => `"side-${row.modified_at.getTime().toString(36)}-${row.bytes.byteLength}"`;

/** The folder a side file is in: one the caller sees, inside one of a workspace's places. */
async function folderOf(call: DavCall): Promise<ItemResource> {
  const there = await resolve(call.ctx.db, call.actor, call.path.names.slice(0, -1));
  if (!('found' in there)) throw new DavRefusal(409, 'The folder it would go in does not exist.');
  const r = there.found;
  if (r.kind !== 'item' || r.item.kind !== 'folder') throw new DavRefusal(403, 'Only a folder of files keeps Finder’s side files.');
  return r;
}

/** A request about a side file, answered from the person's own (every method but MKCOL; COPY and MOVE among side files). */
export async function sideFileRequest(call: DavCall, body: () => Promise<Buffer>): Promise<void> {
  const { ctx, actor, req, reply } = call;
  const name = validName(call.path.names.at(-1)!);
  const folder = await folderOf(call);
  const userId = actor.user.id;
  const key = [userId, folder.item.id, name] as const;
  const requireOwnTokens = async () => {
    const locks = await findSideLocks(ctx.db, ...key);
    if (locks.some((l) => !call.conditions.submitted.has(l.token)))
      throw new DavRefusal(423, 'It is locked: send the lock token in an If header.', d('lock-token-submitted', d('href', locks[0]!.href)));
  };
  switch (req.method) {
    case 'GET':
    case 'HEAD': {
      const row = await findSideFile(ctx.db, ...key);
      if (!row) throw new DavRefusal(404, 'Nothing is there.');
      reply.type('application/octet-stream').header('etag', etagOf(row)).header('last-modified', row.modified_at.toUTCString());
      reply.header('content-length', row.bytes.byteLength).send(req.method === 'HEAD' ? undefined : Buffer.from(row.bytes));
      return;
    }
    case 'PUT': {
      await requireOwnTokens();
      const bytes = await body();
      const existed = await putSideFile(ctx.db, { user_id: userId, folder_id: folder.item.id, name, bytes }, SIDE_FILES.perPerson);
      reply.code(existed ? 204 : 201).send();
      return;
    }
    case 'DELETE': {
      await requireOwnTokens();
      if (!(await deleteSideFile(ctx.db, ...key))) throw new DavRefusal(404, 'Nothing is there.');
      reply.code(204).send();
      return;
    }
    case 'PROPFIND': {
      const row = await findSideFile(ctx.db, ...key);
      if (!row) throw new DavRefusal(404, 'Nothing is there.');
      const raw = await body();
      const asked = readPropFind(raw.byteLength ? readXml(raw) : undefined);
      const locks = await findSideLocks(ctx.db, ...key);
      const values: Record<string, XmlElement> = {
        displayname: d('displayname', name),
        resourcetype: d('resourcetype'),
        getcontentlength: d('getcontentlength', String(row.bytes.byteLength)),
        getcontenttype: d('getcontenttype', 'application/octet-stream'),
        getlastmodified: d('getlastmodified', row.modified_at.toUTCString()),
        getetag: d('getetag', etagOf(row)),
        lockdiscovery: d('lockdiscovery', ...locks.map((l) => shown(l))),
      };
      const names = asked.kind === 'prop' ? asked.names : Object.keys(values).map((local) => ({ ns: DAV, local }));
      const outcomes = names.map((n) => {
        const value = n.ns === DAV ? values[n.local] : undefined;
        if (asked.kind === 'propname') return { name: n, status: 200 as const, value: d(n.local) };
        return value ? { name: n, status: 200 as const, value } : { name: n, status: 404 };
      });
      reply
        .code(207)
        .type('application/xml; charset=utf-8')
        .send(writeXml(multistatus([propResponse(davHref(call.path.names, false), outcomes)])));
      return;
    }
    case 'PROPPATCH':
      throw new DavRefusal(403, 'Finder’s side files keep no properties.');
    case 'COPY':
    case 'MOVE': {
      const destination = davPathOf(header(call, 'destination') ?? '', req.headers.host);
      const toName = destination.names.at(-1) ?? '';
      if (!isSideFileName(toName)) throw new DavRefusal(403, 'A side file stays a side file.');
      const there = await resolve(ctx.db, actor, destination.names.slice(0, -1));
      if (!('found' in there) || there.found.kind !== 'item' || there.found.item.kind !== 'folder')
        throw new DavRefusal(409, 'The folder it would go in does not exist.');
      const row = await findSideFile(ctx.db, ...key);
      if (!row) throw new DavRefusal(404, 'Nothing is there.');
      const toKey = { folderId: there.found.item.id, name: toName };
      const existed = await findSideFile(ctx.db, userId, toKey.folderId, toKey.name);
      if (existed && (header(call, 'overwrite') ?? 'T').toUpperCase() === 'F') throw new DavRefusal(412, 'Something is already there (Overwrite: F).');
      if (req.method === 'MOVE') {
        await requireOwnTokens();
        await moveSideFile(ctx.db, userId, { folderId: folder.item.id, name }, toKey);
      } else await putSideFile(ctx.db, { user_id: userId, folder_id: toKey.folderId, name: toName, bytes: row.bytes }, SIDE_FILES.perPerson);
      reply.code(existed ? 204 : 201).send();
      return;
    }
    case 'LOCK': {
      const raw = await body();
      const held = await findSideLocks(ctx.db, ...key);
      if (!raw.byteLength) {
        const mine = held.find((l) => call.conditions.submitted.has(l.token));
        if (!mine) throw new DavRefusal(412, 'Refresh a lock by sending its token in an If header.', d('lock-token-submitted'));
        reply
          .code(200)
          .type('application/xml; charset=utf-8')
          .send(writeXml(d('prop', d('lockdiscovery', shown(mine)))));
        return;
      }
      const info = readLockInfo(readXml(raw));
      await requireLockRoom(ctx.db, userId);
      if (held.some((l) => l.scope === 'exclusive' || info.scope === 'exclusive'))
        throw new DavRefusal(423, 'It is locked.', d('no-conflicting-lock', d('href', held[0]!.href)));
      let created = false;
      if (!(await findSideFile(ctx.db, ...key))) {
        await putSideFile(ctx.db, { user_id: userId, folder_id: folder.item.id, name, bytes: new Uint8Array() }, SIDE_FILES.perPerson);
        created = true;
      }
      const seconds = lockSeconds(header(call, 'timeout'));
      const row = await insertLock(ctx.db, {
        token: `urn:uuid:${randomUUID()}`,
        item_id: folder.item.id,
        side_name: name,
        user_id: userId,
        scope: info.scope,
        deep: false,
        href: davHref(call.path.names, false),
        owner: ownerOf(info.owner),
        client: clientName(req.headers['user-agent']),
        timeout_seconds: seconds,
        expires_at: new Date(Date.now() + seconds * 1000),
      });
      reply.header('lock-token', `<${row.token}>`);
      reply
        .code(created ? 201 : 200)
        .type('application/xml; charset=utf-8')
        .send(writeXml(d('prop', d('lockdiscovery', shown(row)))));
      return;
    }
    case 'UNLOCK': {
      const named = /^\s*<([^>\s]+)>\s*$/.exec(header(call, 'lock-token') ?? '');
      if (!named) throw new DavRefusal(400, 'Name the lock to remove in a Lock-Token header: <token>.');
      const held = await findSideLocks(ctx.db, ...key);
      if (!held.some((l) => l.token === named[1])) throw new DavRefusal(409, 'That lock does not bear on this resource.', d('lock-token-matches-request-uri'));
      await deleteLock(ctx.db, named[1]!);
      reply.code(204).send();
      return;
    }
    default:
      throw new AppError('invalid_input', `${req.method} does not apply to a side file.`);
  }
}

const shown = (l: { token: string; scope: 'exclusive' | 'shared'; owner: unknown; expires_at: Date; href: string }) =>
  activeLock({
    token: l.token,
    scope: l.scope,
    depth: 0,
    owner: (l.owner as XmlElement | null) ?? undefined,
    secondsLeft: (new Date(l.expires_at).getTime() - Date.now()) / 1000,
    rootHref: l.href,
  });
