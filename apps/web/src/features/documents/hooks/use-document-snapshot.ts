import { useEffect, useState } from 'react';
import { matchPath } from 'react-router';
import { lastPerson, rememberPerson } from '../../../lib/last-person.ts';
import { pagePatterns } from '../../../lib/page-routes.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { meQuery } from '../../auth/api/use-me.ts';
import { itemQuery } from '../../items/api/use-items.ts';

/**
 * What a document looked like when this browser last had it open: its text as HTML, kept beside
 * this browser's copy of the document (ADR 0052). A document opened again shows it at once,
 * read-only, while the editor's code, the copy and the server's state arrive; the editor takes its
 * place as soon as it holds the document.
 */
export interface DocumentSnapshot {
  html: string;
  /** The Y.Doc's state (its state vector and deletions, `Y.encodeSnapshot`, base64) the HTML was made from: a copy that differs is kept again. */
  state: string;
}

/** This browser's copy of a document, per person (someone else signing in here starts from the server). */
export const copyNameOf = (userId: string, documentId: string) => `cabinet:${userId}:${documentId}`;

/** The snapshot's key in the copy's store of other values (y-indexeddb's `custom`). */
export const SNAPSHOT_KEY = 'snapshot';

/**
 * Longer than this after the page asks for it, the snapshot is not waited for: the editor does not wait. It counts from
 * the page, not from a read started early: until the page's code is in, nothing waits (and on a busy machine its code
 * alone may take longer).
 */
const READ_LIMIT_MS = 500;

/** The snapshot kept as `value` (JSON, as y-indexeddb keeps strings), if it is one. */
function snapshotIn(value: unknown): DocumentSnapshot | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const kept = JSON.parse(value) as Partial<DocumentSnapshot> | null;
    return typeof kept?.html === 'string' && typeof kept.state === 'string' ? (kept as DocumentSnapshot) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens this browser's copy `copyName` for `work`, without the editor's code, and closes it once
 * `work` has started its transaction (which still ends); `onMissing` when there is no copy (none is
 * made by asking: the upgrade that would make it is aborted) or IndexedDB refuses.
 */
function withCopy(copyName: string, work: (db: IDBDatabase) => void, onMissing: () => void = () => undefined): void {
  let request: IDBOpenDBRequest;
  try {
    request = indexedDB.open(copyName);
  } catch {
    return onMissing();
  }
  request.onupgradeneeded = () => request.transaction?.abort();
  request.onerror = (event) => {
    event.preventDefault();
    onMissing();
  };
  request.onsuccess = () => {
    const db = request.result;
    try {
      work(db);
    } catch {
      onMissing(); // No store of other values: nothing kept.
    } finally {
      db.close();
    }
  };
}

/** The snapshot kept in `copyName`; undefined when there is none, or IndexedDB refuses (a page waits for it no longer than READ_LIMIT_MS). */
function readSnapshot(copyName: string): Promise<DocumentSnapshot | undefined> {
  return new Promise((resolve) => {
    withCopy(
      copyName,
      (db) => {
        const read = db.transaction('custom', 'readonly').objectStore('custom').get(SNAPSHOT_KEY);
        read.onsuccess = () => resolve(snapshotIn(read.result));
        read.onerror = () => resolve(undefined);
      },
      () => resolve(undefined),
    );
  });
}

/** A shown snapshot: the state it was made from, and its text as an element built once. */
export interface ShownSnapshot {
  state: string;
  element: HTMLElement;
}

/** Blocks laid out together: the browser skips laying out a section out of sight (`content-visibility`), and watches a section, not a block. */
const SECTION_BLOCKS = 50;

/**
 * The element the snapshot's HTML is parsed into: inert (nothing in it can be clicked or focused)
 * until the editor replaces it, its blocks in sections that are laid out only when in sight.
 */
