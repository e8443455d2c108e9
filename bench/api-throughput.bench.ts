import { Worker } from 'node:worker_threads';
import { bareApi } from './bare-api.ts';
import { report } from './report.ts';
import { startBenchApp } from './setup.ts';

const CONNECTIONS = 50;
const DURATION_MS = Number(process.env.BENCH_API_MS ?? 5000);
const WARM_UP_MS = 1000;
const RUNS = 5;

/** Answers per second from the load generator (a worker thread of its own) against one URL. */
function load(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load.mjs', import.meta.url), {
      workerData: { url, headers, connections: CONNECTIONS, durationMs: DURATION_MS, warmUpMs: WARM_UP_MS },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/**
 * (f) api-throughput: authenticated metadata calls per second, `GET /api/v1/me` with an API
 * token, 50 keep-alive connections at once, through all of Cabinet (its hooks, the token and user
 * lookup, the answer's schema). Baseline: a bare Fastify route on the same database and driver
 * answering the same JSON after one indexed query (the token joined to its user, live tokens
 * only), loaded by the same client at the same concurrency. The ratio is what the rest of
 * Cabinet's request path costs.
 */
export default async function apiThroughput() {
  // Its own database (on PostgreSQL with DATABASE_URL), not the server's default one.
  const app = await startBenchApp();
  const { t, token } = app;
  const db = t.ctx.db;

  const bare = await bareApi(db, (api, authenticate) =>
    api.get('/me', async (req, reply) => {
      const u = await authenticate(req);
      if (!u) return reply.code(401).send({ code: 'unauthenticated' });
      const user = {
        id: u.id,
        email: u.email,
        emailVerified: u.email_verified,
        name: u.name,
        avatarUrl: u.avatar_url,
        isInstanceAdmin: u.is_instance_admin,
        createdAt: new Date(u.created_at).toISOString(),
      };
      return { user, via: 'token', sessionId: null };
    }),
  );

  // Both answer the same thing to the same caller.
  const headers = { authorization: `Bearer ${token}` };
  const cabinetUrl = `${t.url}/api/v1/me`;
  const bareUrl = `${bare.url}/me`;
  const [fromCabinet, fromBare] = await Promise.all([cabinetUrl, bareUrl].map(async (url) => (await fetch(url, { headers })).json()));
  if (JSON.stringify(fromCabinet) !== JSON.stringify(fromBare))
    throw new Error(`The baseline answers otherwise: ${JSON.stringify(fromBare)} / ${JSON.stringify(fromCabinet)}`);

  const values: number[] = [];
  const baselines: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    baselines.push(await load(bareUrl, headers));
    values.push(await load(cabinetUrl, headers));
  }
  report(`api-throughput GET /me, ${CONNECTIONS} connections`, 'req/s', values, baselines);
  await bare.close();
  await app.close();
}
