import { migrate } from '../db/migrate.ts';
import type { CommandScope } from './scope.ts';

export async function migrateCommand({ context, io }: CommandScope): Promise<void> {
  const ctx = await context({ migrate: false });
  const applied = await migrate(ctx.database);
  io.out(applied.length ? `Applied ${applied.length} migration(s):\n${applied.map((n) => `  ${n}`).join('\n')}\n` : 'The database is up to date.\n');
}
