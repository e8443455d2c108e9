import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { userForIdentity } from '../apps/server/src/modules/auth/sign-in.service.ts';
import { createApiToken } from '../apps/server/src/modules/tokens/tokens.service.ts';
import { callingRoutes, withToken, type RawCall, type RouteCall } from '../apps/server/src/testing/route-call.ts';
import { startTestApp, type TestApp } from '../apps/server/src/testing/test-app.ts';
import { workspacesApi } from '@cabinet/contracts';

export interface BenchApp {
  t: TestApp;
  token: string;
  workspace: { id: string; rootId: string; homeId: string };
  dataDir: string;
  /** The SQL statements run since they were last taken (anything running meanwhile included). */
  takeStatements(): string[];
  /** Calls as the bench's person (apps/server/src/testing/route-call.ts). */
  call: RouteCall;
  raw: RawCall;
  close(): Promise<void>;
}

/** A real Cabinet in this process (PostgreSQL when DATABASE_URL is set, else PGlite), with a user and an API token. */
export async function startBenchApp(settings: Record<string, string> = {}): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-'));
  let statements: string[] = [];
  const own = process.env.DATABASE_URL ? await benchDatabase(process.env.DATABASE_URL, process.env.BENCH_DATABASE) : undefined;
  const database = await openDatabase({ databaseUrl: own?.url, dataDir, onQuery: (sql) => void statements.push(sql) });
  await migrate(database);
  const t = await startTestApp(
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', CHECK_RESPONSES: 'false', ...settings },
    { db: { database, url: own?.url, drop: () => database.close() } },
  );
  const user = await userForIdentity(t.ctx, {
    issuer: 'https://bench.example',
    subject: `bench-${Date.now()}-${Math.random()}`,
    email: `bench-${Date.now()}@example.com`,
    emailVerified: true,
    name: 'Bench',
    picture: undefined,
    idToken: undefined,
    refreshToken: undefined,
  });
  const { token } = await createApiToken(t.ctx.db, user.id, { name: 'bench' });
  const { call, raw } = callingRoutes(withToken(t.url, token));
  const ws = (await call(workspacesApi.list)).body.items[0]!;
  return {
    t,
    token,
    workspace: { id: ws.id, rootId: ws.rootId, homeId: ws.homeId },
    dataDir,
    takeStatements() {
      const taken = statements;
      statements = [];
      return taken;
    },
    call,
    raw,
    async close() {
      await t.close();
      await database.close().catch(() => {});
      await own?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A database of the benchmark's own on the PostgreSQL server of DATABASE_URL, dropped afterwards;
 * or, with BENCH_DATABASE=<name>, that one, made if missing and kept (a benchmark whose data takes
 * long to build, search-1m, measures again on what an earlier run built).
 */
export async function benchDatabase(base: string, kept?: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (kept && !/^[a-z_][a-z0-9_]*$/.test(kept)) throw new Error('BENCH_DATABASE: a lower-case name of letters, digits and _');
  const name = kept ?? `cabinet_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const exists = kept ? (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [kept])).rowCount : 0;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      if (kept) return;
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
