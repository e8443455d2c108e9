import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';

/** An editor as a script connects: its own socket, its own copy of the document. */
export function editor(baseUrl: string, name: string, token: string) {
  const document = new Y.Doc();
  const websocketProvider = new HocuspocusProviderWebsocket({ url: `${baseUrl.replace(/^http/, 'ws')}/collab`, WebSocketPolyfill: WebSocket });
  let synced = false;
  const provider = new HocuspocusProvider({ websocketProvider, name, document, token, onSynced: () => void (synced = true) });
  provider.attach();
  return { document, provider, synced: () => synced, destroy: () => (provider.destroy(), websocketProvider.destroy()) };
}

export async function until(check: () => boolean, what: string, timeoutMs = 60_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Appends a paragraph of text, as typing a line in the editor does. */
export function addParagraph(document: Y.Doc, text: string) {
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [new Y.XmlText(text)]);
  document.getXmlFragment('default').push([paragraph]);
}
