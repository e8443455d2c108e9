import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { useEffect, useMemo, useRef, useState } from 'react';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { CLIENT_ID } from '../../../lib/api-client.ts';

/** Reasons the server gives for closing a document whose access went (PRODUCT.md §8 codes). */
const ACCESS_GONE = new Set(['not_found', 'unauthenticated', 'session_expired', 'forbidden']);

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
export function useCollaboration(documentId: string, options: { keepOffline: boolean; userId: string; onAccessChange?: (readOnly: boolean) => void }) {
  const { keepOffline, userId } = options;
  const onAccessChange = useRef(options.onAccessChange);
  useEffect(() => {
    onAccessChange.current = options.onAccessChange;
  });
  // Built here, inert: the socket connects and this browser's copy is read in the effect below.
  const { document, socket, provider, copyName } = useMemo(() => {
    const document = new Y.Doc();
    const socket = new HocuspocusProviderWebsocket({ url: `${window.location.origin.replace(/^http/, 'ws')}/collab`, autoConnect: false });
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: documentId, document, token: `session:${CLIENT_ID}` });
    // One copy per person and document: someone else signing in on this browser starts from the server.
    return { document, socket, provider, copyName: keepOffline ? `cabinet:${userId}:${documentId}` : undefined };
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
      live = false;
      provider.destroy();
      socket.destroy();
      void local?.destroy();
      document.destroy();
    };
  }, [document, socket, provider, copyName]);

  return { document, provider, state, people };
}
