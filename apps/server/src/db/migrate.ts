import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { idpMigrations } from '@cabinet/idp';
import type { Database } from './client.ts';

export interface Migration {
  name: string;
  sql: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export function serverMigrations(): Migration[] {
  const dir = path.join(here, 'migrations');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ name: f, sql: readFileSync(path.join(dir, f), 'utf8') }));
}

/** Every migration Cabinet's database needs: its own, then the embedded identity provider's. */
export function allMigrations(): Migration[] {
  return [...serverMigrations(), ...idpMigrations().map((m) => ({ name: `idp/${m.name}`, sql: m.sql }))];
}

/** Applies the migrations not yet applied, each in its own transaction; returns their names. */
export async function migrate(database: Database, migrations = allMigrations()): Promise<string[]> {
  await database.locked(async (run) => {
    await run(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await database.locked(async (run) => {
      const rows = await run('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (rows.length > 0) return false;
      await run(migration.sql);
      await run('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}
