import { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useMemo, useState } from 'react';
import * as Y from 'yjs';

/** How the connection to the collaboration server stands, in the words the page shows. */
export type SyncState = 'connecting' | 'saving' | 'saved' | 'offline' | 'refused';

export interface Collaborator {
  clientId: number;
  name: string;
  color: string;
}

/** The document's shared state, kept in step with everyone else on /collab (the session cookie signs the socket in). */
export function useCollaboration(documentId: string) {
  const { document, provider } = useMemo(() => {
    const document = new Y.Doc();
    const provider = new HocuspocusProvider({ url: `${window.location.origin.replace(/^http/, 'ws')}/collab`, name: documentId, document, token: 'session' });
    return { document, provider };
  }, [documentId]);
  const [state, setState] = useState<SyncState>('connecting');
  const [people, setPeople] = useState<Collaborator[]>([]);

  useEffect(() => {
    const update = () => {
      if (!navigator.onLine || provider.configuration.websocketProvider.status !== 'connected') setState((s) => (s === 'refused' ? s : provider.isSynced ? 'offline' : 'connecting'));
      else setState(!provider.isSynced ? 'connecting' : provider.hasUnsyncedChanges ? 'saving' : 'saved');
    };
    const refused = () => setState('refused');
    const present = () => {
      const states = provider.awareness?.getStates() ?? new Map();
      setPeople([...states].flatMap(([clientId, s]) => (s.user && clientId !== document.clientID ? [{ clientId, name: String(s.user.name), color: String(s.user.color) }] : [])));
    };
    // The provider does not notice the network coming back by itself.
    const online = () => void provider.connect();
    provider.on('status', update);
    provider.on('synced', update);
    provider.on('unsyncedChanges', update);
    provider.on('authenticationFailed', refused);
    provider.awareness?.on('change', present);
    window.addEventListener('online', online);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', update);
      provider.destroy();
      document.destroy();
    };
  }, [document, provider]);

  return { document, provider, state, people };
}
