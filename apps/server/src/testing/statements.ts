import { AsyncLocalStorage } from 'node:async_hooks';

const counting = new AsyncLocalStorage<string[]>();

/** Given to every test database: notes a statement in the log of the call being counted that runs it, if any. */
export function noteStatement(sql: string): void {
  counting.getStore()?.push(sql);
}

/**
 * The SQL statements `fn` runs through the query builder, its own only: passes woken in the background meanwhile
 * (readers of the activity record) run in another async context and are not counted. A request counted this way is
 * sent with `app.inject`, which handles it in the caller's context (one sent over a socket is handled in the server's).
 */
export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  // Awaited inside: what `app.inject` returns starts the request only once it is awaited.
  const result = await counting.run(statements, async () => await fn());
  return { result, statements };
}
