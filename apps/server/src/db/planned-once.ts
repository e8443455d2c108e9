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

/**
 * Around a marked statement only: its kept plan is the generic one (`plan_cache_mode` governs every statement with
 * parameters, named or not, so it is never left set), and it is not compiled by JIT (a generic plan knows no LIMIT, so
 * its cost passed jit_above_cost, and LLVM compiled a folder's page anew at every run: 2 s).
 */
const GENERIC = 'SET plan_cache_mode = force_generic_plan; SET jit = off';
const AS_BEFORE = 'RESET plan_cache_mode; RESET jit';

/**
 * Codes after which a connection's kept statement cannot run, raised before it runs: its tables changed shape under it
 * (0A000), it is gone (26000) or another's of the same name is there (42P05), both behind a pooler that keeps no
 * statements of its own.
 */
const REFUSED = new Set(['0A000', '26000', '42P05']);
const codeOf = (error: unknown) => (error as { code?: string }).code ?? '';

interface Wrapped {
  client: PostgresPoolClient;
  /** Set once anything around a marked statement failed: the connection is closed on release, whatever state it is in. */
  spoilt: boolean;
}

/**
 * The pool Kysely is given: a statement that begins with `plannedOnce` runs as a named (prepared) statement of its
 * connection, under its generic plan, between a SET and a RESET of the settings above (two short round trips, against
 * the parsing and planning saved). Should the server refuse a kept statement, it is run once more unnamed; whatever
 * failed around a marked statement, the connection is closed on release so that the next one starts afresh.
 */
export function plannedOncePool(pool: pg.Pool): PostgresPool {
  // One wrapper per connection, as Kysely keeps one of its own per client object it is given.
  const wrappers = new WeakMap<pg.PoolClient, Wrapped>();
  const wrap = (client: pg.PoolClient): Wrapped => {
    const wrapped: Wrapped = { client: undefined as unknown as PostgresPoolClient, spoilt: false };
    const named = async (text: string, values: unknown[]) => {
      const name = `planned_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      await client.query(GENERIC);
      try {
        return await client.query({ name, text, values });
      } catch (error) {
        if (!REFUSED.has(codeOf(error))) throw error;
        wrapped.spoilt = true;
        // In a transaction the refusal ended it: the unnamed try would only say so, so the refusal is what is thrown.
        return await client.query(text, values).catch((again: unknown) => Promise.reject(codeOf(again) === '25P02' ? error : again));
      } finally {
        // In a transaction that failed, RESET fails too (and the transaction's end undoes the SET): what failed first is
        // what is thrown, and the connection is not used again.
        await client.query(AS_BEFORE).catch(() => {
          wrapped.spoilt = true;
        });
      }
    };
    const query = async (text: string, values: ReadonlyArray<unknown>) => {
      if (wrapped.spoilt || !text.startsWith(MARK)) return client.query(text, values as unknown[]);
      try {
        return await named(text, values as unknown[]);
      } catch (error) {
        wrapped.spoilt = true;
        throw error;
      }
    };
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
