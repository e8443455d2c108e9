import { Agent, request, type IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { given } from './testing/given.ts';
import { startTestApp } from './testing/test-app.ts';

/** A GET through `agent`, answered once its headers arrive (its body left to the caller). */
const get = (url: string, agent: Agent, headers: Record<string, string> = {}) =>
  new Promise<IncomingMessage>((resolve, reject) => request(url, { agent, headers }, resolve).on('error', reject).end());

describe('closing the server', () => {
  it('sends an answer under way whole, then ends its kept-alive connection, not a minute later', async () => {
    const test = await startTestApp();
    const agent = new Agent({ keepAlive: true });
    let closing: Promise<void> | undefined;
    try {
      const people = given(test.ctx, test.url);
      const ada = await people.person('Ada');
      const bytes = randomBytes(8 * 1024 * 1024);
      const file = (await people.upload(ada, ada.workspace.rootId, 'large.bin', bytes)).body.item;
      const redirect = await get(`${test.url}/api/v1/items/${file.id}/content?download=1`, agent, { authorization: `Bearer ${ada.token}` });
      redirect.resume();
      const location = new URL(redirect.headers.location!, test.url).href;
      // The download's answer is still being sent when the close begins: its reader holds back.
      const body = await get(location, agent);
      expect(body.statusCode).toBe(200);
      body.pause();
      const socket = body.socket;
      let connectionClosed = false;
      socket.once('close', () => (connectionClosed = true));
      closing = test.close();
      await new Promise((r) => setTimeout(r, 300));
      expect(connectionClosed).toBe(false);
      // Read to its end the answer is whole, and the connection it came on, kept alive, goes with the server's close.
      let received = 0;
      body.on('data', (chunk: Buffer) => (received += chunk.length));
      const ended = new Promise((resolve, reject) => body.on('end', resolve).on('error', reject));
      body.resume();
      await ended;
      expect(received).toBe(bytes.length);
      await expect.poll(() => connectionClosed, { timeout: 10_000 }).toBe(true);
      await closing;
    } finally {
      agent.destroy();
      await (closing ?? test.close());
    }
  });
});
