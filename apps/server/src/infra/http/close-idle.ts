import type { FastifyInstance } from 'fastify';

/**
 * Node's close ends the connections idle at that moment and waits for the others: a keep-alive connection whose
 * answer was still being sent then stayed open after it, until a time limit of Node's ended it about a minute later
 * (test apps' closes waited 60 s, now and then). While the server closes, the connections that have gone idle since
 * are ended too, every 250 ms; a request under way is never cut.
 */
export function closeConnectionsAsTheyIdle(app: FastifyInstance) {
  app.addHook('preClose', (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 250).unref();
    app.server.once('close', () => clearInterval(sweep));
    done();
  });
}
