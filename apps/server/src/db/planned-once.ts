import { createHash } from 'node:crypto';
import { sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';

const MARK = '/* planned once */';

/**
 * Begins a statement that PostgreSQL parses and plans once per connection, then only runs (ADR 0053): a hot statement
 * whose parsing and planning cost more than its running (a folder's page: 1.5 ms of planning and about as much again
 * of parsing, for 1 ms of work). Only for statements whose one plan suits every value they are given (the plan is
 * generic: it knows the parameters' types, not their values); the test of each says so. PGlite runs them as any other.
 */
export const plannedOnce = sql.raw(`${MARK} `);

/** PostgreSQL error codes after which a connection's kept statement cannot run: its tables changed shape, or it is gone. */
const STALE = new Set(['0A000', '26000']);

/**
 * The pool Kysely is given: a statement that begins with `plannedOnce` runs as a named (prepared) statement of its
 * connection, under the generic plan each connection makes once (`plan_cache_mode`, set as each connection opens; it
 * governs named statements alone). Should the server refuse a kept statement (a migration changed a table it reads
 * while this process ran, or a pooler between keeps no statements), it is run again unnamed, and the connection is
 * closed on its release so that the next one starts afresh.
 */
export function plannedOncePool(pool: pg.Pool): PostgresPool {
  // No JIT either: a generic plan does not know a page's LIMIT, so its cost estimate passed jit_above_cost, and LLVM
  // compiled a folder's page anew at every run (2 s). Every statement here is a short one, which JIT only slows.
  pool.on('connect', (client) => {
    client.query('SET plan_cache_mode = force_generic_plan; SET jit = off').catch(() => {});
  });
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let stale = false;
      const query = async (text: string, values: ReadonlyArray<unknown>) => {
        if (stale || !text.startsWith(MARK)) return client.query(text, values as unknown[]);
        const name = `planned_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
        try {
          return await client.query({ name, text, values: values as unknown[] });
        } catch (error) {
          if (!STALE.has((error as { code?: string }).code ?? '')) throw error;
          stale = true;
          return client.query(text, values as unknown[]);
        }
      };
      // Only the form with text and values: Cabinet reads no rows through a cursor.
      return { query, release: () => client.release(stale) } as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}
