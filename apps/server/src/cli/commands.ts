import type { AppContext } from '../context.ts';
import { createContext } from '../context.ts';
import { migrate } from '../db/migrate.ts';
import type { Env } from '../env.ts';
import { isDatabaseUnavailable } from '../errors.ts';
import type { CommandIo, ControlRequest } from '../infra/data-dir/hold.ts';
import { createTokenCommand } from './create-token.ts';
import { createUserCommand } from './create-user.ts';
import { doctorCommand } from './doctor.ts';
import { migrateCommand } from './migrate.ts';

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
}

/** Every command that works on an installation's data, by the words that name it. */
const commands: Record<string, (scope: CommandScope, options: never) => Promise<number | void>> = {
  'user create': createUserCommand,
  'token create': createTokenCommand,
  migrate: migrateCommand,
  doctor: doctorCommand,
};

export function databaseHelp(env: Env, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    return `Cabinet cannot reach its database at ${url.hostname}:${url.port || 5432}${url.pathname} (${reason}).\nCheck the DATABASE_URL setting and that PostgreSQL is running.`;
  }
  return `Cabinet cannot open its embedded database in ${env.DATA_DIR}/db (${reason}).\nCheck the DATA_DIR setting, or set DATABASE_URL to use PostgreSQL.`;
}

/** Opens the installation (and brings its schema up to date), or throws CommandFailed saying which setting to check. */
export async function openContext(env: Env, options: { migrate?: boolean } = {}): Promise<AppContext> {
  let ctx: AppContext | undefined;
  try {
    ctx = await createContext(env);
    if (options.migrate !== false) await migrate(ctx.database);
    return ctx;
  } catch (error) {
    await ctx?.database.close().catch(() => {});
    if (isDatabaseUnavailable(error) || !ctx) throw new CommandFailed(databaseHelp(env, error));
    throw error;
  }
}

/** Runs a command in this process; resolves to its exit code. `shared` is a running server's own context. */
export async function runCommand(env: Env, request: ControlRequest, io: CommandIo, shared?: AppContext): Promise<number> {
  // Only the table's own entries: a name like `constructor` must not reach Object's prototype.
  const command = Object.hasOwn(commands, request.command) ? commands[request.command] : undefined;
  if (!command) {
    io.err(`\nUnknown command: ${request.command}.\n\n`);
    return 2;
  }
  const opened: AppContext[] = [];
  const scope: CommandScope = {
    env,
    io,
    async context(options) {
      if (shared) return shared;
      const ctx = await openContext(env, options);
      opened.push(ctx);
      return ctx;
    },
  };
  try {
    return (await command(scope, request.options as never)) ?? 0;
  } catch (error) {
    if (!(error instanceof CommandFailed)) throw error;
    io.err(`\n${error.message}\n\n`);
    return 1;
  } finally {
    for (const ctx of opened) await ctx.database.close().catch(() => {});
  }
}
