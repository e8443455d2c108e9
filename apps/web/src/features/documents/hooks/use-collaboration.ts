import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { useEffect, useMemo, useRef, useState } from 'react';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { CLIENT_ID } from '../../../lib/api-client.ts';
import { copyNameOf, SNAPSHOT_KEY, type DocumentSnapshot } from './use-document-snapshot.ts';

/** Reasons the server gives for closing a document whose access went (PRODUCT.md §8 codes). */
const ACCESS_GONE = new Set(['not_found', 'unauthenticated', 'session_expired', 'forbidden']);

/** After the last change, how long the document stays still before its snapshot is kept again (then when the browser is idle). */
const KEEP_AFTER_MS = 1000;
/** And at most this often while it keeps changing: each keeping writes the whole document's HTML. */
const KEEP_EVERY_MS = 10_000;

/** The document's state as its snapshot notes it: what it holds and what it deleted (a deletion moves no state vector). */
function stateOf(document: Y.Doc): string {
  const bytes = Y.encodeSnapshot(Y.snapshot(document));
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** How the connection to the collaboration server stands, in the words the page shows. */
export type SyncState = 'connecting' | 'saving' | 'saved' | 'offline' | 'refused';

export interface Collaborator {
  clientId: number;
  name: string;
  color: string;
}

/**
 * The document's shared state, kept in step with everyone else on /collab (the session cookie
 * signs the socket in). An editor's copy is also kept in this browser (IndexedDB), so typing goes
 * on without a network and merges when it comes back; a reader keeps none, since the server would
 * drop what a reader's copy holds anyway.
 */
export function useCollaboration(
  documentId: string,
  options: {
    keepOffline: boolean;
    userId: string;
    onAccessChange?: (readOnly: boolean) => void;
    /**
     * What the page shows of the document now, for its snapshot (ADR 0052): undefined while the
     * editor does not hold the whole document yet. Kept beside the copy a moment after each change.
     */
    snapshot?: (document: Y.Doc) => Omit<DocumentSnapshot, 'state'> | undefined;
    /** The state of the snapshot shown while the document opened, if one was: kept again only once the document differs. */
    shownState?: string;
  },
) {
  const { keepOffline, userId } = options;
  const onAccessChange = useRef(options.onAccessChange);
  const snapshot = useRef(options.snapshot);
  const shownState = useRef(options.shownState);
  useEffect(() => {
    onAccessChange.current = options.onAccessChange;
    snapshot.current = options.snapshot;
  });
  // Built here, inert: the socket connects and this browser's copy is read in the effect below.
  const { document, socket, provider, copyName } = useMemo(() => {
    const document = new Y.Doc();
    const socket = new HocuspocusProviderWebsocket({ url: `${window.location.origin.replace(/^http/, 'ws')}/collab`, autoConnect: false });
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: documentId, document, token: `session:${CLIENT_ID}` });
    // One copy per person and document: someone else signing in on this browser starts from the server.
    return { document, socket, provider, copyName: keepOffline ? copyNameOf(userId, documentId) : undefined };
  }, [documentId, keepOffline, userId]);
  const [state, setState] = useState<SyncState>('connecting');
  const [people, setPeople] = useState<Collaborator[]>([]);

  useEffect(() => {
    const local = copyName ? new IndexeddbPersistence(copyName, document) : undefined;
    // The stages of opening, marked for measuring (bench/doc-open): the first state from elsewhere (the
    // server or this browser's copy) starts being applied, is in the document, is in the editor.
    let opening = true;
    const stage =
      (name: string, last = false) =>
      (transaction: Y.Transaction) => {
        if (!opening || transaction.local) return;
        performance.mark(name);
        if (last) opening = false;
      };
    document.on('beforeTransaction', stage('cabinet:document-state'));
    document.on('beforeObserverCalls', stage('cabinet:document-applied'));
    document.on('afterTransaction', stage('cabinet:document-rendered', true));
    let live = true;
    let localLoaded = false;
    const update = () => {
      setState((s) => {
        if (s === 'refused') return s;
        const connected = navigator.onLine && provider.configuration.websocketProvider.status === 'connected';
        if (!connected) return provider.isSynced || localLoaded ? 'offline' : 'connecting';
        return !provider.isSynced ? 'connecting' : provider.hasUnsyncedChanges ? 'saving' : 'saved';
      });
    };
    const refused = () => {
      setState('refused');
      // What this browser kept of a document it may no longer open goes too.
      void local?.clearData();
    };
    const present = () => {
      const states = provider.awareness?.getStates() ?? new Map();
      setPeople(
        [...states].flatMap(([clientId, s]) =>
          s.user && clientId !== document.clientID ? [{ clientId, name: String(s.user.name), color: String(s.user.color) }] : [],
        ),
      );
    };
    // The provider does not notice the network coming back by itself.
    const online = () => {
      void socket.connect();
      update();
    };
    // The socket opens at once, but the document is asked for once this browser's copy is read: the
    // server then sends only what the copy lacks, rather than the whole document again for the copy
    // to store once more (it grew by a whole document at every opening).
    void socket.connect();
    const attach = () => {
      if (live) provider.attach();
    };
    if (local) {
      void local.whenSynced.then(() => {
        localLoaded = true;
        update();
        attach();
      });
      // Without IndexedDB (refused by the browser) there is no copy to wait for.
      local._db.catch(attach);
    } else attach();
    // The snapshot is kept again a moment after the document changes (here or anywhere else), at
    // most every ten seconds while it keeps changing, and when the page is left or hidden with a
    // change not yet kept; not at each opening of an unchanged document.
    let changed = false;
    let closing = false;
    let keeping: ReturnType<typeof setTimeout> | undefined;
    let keptAt = 0;
    const keep = () => {
      keeping = undefined;
      if (!local || !changed || !live) return;
      // An empty document has nothing to show: what was kept of it goes.
      if (document.getXmlFragment('default').length === 0) {
        changed = false;
        return void local.del(SNAPSHOT_KEY).catch(() => undefined);
      }
      const shown = snapshot.current?.(document);
      if (!shown) return void keepLater(); // The editor does not hold the whole document yet.
      changed = false;
      keptAt = Date.now();
      local.set(SNAPSHOT_KEY, JSON.stringify({ ...shown, state: stateOf(document) } satisfies DocumentSnapshot)).then(
        () => performance.mark('cabinet:document-kept'),
        () => (changed = true),
      );
    };
    const keepLater = () => {
      if (closing) return;
      clearTimeout(keeping);
      const wait = Math.max(KEEP_AFTER_MS, keptAt + KEEP_EVERY_MS - Date.now());
      keeping = setTimeout(() => (window.requestIdleCallback ? window.requestIdleCallback(keep, { timeout: KEEP_AFTER_MS }) : keep()), wait);
    };
    const documentChanged = (_update: Uint8Array, origin: unknown) => {
      if (origin === local) return;
      changed = true;
      keepLater();
    };
    const leaving = () => {
      if (changed) keep();
    };
    const hidden = () => {
      if (window.document.visibilityState === 'hidden') leaving();
    };
    if (local) {
      document.on('update', documentChanged);
      window.addEventListener('pagehide', leaving);
      window.document.addEventListener('visibilitychange', hidden);
      void local.whenSynced.then(() => {
        if (stateOf(document) === shownState.current) return;
        changed = true;
        keepLater();
      });
    }
    provider.on('status', update);
    provider.on('synced', update);
    provider.on('unsyncedChanges', update);
    provider.on('authenticationFailed', refused);
    // The server says when the person's role on the document changed while it was open (a share
    // lowered or raised); access taken away closes the socket, and the reconnection is refused.
    const told = ({ payload }: { payload: string }) => {
      try {
        const message = JSON.parse(payload) as { type?: string; readOnly?: boolean };
        if (message.type === 'access' && typeof message.readOnly === 'boolean') onAccessChange.current?.(message.readOnly);
      } catch {
        // Not a message of ours.
      }
    };
    provider.on('stateless', told);
    // Access taken away while the document is open closes it, with the reason as an error code.
    const closed = ({ event }: { event: { reason?: string } }) => {
      if (event.reason && ACCESS_GONE.has(event.reason)) refused();
    };
    provider.on('close', closed);
    provider.awareness?.on('change', present);
    window.addEventListener('online', online);
    // Without a network the socket is closed at once rather than left to time out: edits then wait
    // in this browser, and the page says so.
    const offline = () => {
      socket.disconnect();
      update();
    };
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      window.removeEventListener('pagehide', leaving);
      window.document.removeEventListener('visibilitychange', hidden);
      closing = true;
      clearTimeout(keeping);
      try {
        leaving();
      } catch {
        // Not kept this time: the next opening keeps it.
      }
      live = false;
      provider.destroy();
      socket.destroy();
      void local?.destroy();
      document.destroy();
    };
  }, [document, socket, provider, copyName]);

  return { document, provider, state, people };
}
