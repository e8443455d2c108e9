import { createContext } from '../context.ts';
import { migrate } from '../db/migrate.ts';
import { databaseHelp, fail, loadSettings } from '../main.ts';

export async function migrateCommand(): Promise<void> {
  const env = loadSettings();
  try {
    const ctx = await createContext(env);
    const applied = await migrate(ctx.database);
    await ctx.database.close();
    process.stdout.write(applied.length ? `Applied ${applied.length} migration(s):\n${applied.map((n) => `  ${n}`).join('\n')}\n` : 'The database is up to date.\n');
  } catch (error) {
    fail(databaseHelp(env, error));
  }
}
