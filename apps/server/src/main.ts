import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { buildCollabServer } from './collab/collab-server.ts';
import { COLLAB_PATH } from './collab/collab.ts';
import { createContext, type AppContext } from './context.ts';
import { migrate } from './db/migrate.ts';
import { loadDotEnv, parseEnv, SettingsError, type Env } from './env.ts';
import { isDatabaseUnavailable } from './errors.ts';
import { isLocalStorage } from './infra/storage/local.ts';
import { createJobRunner } from './jobs.ts';

/** Stops the process with a message an operator can act on. */
export function fail(message: string): never {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

export function loadSettings(): Env {
  loadDotEnv();
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof SettingsError) fail(error.message);
    throw error;
  }
}

export function databaseHelp(env: Env, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    return `Cabinet cannot reach its database at ${url.hostname}:${url.port || 5432}${url.pathname} (${reason}).\nCheck the DATABASE_URL setting and that PostgreSQL is running.`;
  }
  return `Cabinet cannot open its embedded database in ${env.DATA_DIR}/db (${reason}).\nCheck the DATA_DIR setting, or set DATABASE_URL to use PostgreSQL.`;
}

/** Opens the database and brings its schema up to date, or stops the process saying which setting to check. */
export async function openMigratedContext(env: Env): Promise<AppContext> {
  let ctx: AppContext | undefined;
  try {
    ctx = await createContext(env);
    await migrate(ctx.database);
    return ctx;
  } catch (error) {
    await ctx?.database.close().catch(() => {});
    if (isDatabaseUnavailable(error) || !ctx) fail(databaseHelp(env, error));
    throw error;
  }
}

export async function serve(): Promise<FastifyInstance> {
  const env = loadSettings();
  const ctx = await openMigratedContext(env);
  // Bytes reach their final name only once complete, so anything still temporary is a crash's leftover.
  if (isLocalStorage(ctx.storage)) await ctx.storage.removeTemporaryFiles();
  const app = await buildApp(ctx, {
    logger: {
      level: env.LOG_LEVEL,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], remove: true },
    },
  });
  const jobs = createJobRunner(ctx, { log: app.log });
  await jobs.start();
  await listenUntilStopped(app, env, async () => {
    await jobs.stop();
    await app.close();
    await ctx.database.close();
  });
  process.stdout.write(`\nCabinet is running. Open ${env.PUBLIC_URL} in your browser.\n\n`);
  return app;
}

/**
 * `cabinet collab`: only the collaboration socket, as its own process beside `cabinet serve` (a
 * proxy sends /collab to it). Instances share documents through Redis and PostgreSQL, so both
 * settings are needed.
 */
export async function serveCollab(): Promise<FastifyInstance> {
  const env = loadSettings();
  if (!env.DATABASE_URL || !env.REDIS_URL) fail('`cabinet collab` runs beside `cabinet serve` and shares documents with it through PostgreSQL and Redis: set DATABASE_URL and REDIS_URL (the same as the other servers).');
  const ctx = await openMigratedContext(env);
  const app = await buildCollabServer(ctx, { logger: { level: env.LOG_LEVEL } });
  await listenUntilStopped(app, env, async () => {
    await app.close();
    await ctx.database.close();
  });
  process.stdout.write(`\nCabinet's collaboration server is listening on ${env.HOST}:${env.PORT}${COLLAB_PATH}.\n\n`);
  return app;
}

/** Listens on HOST:PORT, saying clearly why it cannot; SIGINT and SIGTERM run `stop` once and end the process. */
async function listenUntilStopped(app: FastifyInstance, env: Env, stop: () => Promise<void>) {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: env.PORT, host: env.HOST });
  } catch (error) {
    const code = (error as { code?: string }).code;
    fail(code === 'EADDRINUSE' ? `Port ${env.PORT} is already in use. Stop what uses it or set the PORT setting.` : `Cabinet could not listen on ${env.HOST}:${env.PORT}: ${(error as Error).message}`);
  }
}