function snapshotElement(html: string): HTMLElement {
  const template = document.createElement('template');
  template.innerHTML = html;
  // A picture is fetched when it comes into sight, not as soon as the element is built.
  for (const image of template.content.querySelectorAll('img')) image.loading = 'lazy';
  const element = document.createElement('div');
  element.className = 'cabinet-document cabinet-code-colours cabinet-snapshot';
  element.inert = true;
  const blocks = [...template.content.children];
  for (let i = 0; i < blocks.length; i += SECTION_BLOCKS) {
    const section = document.createElement('div');
    section.append(...blocks.slice(i, i + SECTION_BLOCKS));
    element.append(section);
  }
  return element;
}

/** A snapshot being read, and once read what was found (undefined inside: none). */
interface Read {
  promise: Promise<ShownSnapshot | undefined>;
  found?: { snapshot?: ShownSnapshot };
}

function startRead(copyName: string): Read {
  const read: Read = {
    promise: readSnapshot(copyName).then((kept) => {
      const snapshot = kept && { state: kept.state, element: snapshotElement(kept.html) };
      read.found = { snapshot };
      return snapshot;
    }),
  };
  return read;
}

/** Reads started before the page's code was in (a page opened at a document's address), each taken by the page that shows it. */
const early = new Map<string, Read>();

/** How long a read started early waits for its page (someone may go elsewhere before it shows). */
const EARLY_READ_KEPT_MS = 10_000;

/** Starts reading the snapshot of `copyName` now, for the document page about to open. */
function readSnapshotSoon(copyName: string): void {
  if (early.has(copyName)) return;
  early.set(copyName, startRead(copyName));
  setTimeout(() => early.delete(copyName), EARLY_READ_KEPT_MS);
}

/**
 * What the page at `path`, when it is a document's (`/w/:ws/d/<id>`), needs, asked for at once
 * beside the person and the workspace: the document's item, and its snapshot, for the person last
 * signed in here and for whoever the server says is signed in (the same one, mostly: read once).
 */
export function readAhead(path: string): void {
  const id = matchPath(pagePatterns.document, path)?.params.docId;
  if (!id) return;
  void queryClient.prefetchQuery(itemQuery(id));
  const person = lastPerson();
  if (person) readSnapshotSoon(copyNameOf(person, id));
  queryClient.fetchQuery(meQuery).then(
    (me) => readSnapshotSoon(copyNameOf(me.user.id, id)),
    () => undefined, // The shell asks again, and says what went wrong.
  );
}

/**
 * The snapshot of a document kept for `userId` (none while the person is unknown): `settled` once it
 * was looked for, `snapshot` when there was one, `copyName` the copy it is kept in. A read started
 * early and done already is shown at the first render.
 */
export function useDocumentSnapshot(
  userId: string | undefined,
  documentId: string,
): { settled: boolean; snapshot?: ShownSnapshot; copyName: string | undefined } {
  const copyName = userId && copyNameOf(userId, documentId);
  const [found, setFound] = useState<{ name: string; snapshot?: ShownSnapshot } | undefined>(() => {
    const done = copyName ? early.get(copyName)?.found : undefined;
    return done && { name: copyName!, snapshot: done.snapshot };
  });
  useEffect(() => {
    if (!userId || !copyName) return;
    rememberPerson(userId);
    const read = early.get(copyName) ?? startRead(copyName);
    early.delete(copyName);
    let live = true;
    const settle = (snapshot?: ShownSnapshot) => {
      clearTimeout(limit);
      if (live) setFound((was) => (was?.name === copyName ? was : { name: copyName, snapshot }));
    };
    const limit = setTimeout(settle, READ_LIMIT_MS);
    void read.promise.then(settle);
    return () => {
      live = false;
      clearTimeout(limit);
    };
  }, [userId, copyName]);
  const current = found?.name === copyName ? found : undefined;
  return { settled: !!current, snapshot: current?.snapshot, copyName };
}

/**
 * The snapshot of a document the person may no longer open (or only read: a reader keeps none) is
 * let go. The copy itself stays: it may hold edits not yet sent, of a document that is only in the
 * trash (ADR 0052).
 */
export function forgetSnapshot(copyName: string): void {
  withCopy(copyName, (db) => db.transaction('custom', 'readwrite').objectStore('custom').delete(SNAPSHOT_KEY));
}
