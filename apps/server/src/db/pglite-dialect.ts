import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';
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
import { codeOf, isPlannedOnce, keptName, REFUSED } from './planned-once.ts';

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
        const run = isPlannedOnce(query.sql) ? this.runKept<R>(query.sql, query.parameters) : this.pglite.query<R>(query.sql, [...query.parameters]);
        const result = await run.finally(loopTurn);
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

  /** The parameters' types of each statement kept (by its name), learnt when it was parsed. */
  private readonly kept = new Map<string, number[]>();

  /**
   * A statement marked `plannedOnce` (ADR 0053, 0071) as a named statement of PGlite's one connection: parsed once, then
   * only bound and run, so PostgreSQL may keep its generic plan, as it does for the pool's connections. The messages
   * are those `PGlite.query` sends for an unnamed one, with the same serializers, parsers and sync to the file system.
   * A kept statement the server refuses (its tables changed shape) is forgotten, and run unnamed when no transaction
   * is open (in one, the refusal ended it and is what is thrown).
   */
  private runKept<R>(text: string, parameters: readonly unknown[]): Promise<Results<R>> {
    const pglite = this.pglite;
    const name = keptName(text);
    return pglite
      .runExclusive(async () => {
        const send = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });
        const messages = [];
        let refused: unknown;
        let idle = false;
        try {
          let types = this.kept.get(name);
          if (!types) {
            await send(protocol.serialize.parse({ name, text }));
            types = parse.parseDescribeStatementResults(await send(protocol.serialize.describe({ type: 'S', name })));
            this.kept.set(name, types);
          }
          const values = parameters.map((value, i) => {
            if (value === null || value === undefined) return null;
            const serialize = pglite.serializers[types[i]!];
            return serialize ? serialize(value) : String(value);
          });
          messages.push(...(await send(protocol.serialize.bind({ statement: name, values }))));
          messages.push(...(await send(protocol.serialize.describe({ type: 'P' }))));
          messages.push(...(await send(protocol.serialize.execute({}))));
        } catch (error) {
          if (!REFUSED.has(codeOf(error))) throw error;
          refused = error;
          this.kept.delete(name);
        } finally {
          const ready = await send(protocol.serialize.sync());
          messages.push(...ready);
          idle = ready.some((m) => m.name === 'readyForQuery' && (m as unknown as { status: string }).status === 'I');
          if (idle) await pglite.syncToFs();
        }
        if (refused) {
          await send(protocol.serialize.close({ type: 'S', name })).catch(() => {});
          await send(protocol.serialize.sync());
          if (!idle) throw refused;
          return undefined;
        }
        return parse.parseResults(messages, pglite.parsers)[0] as Results<R>;
      })
      .then((result) => result ?? pglite.query<R>(text, [...parameters]));
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
