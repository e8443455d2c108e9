import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { buildCollabServer } from './collab/collab-server.ts';
import { COLLAB_PATH } from './collab/collab.ts';
import type { AppContext } from './context.ts';
import { openContext, runCommand } from './cli/commands.ts';
import { CommandFailed } from './cli/scope.ts';
import { DataDirBusy, ForeignSocket, holdDataDir, sendToHolder, type CommandIo, type ControlRequest, type DataDirHold } from './infra/data-dir/hold.ts';
import type { Env } from './env.ts';
import { fail, loadSettings } from './cli/settings.ts';
import { isLocalStorage } from './infra/storage/local.ts';
import { createJobRunner } from './jobs.ts';
import { warmImports } from './modules/documents/index.ts';

/** Opens the database and brings its schema up to date, or stops the process saying which setting to check. */
async function openMigratedContext(env: Env): Promise<AppContext> {
  try {
    return await openContext(env);
  } catch (error) {
    if (error instanceof CommandFailed) fail(error.message);
    throw error;
  }
}

/**
 * With the embedded database, holds the data folder for this server (ADR 0022): a second server
 * is refused, and `cabinet` commands are sent here and run on the server's own database. A command
 * holding the folder for a moment is waited for.
 */
async function holdForServer(env: Env, ctx: Promise<AppContext>): Promise<DataDirHold | undefined> {
  if (env.DATABASE_URL) return undefined;
  const handle = async (request: ControlRequest, io: CommandIo) => {
    if (request.command === 'serve') {
      io.err(
        `\nA Cabinet server is already running on the data folder ${env.DATA_DIR} (${env.PUBLIC_URL}); ` +
          'its embedded database can be open in one process only.\n' +
          'Stop that server first, or give this one another DATA_DIR (or DATABASE_URL).\n\n',
      );
      return 1;
    }
    return runCommand(env, request, io, await ctx);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await holdDataDir(env.DATA_DIR, 'server', handle);
    } catch (error) {
      if (!(error instanceof DataDirBusy)) throw error;
    }
    const answer = await sendToHolder(
      env.DATA_DIR,
      { command: 'serve', options: {} },
      { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) },
    ).catch((e: unknown) => (e instanceof ForeignSocket ? fail(e.message) : undefined));
    if (answer && 'exit' in answer) process.exit(answer.exit || 1);
    if (Date.now() > deadline)
      fail(`A \`cabinet\` command has held the data folder ${env.DATA_DIR} for 30 seconds. Wait for it to end, then start the server again.`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function serve(): Promise<FastifyInstance> {
  const env = loadSettings();
  let opened!: (ctx: AppContext) => void;
  const hold = await holdForServer(env, new Promise<AppContext>((resolve) => (opened = resolve)));
  const ctx = await openMigratedContext(env);
  opened(ctx);
  // Bytes reach their final name only once complete, so anything still temporary is a crash's leftover.
  if (isLocalStorage(ctx.storage)) await ctx.storage.removeTemporaryFiles();
  const app = await buildApp(ctx, {
    logger: {
      level: env.LOG_LEVEL,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], remove: true },
    },
  });
  const jobs = createJobRunner(ctx, { log: app.log, onFailed: ctx.metrics.jobFailed });
  await jobs.start();
  await listenUntilStopped(app, ctx, async (drained) => {
    // No new job is taken while draining; the one in hand is finished.
    await Promise.all([drained, jobs.stop()]);
    await app.close();
    await ctx.database.close();
    await hold?.release();
  });
  warmImports(ctx.workers);
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
  if (!env.DATABASE_URL || !env.REDIS_URL)
    fail(
      '`cabinet collab` runs beside `cabinet serve` and shares documents with it through PostgreSQL and Redis: ' +
        'set DATABASE_URL and REDIS_URL (the same as the other servers).',
    );
  const ctx = await openMigratedContext(env);
  const app = await buildCollabServer(ctx, { logger: { level: env.LOG_LEVEL } });
  await listenUntilStopped(app, ctx, async (drained) => {
    await drained;
    await app.close();
    await ctx.database.close();
  });
  process.stdout.write(`\nCabinet's collaboration server is listening on ${env.HOST}:${env.PORT}${COLLAB_PATH}.\n\n`);
  return app;
}

/**
 * Listens on HOST:PORT, saying clearly why it cannot. SIGINT or SIGTERM stops it: it drains for DRAIN_SECONDS
 * (/readyz answers 503 while it goes on serving, ADR 0078), then `stop` closes it and the process ends. Another signal
 * while it drains ends the drain; one while it closes ends the process at once (what was not stored yet is lost). A
 * rejection nobody handled is logged as a fault instead of ending the process (and every editor's unsaved work with
 * it): every known path handles its own; this is the net below them.
 */
async function listenUntilStopped(app: FastifyInstance, ctx: AppContext, stop: (drained: Promise<void>) => Promise<void>) {
  const { env } = ctx;
  process.on('unhandledRejection', (reason) => app.log.fatal({ err: reason }, 'unhandled rejection (a fault in Cabinet; the server carries on)'));
  let told = 0;
  let endDrain = () => {};
  let draining = true;
  const drained = new Promise<void>((resolve) => {
    endDrain = () => {
      draining = false;
      resolve();
    };
  });
  const shutdown = async (signal: string) => {
    const now = Date.now();
    if (told) {
      // One Ctrl-C reaches the process more than once through npm's scripts: a signal within a second is the same one.
      if (now - told < 1000) return;
      told = now;
      if (draining) {
        app.log.info({ signal }, 'stopping without waiting for the load balancers');
        return endDrain();
      }
      app.log.warn({ signal }, 'stopping at once, before everything was stored');
      process.exit(1);
    }
    told = now;
    ctx.readiness.stopping = true;
    app.log.info({ signal, drainSeconds: env.DRAIN_SECONDS }, 'shutting down');
    const timer = setTimeout(endDrain, env.DRAIN_SECONDS * 1000);
    let code = 0;
    try {
      await stop(drained);
    } catch (error) {
      app.log.error({ err: error }, 'could not stop cleanly');
      code = 1;
    } finally {
      clearTimeout(timer);
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: env.PORT, host: env.HOST });
  } catch (error) {
    const code = (error as { code?: string }).code;
    fail(
      code === 'EADDRINUSE'
        ? `Port ${env.PORT} is already in use. Stop what uses it or set the PORT setting.`
        : `Cabinet could not listen on ${env.HOST}:${env.PORT}: ${(error as Error).message}`,
    );
  }
}
