import type { AppContext } from '../context.ts';
import { createContext } from '../context.ts';
import { migrate } from '../db/migrate.ts';
import type { Env } from '../env.ts';
import { isDatabaseUnavailable } from '../errors.ts';
import type { CommandIo, ControlRequest } from '../infra/data-dir/hold.ts';
import {
  backupCommand,
  exportCommand,
  migrateStorageCommand,
  restoreCommand,
  restoreItemCommand,
  verifyBackupCommand,
  verifyStorageCommand,
} from './backup.ts';
import { createTokenCommand } from './create-token.ts';
import { createUserCommand } from './create-user.ts';
import { doctorCommand } from './doctor.ts';
import { migrateCommand } from './migrate.ts';
import { reindexSearchCommand } from './reindex-search.ts';
import { resetTwoStepCommand } from './reset-two-step.ts';
import { CommandFailed, databaseHelp, type CommandScope } from './scope.ts';

/** Every command that works on an installation's data, by the words that name it. */
const commands: Record<string, (scope: CommandScope, options: never) => Promise<number | void>> = {
  'user create': createUserCommand,
  'user reset-two-step': resetTwoStepCommand,
  'token create': createTokenCommand,
  migrate: migrateCommand,
  doctor: doctorCommand,
  'search reindex': reindexSearchCommand,
  backup: backupCommand,
  'backup verify': verifyBackupCommand,
  restore: restoreCommand,
  'restore-item': restoreItemCommand,
  export: exportCommand,
  'storage verify': verifyStorageCommand,
  'storage migrate': migrateStorageCommand,
};

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
    inServer: !!shared,
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
