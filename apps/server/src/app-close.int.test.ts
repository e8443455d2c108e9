import { request, Agent } from 'node:http';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { given } from './testing/given.ts';
import { startTestApp } from './testing/test-app.ts';

describe('closing the server', () => {
  it('ends a kept-alive connection once the answer it was sending at the close has gone, not a minute later', async () => {
    const test = await startTestApp();
    const agent = new Agent({ keepAlive: true });
    try {
      const ada = await given(test.ctx, test.url).person('Ada');
      const bytes = randomBytes(8 * 1024 * 1024);
      const file = (await given(test.ctx, test.url).upload(ada, ada.workspace.rootId, 'large.bin', bytes)).body.item;
      // The download's answer is still being sent when the close begins: its reader holds back.
      const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
        request(`${test.url}/api/v1/items/${file.id}/content?download=1`, { agent, headers: { authorization: `Bearer ${ada.token}` } }, resolve)
          .on('error', reject)
          .end(),
      );
      const redirected = response.headers.location;
      response.resume();
      const body = await new Promise<import('node:http').IncomingMessage>((resolve, reject) =>
        request(redirected!.startsWith('http') ? redirected! : `${test.url}${redirected}`, { agent }, resolve)
          .on('error', reject)
          .end(),
      );
      expect(body.statusCode).toBe(200);
      body.pause();
      let closed = false;
      const closing = test.close().then(() => (closed = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(closed).toBe(false);
      // Read to its end, the answer is whole, and the connection it came on, idle, goes with the server's close.
      let received = 0;
      body.on('data', (chunk: Buffer) => (received += chunk.length));
      const ended = new Promise((resolve, reject) => body.on('end', resolve).on('error', reject));
      body.resume();
      await ended;
      expect(received).toBe(bytes.length);
      await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
      await closing;
    } finally {
      agent.destroy();
    }
  });
});
