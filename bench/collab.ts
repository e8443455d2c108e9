import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';

export { addParagraph, until } from '../apps/server/src/testing/collab-client.ts';

/** An editor as a script connects: its own socket, its own copy of the document. */
export function editor(baseUrl: string, name: string, token: string) {
  const document = new Y.Doc();
  const websocketProvider = new HocuspocusProviderWebsocket({ url: `${baseUrl.replace(/^http/, 'ws')}/collab`, WebSocketPolyfill: WebSocket });
  let synced = false;
  let markSynced = () => {};
  const whenSynced = new Promise<void>((resolve) => (markSynced = resolve));
  const provider = new HocuspocusProvider({
    websocketProvider,
    name,
    document,
    token,
    onSynced: () => {
      synced = true;
      markSynced();
    },
  });
  provider.attach();
  const destroy = () => {
    // A socket still connecting (a run given up) reports being closed as an error: heard here, not thrown at the process.
    (websocketProvider.webSocket as WebSocket | null)?.on('error', () => {});
    provider.destroy();
    websocketProvider.destroy();
  };
  return { document, provider, synced: () => synced, whenSynced, destroy };
}
