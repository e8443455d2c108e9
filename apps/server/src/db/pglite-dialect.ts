import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely over PGlite. PGlite is a single connection, so the driver hands it to one
 * holder at a time: a transaction keeps it until commit, and other queries wait
 * rather than slip into someone else's transaction.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

/**
 * PGlite runs a statement on this thread and answers through promises alone, so statements awaited
 * one after another never let the event loop turn: no timer, no socket, no other request for as
 * long as the chain runs (a 100,000-row insert: over a minute). Timers then all fire late, at once,
 * and a server closing an idle connection meets the request a client has just sent on it (ADR 0049).
 * So after each statement the loop turns once — timers, then sockets — before its caller goes on.
 */
const loopTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: DatabaseConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const result = await this.pglite.query<R>(query.sql, [...query.parameters]).finally(loopTurn);
        const affected = result.affectedRows;
        return {
          rows: result.rows,
          ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}),
        };
      },
      streamQuery: () => {
        throw new Error('streaming queries are not supported on PGlite');
      },
    };
  }

  async init() {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queue;
    this.queue = previous.then(() => turn);
    await previous;
    this.releasers.push(release);
    return this.connection;
  }

  private readonly releasers: Array<() => void> = [];

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(): Promise<void> {
    this.releasers.shift()?.();
  }

  async destroy() {
    await this.pglite.close();
  }
}
