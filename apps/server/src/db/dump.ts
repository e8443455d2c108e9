import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { fsyncPath } from '../lib/fsync.ts';
import { newPGlite } from './pglite.ts';

/** Keeps the last `max` characters written to it: what a failed command said, without holding all it said. */
function tail(max = 4000) {
  let text = '';
  return {
    push: (chunk: Buffer) => void (text = (text + chunk.toString('utf8')).slice(-max)),
    get text() {
      return text.trim();
    },
  };
}

/**
 * PostgreSQL's own `pg_dump` of the database at `url` as of `snapshot` (exported by a transaction that stays open
 * until this ends), in its custom format (compressed; `pg_restore` reads it), to `file`, flushed to disk.
 */
export async function pgDumpPostgres(url: string, snapshot: string, file: string): Promise<void> {
  const { dbname, env } = libpqConnection(url);
  await runProgram('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${dbname}`], env);
  await fsyncPath(file);
}

/**
 * The embedded database's dump, by PGlite's own pg_dump run in this process against `pglite` (plain SQL), gzipped to
 * `file` and flushed. Its caller holds the database's one connection: nothing else runs meanwhile.
 */
export async function pgDumpPGlite(pglite: PGlite, file: string): Promise<void> {
  const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump');
  const { search_path } = (await pglite.query<{ search_path: string }>('SHOW search_path')).rows[0]!;
  let dumped: File;
  try {
    dumped = await pgDump({ pg: pglite, args: ['--no-owner', '--no-privileges'] });
  } finally {
    // pg_dump leaves its transaction open on the one session PGlite has (a server would end it with the connection),
    // its search_path emptied in it: everything after would run inside it, on no schema. It is ended here.
    await pglite.exec('ROLLBACK');
    await pglite.query('SELECT set_config($1, $2, false)', ['search_path', search_path]);
  }
  await pipeline(Readable.fromWeb(dumped.stream() as import('node:stream/web').ReadableStream<Uint8Array>), createGzip(), createWriteStream(file));
  await fsyncPath(file);
}

/**
 * A dump by `pgDumpPostgres` into the database at `url`, which holds nothing (its `public` schema made anew first), in
 * one transaction: stopped part-way, it leaves the database as empty as before. `pg_restore` must be on `PATH`.
 */
export async function pgRestorePostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = libpqConnection(url);
  await runProgram('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, file], env);
}

/**
 * DATABASE_URL as PostgreSQL's own programs take it: the password in their environment (PGPASSWORD), not on a command
 * line that any local user can read while they run; node-postgres's own SSL options in libpq's words (`ssl=true` is
 * `sslmode=require`; `sslmode=no-verify`, encryption without checking the certificate, is `require` too).
 */
export function libpqConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  const ssl = u.searchParams.get('ssl');
  u.searchParams.delete('ssl');
  if (u.searchParams.get('sslmode') === 'no-verify' || ((ssl === 'true' || ssl === '1') && !u.searchParams.has('sslmode')))
    u.searchParams.set('sslmode', 'require');
  return { dbname: u.href, env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** Runs one of PostgreSQL's client programs; what it said on failing is the error. */
async function runProgram(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const said = tail();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    child.stderr.on('data', said.push);
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(`${program} was not found: install PostgreSQL's client programs (the same major version as the server, or later) and put them on PATH.`)
          : error,
      ),
    );
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`${program} ended with ${code}: ${said.text || 'no reason given'}`);
}

/** A dump by `pgDumpPGlite` loaded into a new embedded database in `dir` (which must not exist), closed after. */
export async function pgRestorePGlite(dir: string, file: string): Promise<void> {
  const pglite = await newPGlite(dir);
  try {
    await loadDumpPGlite(pglite, file);
  } finally {
    await pglite.close();
  }
}

/** A dump by `pgDumpPGlite` run into `pglite`, a new (empty) embedded database. */
export async function loadDumpPGlite(pglite: PGlite, file: string): Promise<void> {
  const script = gunzipSync(await readFile(file)).toString('utf8');
  await pglite.waitReady;
  await pglite.exec(script);
  // The dump empties search_path for its own session (PGlite's only one): what runs next finds its tables again.
  await pglite.exec('RESET search_path');
}
