import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Node's close ends the connections idle at that moment and waits for the others to end: a kept-alive connection whose
 * answer was still being sent then stayed open after it, until Node's time limits ended it about a minute later (test
 * apps' closes waited 60 s, now and then). A closing server is stopping as a draining one is: from then on each answer
 * says `Connection: close` (app.ts's onSend, ADR 0078); an answer already begun ends its connection on `finish` (every
 * byte handed to the system). Nothing is cut.
 */
export function closeConnectionsOnceAnswered(app: FastifyInstance, readiness: { stopping: boolean }) {
  const underWay = new Set<ServerResponse>();
  app.server.on('request', (_req: unknown, res: ServerResponse) => {
    underWay.add(res);
    res.once('close', () => underWay.delete(res));
  });
  app.addHook('preClose', (done) => {
    readiness.stopping = true;
    for (const res of underWay) {
      const socket = res.socket;
      if (res.headersSent && socket) res.once('finish', () => socket.end());
    }
    done();
  });
}
