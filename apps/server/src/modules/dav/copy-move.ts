import { randomUUID } from 'node:crypto';
import type { TItem } from '@cabinet/contracts';
import { copyItem, createItem, trashItem, updateItem, type ItemContents } from '../items/index.ts';
import { header, type DavCall } from './dav-call.ts';
import { DavPathElsewhere, davPathOf } from './dav-path.ts';
import { changeable, DOCUMENT_EXTENSION, newPlaceOf, parentOf, resolve, type Resolved } from './dav-resources.ts';
import { requireUnlocked } from './locks.ts';
import { deleteLocksOn } from './dav.repo.ts';
import { DavRefusal } from './refusal.ts';

const samePath = (a: string[], b: string[]) => a.length === b.length && a.every((n, i) => n.toLowerCase() === b[i]!.toLowerCase());
const isBelow = (inner: string[], outer: string[]) => inner.length > outer.length && samePath(inner.slice(0, outer.length), outer);

/**
 * COPY and MOVE (RFC 4918 §9.8–9.9): to the `Destination` on this server (502 elsewhere), into a folder that exists
 * (409), replacing what is there only when `Overwrite` is not F (412) — moved to the trash first, as a delete would —
 * answered 201 when nothing was there and 204 when something was. A folder is copied with all it holds (Depth
 * infinity) or alone (Depth 0); it moves whole. Onto itself is 403; into itself, 409.
 */
export async function copyOrMove(call: DavCall, target: Resolved, contents: ItemContents, move: boolean): Promise<void> {
  const { ctx, actor, req, reply } = call;
  if (!('found' in target)) throw new DavRefusal(404, 'Nothing is there.');
  const source = changeable(target.found, move ? 'moved' : 'copied');
  const destinationHeader = header(call, 'destination');
  if (!destinationHeader) throw new DavRefusal(400, 'Say where to with a Destination header.');
  // The request's Host, or PUBLIC_URL's behind a proxy that rewrites Host.
  let destination;
  try {
    destination = davPathOf(destinationHeader, req.headers.host);
  } catch (error) {
    if (!(error instanceof DavPathElsewhere)) throw error;
    destination = davPathOf(destinationHeader, new URL(ctx.env.PUBLIC_URL).host);
  }
  const overwrite = (header(call, 'overwrite') ?? 'T').trim().toUpperCase();
  if (overwrite !== 'T' && overwrite !== 'F') throw new DavRefusal(400, 'Overwrite is T or F.');
  const depth = (header(call, 'depth') ?? 'infinity').trim().toLowerCase();
  if (depth !== 'infinity' && (move || depth !== '0'))
    throw new DavRefusal(400, move ? 'A move takes everything (Depth: infinity).' : 'A copy has Depth 0 or infinity.');

  const there = await resolve(ctx.db, actor, destination.names);
  const wantedName = destination.names.at(-1) ?? '';
  let existing = 'found' in there ? there.found : undefined;
  // The same item under another case of its name: a rename.
  if (existing?.kind === 'item' && existing.item.id === source.item.id) {
    if (!move || wantedName === source.names.at(-1)) throw new DavRefusal(403, 'The destination is the source itself.');
    existing = undefined;
  }
  if (isBelow(destination.names, source.names)) throw new DavRefusal(409, 'A folder cannot go inside itself.');
  if (existing && overwrite === 'F') throw new DavRefusal(412, 'Something is already there (Overwrite: F).');
  const parentNames = destination.names.slice(0, -1);
  const parentTarget = await resolve(ctx.db, actor, parentNames);
  const { parent, name: shown } = newPlaceOf({ parent: 'found' in parentTarget ? parentTarget.found : null, name: wantedName });
  const name = itemNameFor(source.item, shown);
  if (move) {
    await requireUnlocked(call, source, { taking: true });
    await requireUnlocked(call, await parentOf(ctx.db, actor, source));
  }
  await requireUnlocked(call, parent);
  const replaced = existing && changeable(existing, 'replaced');
  if (replaced) await requireUnlocked(call, replaced, { taking: true });

  // What is replaced goes to the trash only once the move or copy is done, under a name of its own meanwhile: a refusal
  // on the way (rights, another workspace, a folder into itself by another path) leaves the destination as it was.
  const landing = replaced ? `.cabinet-${randomUUID()}` : name;
  let placed: string;
  if (move) {
    await updateItem(ctx.db, actor, source.item.id, {
      ...(parent.item.id !== source.item.parentId ? { parentId: parent.item.id } : {}),
      ...(landing !== source.item.name ? { name: landing } : {}),
    });
    placed = source.item.id;
    // The source's locks stay where they were taken (RFC 4918 §9.9.4): they do not follow it.
    await deleteLocksOn(ctx.db, source.item.id);
  } else if (source.item.kind === 'folder' && depth === '0') {
    placed = (await createItem(ctx.db, actor, parent.workspace.id, { kind: 'folder', name: landing, parentId: parent.item.id })).id;
  } else {
    placed = (await copyItem(ctx.db, actor, source.item.id, { parentId: parent.item.id, name: landing }, contents)).id;
  }
  if (replaced) {
    await trashItem(ctx.db, actor, replaced.item.id);
    await updateItem(ctx.db, actor, placed, { name });
  }
  reply.code(existing ? 204 : 201).send();
}

/** The item's name for a name shown in a path: a document's without its `.md`, which it must keep. */
function itemNameFor(item: TItem, shown: string): string {
  if (item.kind !== 'document') return shown;
  if (!shown.toLowerCase().endsWith(DOCUMENT_EXTENSION) || shown.length === DOCUMENT_EXTENSION.length) {
    throw new DavRefusal(403, `A document is shown as Markdown: its name ends with ${DOCUMENT_EXTENSION}.`);
  }
  return shown.slice(0, -DOCUMENT_EXTENSION.length);
}
