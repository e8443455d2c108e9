import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/cabinet.mjs');

/**
 * Runs the `cabinet` command in a process of its own, as an operator would; killed after five
 * minutes, a hang and not a speed (a migration and a restore on PGlite each passed two minutes while
 * the browser tests ran beside them on a two-core CI machine).
 */
export function cabinet(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, LOG_LEVEL: 'silent', ...env }, cwd: os.tmpdir() });
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
