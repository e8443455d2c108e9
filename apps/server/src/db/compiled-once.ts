import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import { plannedOnce } from './planned-once.ts';
import type { Database } from './schema.ts';

/**
 * A statement built and compiled by the query builder once, then run with each call's values (the
 * query builder's "splitting build, compile and execute"). For the few statements every request
 * runs — authentication — where building and compiling the query anew cost more than the rest of
 * the request's own work (ADR 0049). `build` is called once, with a placeholder for each argument,
 * and must use each placeholder as a parameter. Outside a transaction the statement is planned once per connection
 * too (ADR 0053): a lookup by a unique hash, whose generic plan is the one index scan.
 */
export function compiledOnce<A extends string[], R>(build: (db: Kysely<Database>, ...args: A) => Compilable<R>) {
  let compiled: { query: CompiledQuery<R>; kept: string; slots: number[] } | undefined;
  return async (db: Kysely<Database>, ...args: A): Promise<R | undefined> => {
    if (!compiled) {
      const marks = args.map((_, i) => `\u0000compiled-once ${i}`) as A;
      const query = build(db, ...marks).compile();
      const slots = query.parameters.map((value) => marks.indexOf(value as string));
      if (slots.includes(-1)) throw new Error(`compiledOnce: ${query.sql} has a parameter that is not an argument`);
      compiled = { query, kept: plannedOnce.compile(db).sql + query.sql, slots };
    }
    const { query, kept, slots } = compiled;
    const sql = db.isTransaction ? query.sql : kept;
    const { rows } = await db.executeQuery<R>({ ...query, sql, queryId: createQueryId(), parameters: slots.map((slot) => args[slot]) });
    return rows[0];
  };
}
