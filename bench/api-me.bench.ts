import Fastify from 'fastify';
import { freePort } from '../apps/server/src/testing/test-app.ts';
import { percentile, report } from './report.ts';
import { startBenchApp } from './setup.ts';

const REQUESTS = 1000;
const RUNS = 5;

async function p50(url: string, headers: Record<string, string>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - start);
  }
  return percentile(times, 50);
}

/**
 * An authenticated API call (token lookup, user load, JSON out) through all of Cabinet,
 * against a bare Fastify route answering the same JSON: what authentication and the stack cost.
 */
export default async function apiMe() {
  // Its own database (on PostgreSQL with DATABASE_URL), not the server's default one.
  const app = await startBenchApp();
  const { t, token } = app;
  const body = await (await fetch(`${t.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })).json();

  const bare = Fastify();
  bare.get('/me', async () => body);
  const barePort = await freePort();
  await bare.listen({ port: barePort, host: '127.0.0.1' });

  const values: number[] = [];
  const baselines: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    baselines.push(await p50(`http://127.0.0.1:${barePort}/me`, { authorization: `Bearer ${token}` }));
    values.push(await p50(`${t.url}/api/v1/me`, { authorization: `Bearer ${token}` }));
  }
  report('api-me p50', 'ms', values, baselines);
  await bare.close();
  await app.close();
}
