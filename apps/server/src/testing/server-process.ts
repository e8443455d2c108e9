import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, migratedDataFolder, type TestDatabase } from './test-database.ts';
import { freePort } from './test-app.ts';
import { callingRoutes, withToken } from './route-call.ts';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/cabinet.mjs');

/**
 * Cabinet as its own process, started the way `cabinet serve` starts it, to be killed and started
 * again: crash tests need a server that dies without tidying up. On PostgreSQL it gets its own
 * database; otherwise it keeps PGlite in its data folder, migrated already unless the folder is given. `cli` runs the
 * `cabinet` command against it.
 */
export async function serverProcess(settings: Record<string, string> = {}) {
  // A data folder of its own, or the one given (removed with it on dispose all the same).
  const dataDir = settings.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'cabinet-process-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let db: TestDatabase | undefined;
  if (process.env.TEST_DATABASE === 'postgres') {
    db = await createTestDatabase();
    await db.database.close();
  } else if (!settings.DATA_DIR) migratedDataFolder(dataDir);
  const env = {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: db?.url ?? '',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    ...settings,
  };
  let child: ChildProcess | undefined;

  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cabinet ${args.join(' ')} exited with ${r.status}: ${r.stdout}${r.stderr}`);
    return r.stdout.trim();
  };
  const stopped = (signal: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null) return Promise.resolve();
    const exited = new Promise((r) => running.once('exit', r));
    running.kill(signal);
    return exited.then(() => undefined);
  };
  return {
    url,
    dataDir,
    cli,
    /** The running server's process id. */
    pid: () => child?.pid,
    /** A person with an API token (write scope), made with the `cabinet` command. */
    person(email: string, name: string): string {
      cli('user', 'create', '--email', email, '--name', name, '--password', 'process-test-password-1');
      return cli('token', 'create', '--email', email, '--name', 'tests');
    },
    async start() {
      child = spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore' });
      // Up to 90 seconds: a cold start on a busy two-core machine has taken over 30.
      await untilReady(url, 90_000, 'the server did not start');
    },
    /** SIGKILL: no chance to save or tidy up. */
    kill: () => stopped('SIGKILL'),
    stop: () => stopped('SIGTERM'),
    /** Calls as the holder of an API token (testing/route-call.ts). */
    as: (token: string) => callingRoutes(withToken(url, token)),
    async dispose() {
      await stopped('SIGKILL');
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `url`/readyz answers 200 (looked at every 100 ms), or throws `failure` after `timeoutMs`. */
export async function untilReady(url: string, timeoutMs: number, failure: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < timeoutMs;) {
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(failure);
}
