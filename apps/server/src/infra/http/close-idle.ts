import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Node's close ends the connections idle at that moment and waits for the others to end: a kept-alive connection whose
 * answer was still being sent then stayed open after it, until Node's time limits ended it about a minute later (test
 * apps' closes waited 60 s, now and then). Once the server is closing, each answer under way closes its connection
 * when it has been sent whole: one not begun says `Connection: close`, one begun ends its connection on `finish` (every
 * byte handed to the system); an answer to a request arriving meanwhile closes its connection too. Nothing is cut.
 */
export function closeConnectionsAsTheyIdle(app: FastifyInstance) {
  const underWay = new Set<ServerResponse>();
  let closing = false;
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) {
      res.shouldKeepAlive = false;
      return;
    }
    const socket = res.socket;
    if (socket) res.once('finish', () => socket.end());
  };
  app.server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) closeAfter(res);
    underWay.add(res);
    res.once('close', () => underWay.delete(res));
  });
  app.addHook('preClose', (done) => {
    closing = true;
    for (const res of underWay) closeAfter(res);
    done();
  });
}
