import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../context.ts';
import { runCommand } from '../cli/commands.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/cabinet.mjs');

/**
 * The embedded database's WebAssembly kept on V8's first compiler: a command lives seconds, and the optimising one
 * recompiling its hot functions in the background cost more than it saved (`cabinet migrate` with nothing to do: ~1.3
 * s of CPU of 5). What the command does is the same either way; servers and the benchmarks keep it.
 */
const NODE_FLAGS = ['--liftoff-only'];

/**
 * Runs the `cabinet` command in a process of its own, as an operator would; killed after five
 * minutes, a hang and not a speed (a migration and a restore on PGlite each passed two minutes while
 * the browser tests ran beside them on a two-core CI machine).
 */
export function cabinet(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, [...NODE_FLAGS, bin, ...args], { env: { ...inherited, LOG_LEVEL: 'silent', ...env }, cwd: os.tmpdir() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A `cabinet` command handed to a running test app, as `cabinet` beside a running server hands it over (the same code a
 * process of its own runs, without opening the database again): its exit code and what it wrote.
 */
export async function runInApp(ctx: AppContext, command: string, options: Record<string, unknown>): Promise<{ code: number; out: string; err: string }> {
  const io = { out: '', err: '' };
  const code = await runCommand(ctx.env, { command, options }, { out: (t) => void (io.out += t), err: (t) => void (io.err += t) }, ctx);
  return { code, ...io };
}
