import { HocuspocusProvider, HocuspocusProviderWebsocket, MessageType } from '@hocuspocus/provider';
import { DOCUMENT_FRAGMENT } from '@cabinet/doc-schema';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { afterAll, beforeAll } from 'vitest';
import { given } from './given.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Clients of a test server's collaboration socket, as scripts or browsers open it; `destroyAll` closes them.
 * `retryMs`: the longest wait between tries to connect again (the provider's own default grows to 30 s, so a
 * server back after a restart may wait that long for its clients).
 */
export function collabClients(baseUrl: string, { retryMs }: { retryMs?: number } = {}) {
  const open: HocuspocusProvider[] = [];
  const sockets: HocuspocusProviderWebsocket[] = [];
  /** `headers` stand for a browser's cookie and Origin. */
  function connect(documentId: string, token: string, headers: Record<string, string> = {}) {
    const document = new Y.Doc();
    // `acks`: the server's answer to each change this client sent, in order: applied, or dropped (a read-only connection).
    const outcome = {
      failed: undefined as string | undefined,
      synced: false,
      closed: undefined as string | undefined,
      stateless: [] as string[],
      acks: [] as boolean[],
    };
    class BrowserLikeSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
        // A socket closed while it connects (a test ending) reports it here, not to the process.
        this.on('error', () => {});
      }
    }
    const websocketProvider = new HocuspocusProviderWebsocket({
      url: `${baseUrl.replace(/^http/, 'ws')}/collab`,
      WebSocketPolyfill: BrowserLikeSocket,
      ...(retryMs ? { minDelay: Math.min(1000, retryMs), maxDelay: retryMs } : {}),
    });
    const provider = new HocuspocusProvider({
      websocketProvider,
      name: documentId,
      document,
      token,
      onAuthenticationFailed: ({ reason }) => void (outcome.failed = reason),
      onSynced: () => void (outcome.synced = true),
      onStateless: ({ payload }) => void outcome.stateless.push(payload),
      onMessage: ({ message }) => {
        message.readVarString();
        if (message.readVarUint() === MessageType.SyncStatus) outcome.acks.push(message.readVarUint() === 1);
      },
      // The server ends this document's connection with a reason (the socket may carry others).
      onClose: ({ event }) => void (outcome.closed = event.reason || String(event.code)),
    });
    // A provider given its own socket does not attach by itself.
    provider.attach();
    open.push(provider);
    sockets.push(websocketProvider);
    return { provider, document, outcome };
  }
  return {
    connect,
    /** Closes every document, then every socket (a provider given its socket leaves it open, as a browser tab moving on would). */
    destroyAll: () => {
      open.forEach((p) => p.destroy());
      sockets.forEach((s) => s.destroy());
    },
  };
}

export async function until(check: () => boolean, what: string, timeoutMs = 8000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Types a paragraph at the end, as the editor would. */
export function addParagraph(document: Y.Doc, text: string) {
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [new Y.XmlText(text)]);
  document.getXmlFragment(DOCUMENT_FRAGMENT).push([paragraph]);
}

/**
 * The app a test file of documents needs: started before its tests with people to make (`g`) and
 * collaboration clients (`clients`), all closed after them. Read `t`, `g` and `clients` inside tests.
 */
export function collabTestApp() {
  let state: { t: TestApp; g: ReturnType<typeof given>; clients: ReturnType<typeof collabClients> } | undefined;
  beforeAll(async () => {
    const t = await startTestApp();
    state = { t, g: given(t.ctx, t.url), clients: collabClients(t.url) };
  });
  afterAll(async () => {
    state?.clients.destroyAll();
    await state?.t.close();
  });
  const started = () => {
    if (!state) throw new Error('The test app starts in beforeAll');
    return state;
  };
  return {
    get t() {
      return started().t;
    },
    get g() {
      return started().g;
    },
    get clients() {
      return started().clients;
    },
  };
}
