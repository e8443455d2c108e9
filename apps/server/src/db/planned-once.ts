import { createHash } from 'node:crypto';
import { sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';

const MARK = '/* planned once */';

/**
 * Begins a statement that PostgreSQL parses once per connection, then only binds and runs (ADR 0053): a hot statement
 * whose parsing and planning cost more than its running (a folder's page: 1.5 ms of planning and about as much again
 * of parsing, for 1 ms of work). PostgreSQL plans it for its values five times, then keeps its generic plan (which
 * knows the parameters' types, not their values) when that plan's estimate is no higher: so a marked statement must
 * let a generic plan see its size (a `LIMIT` written in, one item compared with `=`, not `= ANY` of an array whose
 * length a generic plan guesses); the test of each says that its generic plan is kept. PGlite keeps them the same way
 * (pglite-dialect.ts), where parsing and planning cost more still: they run in WebAssembly on the server's own thread.
 */
export const plannedOnce = sql.raw(`${MARK} `);

/**
 * `plannedOnce`, unless `db` is a transaction: there a kept statement the server refused (a migration by another
 * instance changed a table it reads, or a pooler keeps no statements) would end the write, where outside one it is only
 * run again unnamed.
 */
export const plannedOnceOutside = (db: { isTransaction: boolean }) => (db.isTransaction ? sql`` : plannedOnce);

/** Whether a statement's text begins with `plannedOnce`. */
export const isPlannedOnce = (text: string) => text.startsWith(MARK);

/** The name a connection keeps a marked statement under: one per text. */
export const keptName = (text: string) => `planned_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

/**
 * Codes after which a connection's kept statement cannot run, raised before it runs: its tables changed shape under it
 * (0A000), it is gone (26000) or another's of the same name is there (42P05), both behind a pooler that keeps no
 * statements of its own.
 */
export const REFUSED = new Set(['0A000', '26000', '42P05']);
export const codeOf = (error: unknown) => (error as { code?: string }).code ?? '';

interface Wrapped {
  client: PostgresPoolClient;
  /** Set once a kept statement was refused: the connection runs every statement unnamed, and is closed on release. */
  spoilt: boolean;
}

/**
 * The pool Kysely is given: a statement that begins with `plannedOnce` runs as a named (prepared) statement of its
 * connection. Should the server refuse a kept statement, it is run once more unnamed, and the connection is closed on
 * release (what the driver believes it keeps may no longer be there) so that the next one starts afresh.
 */
export function plannedOncePool(pool: pg.Pool): PostgresPool {
  // One wrapper per connection, as Kysely keeps one of its own per client object it is given.
  const wrappers = new WeakMap<pg.PoolClient, Wrapped>();
  const wrap = (client: pg.PoolClient): Wrapped => {
    const wrapped: Wrapped = { client: undefined as unknown as PostgresPoolClient, spoilt: false };
    const named = async (text: string, values: unknown[]) => {
      const name = keptName(text);
      try {
        return await client.query({ name, text, values });
      } catch (error) {
        if (!REFUSED.has(codeOf(error))) throw error;
        wrapped.spoilt = true;
        // In a transaction the refusal ended it: the unnamed try would only say so, so the refusal is what is thrown.
        return await client.query(text, values).catch((again: unknown) => Promise.reject(codeOf(again) === '25P02' ? error : again));
      }
    };
    const query = (text: string, values: ReadonlyArray<unknown>) =>
      wrapped.spoilt || !isPlannedOnce(text) ? client.query(text, values as unknown[]) : named(text, values as unknown[]);
    // Only the form with text and values: Cabinet reads no rows through a cursor.
    wrapped.client = { query, release: () => client.release(wrapped.spoilt) } as unknown as PostgresPoolClient;
    return wrapped;
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = wrappers.get(client);
      if (!wrapped) wrappers.set(client, (wrapped = wrap(client)));
      return wrapped.client;
    },
    end: () => pool.end(),
  };
}
