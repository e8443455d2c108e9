import { meApi } from '@cabinet/contracts';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../testing/browser.ts';
import { socketPath } from '../infra/data-dir/hold.ts';
import { serverProcess } from '../testing/server-process.ts';
import { freePort } from '../testing/test-app.ts';
import { cabinet } from '../testing/cabinet-command.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/cabinet.mjs');

/** Writes raw bytes to the server's socket and collects what it answers until it closes the connection. */
function rawExchange(dataDir: string, lines: string | null): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(socketPath(dataDir));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {});
    socket.once('connect', () => {
      if (lines !== null) socket.write(lines);
    });
    socket.once('close', () => resolve(answer));
  });
}

/** The embedded database is one process's: the server holds its data folder and commands go through it. */
describe('the data folder of the embedded database', () => {
  let server: Awaited<ReturnType<typeof serverProcess>>;
  beforeAll(async () => {
    // Told to stop, it drains for a minute unless told again (a second signal ends the drain).
    server = await serverProcess({ DATABASE_URL: '', DRAIN_SECONDS: '60' });
    await server.start();
  });
  afterAll(() => server.dispose());

  /** The email the token's owner signs in with, or the code of the refusal. */
  const me = async (token: string) => {
    const res = await server.as(token).call(meApi.get);
    return res.error ? res.error.code : res.body.user.email;
  };

  it('runs commands beside a running server through it: what they print is true at once and after restarts', async () => {
    const ann = server.person('ann@example.com', 'Ann');
    expect(await me(ann)).toBe('ann@example.com');
    const { browser } = await signIn(server.url, 'ann@example.com', 'process-test-password-1');
    expect((await browser.call(meApi.get)).body.user.email).toBe('ann@example.com');

    // Told to stop, the server drains (ADR 0078): /readyz says it is stopping, for load balancers to take it out, while
    // it goes on serving, each answer closing its connection. A second signal a second later ends the drain.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const told = Date.now();
    const stopped = server.stop();
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { interval: 50 }).toBe(503);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'stopping' });
    const during = await server.as(ann).call(meApi.get);
    expect(during.body.user.email).toBe('ann@example.com');
    expect(during.headers.get('connection')).toBe('close');
    await new Promise((r) => setTimeout(r, Math.max(0, told + 1100 - Date.now())));
    process.kill(server.pid()!, 'SIGTERM');
    await stopped;
    expect(Date.now() - told).toBeLessThan(30_000);
    await server.start();
    expect(await me(ann)).toBe('ann@example.com');
    // A second account after the restart: no duplicate the database no longer shows.
    const bob = server.person('bob@example.com', 'Bob');
    expect(await me(bob)).toBe('bob@example.com');
    expect(() => server.cli('user', 'create', '--email', 'ann@example.com', '--name', 'Ann again', '--password', 'process-test-password-1')).toThrow(
      /already exists/,
    );

    // Killed without tidying up: the next start takes the folder over, and everything is there.
    await server.kill();
    await server.start();
    expect(await me(ann)).toBe('ann@example.com');
    expect(await me(bob)).toBe('bob@example.com');
    expect(server.cli('migrate')).toBe('The database is up to date.');
    expect(server.cli('doctor')).toContain('✓ identity provider: embedded provider');
  }, 300_000);

  it('backs up through the server that holds the folder, while it serves, and checks the backup', async () => {
    const cy = server.person('cy@example.com', 'Cy');
    const backups = mkdtempSync(path.join(os.tmpdir(), 'cabinet-backups-'));
    try {
      expect(server.cli('backup', '--out', backups)).toMatch(new RegExp(`^Backup written to ${backups}/\\d{4}-.*Z in [\\d.]+ s: the database`));
      // The dump held the server's thread for its seconds: a kept-alive connection it closed meanwhile fails once, and is asked again.
      expect(await me(cy).catch(() => me(cy))).toBe('cy@example.com');
      expect(server.cli('backup', 'verify', '--from', backups)).toMatch(/^Backup .* is whole: the database and \d+ blobs hashed\.$/);
      expect(() => server.cli('backup', 'verify', '--from', server.dataDir)).toThrow(/holds no finished backup/);

      // A restore replaces the database: not beside the server holding it.
      expect(() => server.cli('restore', '--from', backups)).toThrow(/A server is running on the data folder .* Stop it first/);
      // Onto another machine's empty data folder: its token works there, the secret it was sealed with restored.
      const elsewhere = await serverProcess({ DATABASE_URL: '', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'cabinet-restored-')) });
      try {
        const restored = await cabinet(['restore', '--from', backups], { DATA_DIR: elsewhere.dataDir, PUBLIC_URL: elsewhere.url });
        expect(restored.code, restored.stderr).toBe(0);
        expect(restored.stdout).toMatch(/^Restored backup .* in [\d.]+ s: the database, \d+ blobs put back in storage\. Start Cabinet\.$/m);
        await elsewhere.start();
        expect((await elsewhere.as(cy).call(meApi.get)).body.user.email).toBe('cy@example.com');
      } finally {
        await elsewhere.dispose();
      }
    } finally {
      rmSync(backups, { recursive: true, force: true });
    }
  }, 600_000);

  it('refuses a second server on the same folder with a clear message, and the first keeps serving', async () => {
    const port = await freePort();
    const second = spawn(process.execPath, [bin, 'serve'], {
      env: {
        ...process.env,
        DATA_DIR: server.dataDir,
        DATABASE_URL: '',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      },
    });
    let stderr = '';
    second.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`A Cabinet server is already running on the data folder ${server.dataDir}`);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  }, 120_000);

  it('lets only the folder owner reach the server', () => {
    expect(statSync(path.join(server.dataDir, 'cabinet.sock')).mode & 0o777).toBe(0o600);
  });

  it('answers only the commands it knows (a name on Object’s prototype is unknown) and says nothing of its settings', async () => {
    for (const command of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const answer = await rawExchange(server.dataDir, `${JSON.stringify({ command, options: {} })}\n`);
      expect(answer, command).toContain('Unknown command');
      expect(answer, command).toContain('{"exit":2}');
      expect(answer, command).not.toContain('SESSION_SECRET');
    }
  });

  it('closes a malformed line, a line too long and a client that never sends, and keeps serving', async () => {
    expect(await rawExchange(server.dataDir, 'not json\n')).toContain('{"exit":2}');
    expect(await rawExchange(server.dataDir, 'null\n')).toContain('{"exit":2}');
    expect(await rawExchange(server.dataDir, 'x'.repeat(2 * 1024 * 1024))).toBe('');
    expect(await rawExchange(server.dataDir, null)).toBe('');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(server.cli('migrate')).toBe('The database is up to date.');
  }, 120_000);
});
