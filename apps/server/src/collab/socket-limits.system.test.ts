import { documentText } from '@cabinet/doc-schema/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import WebSocket from 'ws';
import { addParagraph, collabClients, until } from '../testing/collab-client.ts';
import { given } from '../testing/given.ts';
import { useTestApp, type TestApp } from '../testing/test-app.ts';

/** A bare socket on /collab that says nothing, as a flood of them would. */
function bareSocket(baseUrl: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/collab`, { headers });
  const state = { open: false, refused: undefined as number | undefined, closed: undefined as { code: number; reason: string } | undefined };
  ws.on('open', () => void (state.open = true));
  ws.on('unexpected-response', (req, res) => {
    state.refused = res.statusCode;
    req.destroy();
  });
  ws.on('close', (code, reason) => void (state.closed = { code, reason: reason.toString() }));
  ws.on('error', () => {});
  return { ws, state };
}

const directApp = useTestApp({ COLLAB_SOCKETS_PER_ADDRESS: '3' });
const proxiedApp = useTestApp({ COLLAB_SOCKETS_PER_ADDRESS: '3', TRUST_PROXY: 'true' }, () => ({ db: directApp.app.db }));
let direct: TestApp;
let proxied: TestApp;
const opened: WebSocket[] = [];
const open = (baseUrl: string, headers?: Record<string, string>) => {
  const socket = bareSocket(baseUrl, headers);
  opened.push(socket.ws);
  return socket;
};

beforeAll(() => {
  [direct, proxied] = [directApp.app, proxiedApp.app];
});
afterAll(() => opened.forEach((ws) => ws.terminate()));

describe('sockets that never authenticate', () => {
  it('are closed after a few seconds, while an editor’s socket stays open', async () => {
    const clients = collabClients(proxied.url);
    try {
      const g = given(proxied.ctx, proxied.url);
      const ada = await g.person('Ada');
      const { id } = await g.document(ada, ada.workspace.homeId, 'Plan');
      const editor = clients.connect(id, ada.token, { 'x-forwarded-for': '198.51.100.1' });
      const { state: silent } = open(proxied.url, { 'x-forwarded-for': '198.51.100.2' });
      await until(() => editor.outcome.synced && silent.open, 'the editor to sync and the silent socket to open');
      await until(() => silent.closed !== undefined, 'the silent socket to be closed', 30_000);
      expect(silent.closed).toEqual({ code: 4401, reason: 'unauthenticated' });

      addParagraph(editor.document, 'Still editing');
      await until(() => editor.provider.unsyncedChanges === 0, 'the editor’s edit to be acknowledged');
      expect(editor.outcome.closed).toBeUndefined();
      const reader = clients.connect(id, ada.token, { 'x-forwarded-for': '198.51.100.1' });
      await until(() => reader.outcome.synced && documentText(reader.document) === 'Still editing', 'a reader to see the edit');
    } finally {
      clients.destroyAll();
    }
  });

  it('has its connection cut soon after the deadline even when the client never answers the close', async () => {
    // A client below the WebSocket library: it opens the socket and never answers what it is sent.
    const url = new URL(proxied.url);
    const tcp = net.connect(Number(url.port), url.hostname);
    const state = { upgraded: false, ended: false };
    tcp.on('data', (chunk) => void (state.upgraded ||= chunk.toString('latin1').startsWith('HTTP/1.1 101')));
    tcp.on('close', () => void (state.ended = true));
    tcp.on('error', () => {});
    tcp.write(
      [
        'GET /collab HTTP/1.1',
        `Host: ${url.host}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        'X-Forwarded-For: 198.51.100.3',
        '',
        '',
      ].join('\r\n'),
    );
    try {
      await until(() => state.upgraded, 'the socket to open');
      // The deadline is 10 s; without cutting the connection it would stay open 30 s longer.
      await until(() => state.ended, 'the connection to be cut', 20_000);
    } finally {
      tcp.destroy();
    }
  });
});

describe('sockets per address', () => {
  it('refuses an address over its cap (X-Forwarded-For does not count without TRUST_PROXY), and takes it again once one closes', async () => {
    const three = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((ip) => open(direct.url, { 'x-forwarded-for': ip }));
    await until(() => three.every((s) => s.state.open), 'three sockets to open');
    const { state: fourth } = open(direct.url, { 'x-forwarded-for': '10.0.0.4' });
    await until(() => fourth.refused !== undefined, 'the fourth to be refused');
    expect(fourth.refused).toBe(429);

    three[0]!.ws.close();
    await until(() => three[0]!.state.closed !== undefined, 'one socket to close');
    const { state: again } = open(direct.url);
    await until(() => again.open || again.refused !== undefined, 'another socket to be answered');
    expect(again.open).toBe(true);
  });

  it('counts each forwarded address apart behind a trusted proxy', async () => {
    const first = [1, 2, 3].map(() => open(proxied.url, { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }).state);
    await until(() => first.every((s) => s.open), 'three sockets from one caller to open');
    const { state: fourth } = open(proxied.url, { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' });
    const { state: other } = open(proxied.url, { 'x-forwarded-for': '203.0.113.8, 10.0.0.1' });
    await until(() => fourth.refused !== undefined && other.open, 'the same caller to be refused and another let in');
    expect(fourth.refused).toBe(429);
  });
});
