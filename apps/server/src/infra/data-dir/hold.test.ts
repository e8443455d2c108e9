import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirBusy, ForeignSocket, holdDataDir, sendToHolder, socketPath } from './hold.ts';

const dirs: string[] = [];
const folder = (name = 'cabinet-hold-') => {
  const dir = mkdtempSync(path.join(os.tmpdir(), name));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A process that holds the folder's socket and dies without tidying up, as a killed server does. */
async function deadHolder(dataDir: string) {
  const child = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${JSON.stringify(path.join(dataDir, 'cabinet.sock'))}, () => console.log('ready'))`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  expect(statSync(path.join(dataDir, 'cabinet.sock')).isSocket()).toBe(true);
}

describe('holding the data folder', () => {
  it('lets one process hold it; another is told it is busy, and may hold it once released', async () => {
    const dir = folder();
    const hold = await holdDataDir(dir, 'server');
    await expect(holdDataDir(dir, 'command')).rejects.toBeInstanceOf(DataDirBusy);
    await hold.release();
    expect(existsSync(path.join(dir, 'cabinet.sock'))).toBe(false);
    const again = await holdDataDir(dir, 'command');
    await again.release();
  });

  it('opens its socket to the folder owner only', async () => {
    const dir = folder();
    const hold = await holdDataDir(dir, 'server');
    expect(statSync(path.join(dir, 'cabinet.sock')).mode & 0o777).toBe(0o600);
    await hold.release();
  });

  it('carries a request to the holder and its answer back', async () => {
    const dir = folder();
    const hold = await holdDataDir(dir, 'server', async (request, io) => {
      io.out(`ran ${request.command} for ${String(request.options.email)}\n`);
      io.err('a note\n');
      return 3;
    });
    const out: string[] = [];
    const err: string[] = [];
    const answer = await sendToHolder(
      dir,
      { command: 'user create', options: { email: 'a@example.com' } },
      { out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    expect(answer).toEqual({ exit: 3 });
    expect(out.join('')).toBe('ran user create for a@example.com\n');
    expect(err.join('')).toBe('a note\n');
    await hold.release();
  });

  it('sends nothing to a socket of another user', async () => {
    const dir = folder();
    const hold = await holdDataDir(dir, 'server', async () => 0);
    const someoneElse = (process.getuid?.() ?? 0) + 4242;
    await expect(sendToHolder(dir, { command: 'doctor', options: {} }, { out: () => {}, err: () => {} }, someoneElse)).rejects.toBeInstanceOf(ForeignSocket);
    await hold.release();
  });

  it('says it is busy when the holder takes no requests', async () => {
    const dir = folder();
    const hold = await holdDataDir(dir, 'command');
    expect(await sendToHolder(dir, { command: 'doctor', options: {} }, { out: () => {}, err: () => {} })).toEqual({ busy: 'command' });
    await hold.release();
  });

  it('takes over the socket of a process that died, and only one of two takers wins', async () => {
    const dir = folder();
    await deadHolder(dir);
    const results = await Promise.allSettled([holdDataDir(dir, 'server'), holdDataDir(dir, 'server'), holdDataDir(dir, 'server')]);
    const held = results.filter((r) => r.status === 'fulfilled');
    expect(held).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DataDirBusy);
    await held[0]!.value.release();
  });

  it('works in a data folder too deep for a socket path', async () => {
    const dir = path.join(folder(), 'a-rather-long-folder-name-'.repeat(6));
    mkdirSync(dir, { recursive: true });
    expect(Buffer.byteLength(path.join(dir, 'cabinet.sock'))).toBeGreaterThan(108);
    expect(socketPath(dir).length).toBeLessThan(100);
    const hold = await holdDataDir(dir, 'server', async () => 0);
    await expect(holdDataDir(dir, 'command')).rejects.toBeInstanceOf(DataDirBusy);
    expect(await sendToHolder(dir, { command: 'doctor', options: {} }, { out: () => {}, err: () => {} })).toEqual({ exit: 0 });
    await hold.release();
    expect(existsSync(path.join(dir, 'cabinet.sock'))).toBe(false);
  });
});
