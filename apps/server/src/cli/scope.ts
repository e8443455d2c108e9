/** What every command is given, and how it fails: shared by the command table and the commands. */
import type { AppContext } from '../context.ts';
import type { Env } from '../env.ts';
import type { CommandIo } from '../infra/data-dir/hold.ts';

/** A command's failure, in words an operator can act on; the command ends with exit code 1. */
export class CommandFailed extends Error {}

export interface CommandScope {
  env: Env;
  io: CommandIo;
  /**
   * The database, storage and provider. Run by itself, a command opens them (bringing the schema
   * up to date unless `migrate: false`); sent to a running server, it shares the server's.
   */
  context(options?: { migrate?: boolean }): Promise<AppContext>;
  /** The command was sent to a running server, which holds the embedded database, and runs there. */
  inServer: boolean;
}

export function databaseHelp(env: Env, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    return (
      `Cabinet cannot reach its database at ${url.hostname}:${url.port || 5432}${url.pathname} (${reason}).\n` +
      'Check the DATABASE_URL setting and that PostgreSQL is running.'
    );
  }
  return `Cabinet cannot open its embedded database in ${env.DATA_DIR}/db (${reason}).\nCheck the DATA_DIR setting, or set DATABASE_URL to use PostgreSQL.`;
}
