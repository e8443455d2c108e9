import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { userForIdentity } from '../apps/server/src/modules/auth/sign-in.service.ts';
import { createApiToken } from '../apps/server/src/modules/tokens/tokens.service.ts';
import { freePort, startTestApp } from '../apps/server/src/testing/test-app.ts';
import { percentile, report } from './report.ts';

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
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-'));
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrate(database);
  const t = await startTestApp({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { db: { database, url: process.env.DATABASE_URL, drop: () => database.close() } });
  const user = await userForIdentity(t.ctx, {
    issuer: 'https://bench.example',
    subject: `bench-${Date.now()}`,
    email: 'bench@example.com',
    emailVerified: true,
    name: 'Bench',
    picture: undefined,
    idToken: undefined,
    refreshToken: undefined,
  });
  const { token } = await createApiToken(t.ctx.db, user.id, { name: 'bench' });
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
  await t.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
