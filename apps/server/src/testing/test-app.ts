import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.ts';
import { createContext, type AppContext } from '../context.ts';
import { parseEnv } from '../env.ts';
import { given } from './given.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export interface TestApp {
  url: string;
  port: number;
  ctx: AppContext;
  app: FastifyInstance;
  db: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A port to listen on later. It is taken below the kernel's ephemeral range (32768–60999 here), from a block of its
 * own for each test worker: a port the kernel handed out by `listen(0)` and released could be handed to another
 * worker's server before this one listens on it (EADDRINUSE), and a test's app starts seconds after its port is chosen.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORTS_PER_WORKER; tries++) {
    const port = portBlock + (nextPort++ % PORTS_PER_WORKER);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${portBlock}–${portBlock + PORTS_PER_WORKER - 1}`);
}

const PORTS_PER_WORKER = 500;
const FIRST_PORT = 20_000;
const WORKER_BLOCKS = 24; // 20000–31999
const worker = Number(process.env.VITEST_POOL_ID ?? process.pid);
const portBlock = FIRST_PORT + (worker % WORKER_BLOCKS) * PORTS_PER_WORKER;
// Each process starts at its own place in its block: a second vitest run on the machine (same pool ids) rarely
// takes the same port at the same moment.
let nextPort = Math.floor(Math.random() * PORTS_PER_WORKER);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** What a test app may take from elsewhere: another app's database (two instances on one database), a browser app's build. */
export interface SharedParts {
  db?: TestDatabase;
  webDist?: string;
}

/** A real Cabinet server on a loopback port with its own data folder and database (and, given `webDist`, that browser app). */
export async function startTestApp(settings: Record<string, string> = {}, shared?: SharedParts): Promise<TestApp> {
  const port = settings.PORT ? Number(settings.PORT) : await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-test-'));
  const url = `http://127.0.0.1:${port}`;
  const db = shared?.db ?? (await createTestDatabase());
  const env = parseEnv({
    // As a server on PostgreSQL has it: what the commands run in it use (a backup's scratch database, ADR 0063).
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    // Every answer of every test is checked against its declared schema (ADR 0049).
    CHECK_RESPONSES: 'true',
    ...settings,
  });
  const ctx = await createContext(env, db.database);
  const app = await buildApp(ctx, { webDist: shared?.webDist ?? path.join(dataDir, 'no-web-build') });
  await app.listen({ port, host: '127.0.0.1' });
  // Each connection with the last request it carried, for a close that waits on one to say which (below).
  const connections = new Map<Socket, string>();
  app.server.on('connection', (socket: Socket) => {
    connections.set(socket, 'no request yet');
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (req: IncomingMessage) => connections.set(req.socket as Socket, `${req.method} ${req.url}`));
  app.server.on('upgrade', (req: IncomingMessage) => connections.set(req.socket as Socket, `upgraded: ${req.url}`));
  return {
    url,
    port,
    ctx,
    app,
    db,
    dataDir,
    async close() {
      // The server's close ends each connection once it is idle (infra/http/close-idle.ts, app.ts's onSend): one still open
      // after 15 s is a fault (a file's close waited 60 s for one, now and then, before), which the close names and
      // ends, if it carries a plain request (not a socket upgraded for the editor's sync, whose close saves documents).
      const lingering = setTimeout(() => {
        const left = [...connections].filter(([socket]) => !socket.destroyed);
        const open = process.getActiveResourcesInfo().reduce<Record<string, number>>((n, kind) => ({ ...n, [kind]: (n[kind] ?? 0) + 1 }), {});
        const told = left.map(([socket, last]) => `${last} (read ${socket.bytesRead} B, wrote ${socket.bytesWritten} B)`).join('; ') || 'none';
        console.warn(`the test app on port ${port} was still closing after 15 s: its connections ${told}; the process's ${JSON.stringify(open)}`);
        for (const [socket, last] of left) if (!last.startsWith('upgraded')) socket.destroy();
      }, 15_000);
      await app.close().finally(() => clearTimeout(lingering));
      if (!shared?.db) await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One test app for the file: started before its tests, closed after them. Read `app` and `given` inside tests and hooks
 * (they exist once the file's `beforeAll` has run). Settings that need work first (a free port, a bucket) can be given
 * as a function, run in that `beforeAll`; so can `shared`, for a second instance on the first one's database
 * (`useTestApp({}, () => ({ db: first.app.db }))`): started after the first, closed before it.
 */
export function useTestApp(settings: Record<string, string> | (() => Promise<Record<string, string>>) = {}, shared?: SharedParts | (() => SharedParts)) {
  let app: TestApp | undefined;
  let factories: ReturnType<typeof given> | undefined;
  beforeAll(async () => {
    const started = Date.now();
    app = await startTestApp(typeof settings === 'function' ? await settings() : settings, typeof shared === 'function' ? shared() : shared);
    // As slow a start as a slow close is worth a line (see `close`).
    if (Date.now() - started > 10_000) console.warn(`the test app on port ${app.port} took ${Math.round((Date.now() - started) / 1000)} s to start`);
    factories = given(app.ctx, app.url);
  });
  afterAll(async () => {
    await app?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test app starts in beforeAll: read it inside a test or a hook');
    return value;
  };
  return {
    get app(): TestApp {
      return started(app);
    },
    /** Factories for people, memberships, items, uploads and grants (testing/given.ts). */
    get given(): ReturnType<typeof given> {
      return started(factories);
    },
  };
}
