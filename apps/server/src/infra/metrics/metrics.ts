import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../../lib/client-address.ts';

/** What an instance is asked for when it is scraped: each read at that moment, none kept in between. */
export interface MetricsSources {
  /** The PostgreSQL pool's connections; none for the embedded database (one connection, on the server's thread). */
  pool?: () => { total: number; idle: number; waiting: number } | undefined;
  /** The job queue, by kind and state, as the database has it now (every instance's jobs: the queue is shared). */
  jobs?: () => Promise<{ kind: string; state: string; count: number }[]>;
}

/** How long a scrape waits for what the database counts (the queue, the index's lag) before answering without it. */
const DATABASE_WAIT_MS = 2_000;

/**
 * An instance's metrics, in Prometheus's text format (ADR 0058). Requests by route and status class, timed; jobs that
 * failed and storage calls that failed on this instance; and, read when scraped, the job queue, the search index's lag,
 * the database pool and the collaboration sockets, with Node's own (memory, event loop delay, garbage collection). A
 * registry per context, so apps in one process (tests) keep their counts apart; Node's are the process's, one set.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly jobFailures: Counter<'kind'>;
  private readonly storageFailures: Counter<'operation'>;
  private readonly uploadBytes: Counter;
  private readonly downloadBytes: Counter;

  constructor(sources: MetricsSources = {}) {
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'cabinet_http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route (as declared) and status class, with the time each took to answer',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.jobFailures = new Counter({
      name: 'cabinet_job_failures_total',
      help: 'Background jobs that failed on this instance, by kind',
      labelNames: ['kind'],
      registers,
    });
    this.storageFailures = new Counter({
      name: 'cabinet_storage_failures_total',
      help: 'Calls to storage (local disk or the bucket) that failed on this instance, by operation',
      labelNames: ['operation'],
      registers,
    });
    this.uploadBytes = new Counter({
      name: 'cabinet_upload_bytes_total',
      help: 'Bytes of files whose upload completed on this instance (parts sent to Cabinet or to the bucket; bytes held already not counted)',
      registers,
    });
    this.downloadBytes = new Counter({
      name: 'cabinet_download_bytes_total',
      help: 'Bytes of files Cabinet sent: downloads and ranges from local storage, zips, exports, public links (not what a bucket serves)',
      registers,
    });
    const { jobs, pool } = sources;
    if (jobs) {
      const counted = onceAtATime(jobs, DATABASE_WAIT_MS);
      new Gauge({
        name: 'cabinet_jobs',
        help: 'Background jobs in the queue, by kind and state (due, scheduled, running, failed: out of attempts)',
        labelNames: ['kind', 'state'],
        registers,
        async collect() {
          this.reset();
          for (const row of (await counted()) ?? []) this.set({ kind: row.kind, state: row.state }, row.count);
        },
      });
    }
    if (pool) {
      this.gauge('cabinet_db_pool_connections', 'Connections the database pool holds', () => pool()?.total);
      this.gauge('cabinet_db_pool_idle', 'Connections of the pool not in use', () => pool()?.idle);
      this.gauge('cabinet_db_pool_waiting', 'Queries waiting for a connection of the pool', () => pool()?.waiting);
    }
  }

  /**
   * What the app adds once it is built (the context comes first): the collaboration socket's sockets and documents in
   * memory, and the search index's lag (seconds the oldest change waiting for it has waited). Read when scraped.
   */
  watchApp(app: { collab: () => { sockets: number; documents: number }; searchLag?: () => Promise<number> }): void {
    this.gauge('cabinet_collab_sockets', 'Collaboration sockets open on this instance', () => app.collab().sockets);
    this.gauge('cabinet_collab_documents', 'Documents held in memory for their editors on this instance', () => app.collab().documents);
    // The collaboration server on its own (`cabinet collab`) runs no search index.
    if (!app.searchLag) return;
    this.registry.removeSingleMetric('cabinet_search_index_lag_seconds');
    const lag = onceAtATime(app.searchLag, DATABASE_WAIT_MS);
    new Gauge({
      name: 'cabinet_search_index_lag_seconds',
      help: 'How long the oldest change still waiting for the search index has waited',
      registers: [this.registry],
      async collect() {
        // Not a stale value when the database does not answer: NaN, which no alert on the lag reads as healthy.
        this.set((await lag()) ?? NaN);
      },
    });
  }

  /** A gauge read when scraped, left out while its source has nothing to say; one made again replaces the last. */
  private gauge(name: string, help: string, value: () => number | undefined): void {
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        const v = value();
        if (v !== undefined) this.set(v);
      },
    });
  }

  /**
   * Fastify's onResponse hook: the request counted under the route that answered it (or `unmatched`), timed; and a file
   * sent (an answer with a Content-Disposition: a download or a range of it, a zip, an export) counted by its length once all of it went.
   */
  readonly onResponse = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const route = req.routeOptions.url ?? 'unmatched';
    this.requests.observe({ method: req.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` }, reply.elapsedTime / 1000);
    if (req.method === 'GET' && reply.statusCode < 300 && reply.raw.writableFinished && reply.getHeader('content-disposition') !== undefined) {
      const length = Number(reply.getHeader('content-length'));
      if (length > 0) this.downloadBytes.inc(length);
    }
    done();
  };

  /** An upload of `bytes` completed here (counted once, at its completion). */
  readonly uploaded = (bytes: number): void => this.uploadBytes.inc(bytes);

  /** For the job runner: a job of `kind` failed here. */
  readonly jobFailed = (kind: string): void => this.jobFailures.inc({ kind });

  /** A storage call (`read`, `put`, `delete`…) failed. */
  readonly storageFailed = (operation: string): void => this.storageFailures.inc({ operation });

  text(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry]).metrics();
  }
}

let process_: Registry | undefined;
/**
 * Node's own metrics (memory, event loop delay, garbage collection, handles), one set for the process, begun at its
 * first scrape: a process that is never scraped (a command, a test) runs no event loop monitor for them.
 */
function processMetrics(): Registry {
  if (!process_) {
    process_ = new Registry();
    collectDefaultMetrics({ register: process_, prefix: 'cabinet_' });
  }
  return process_;
}

/**
 * What `read` answers within `ms`, or undefined (the database did not answer in time, or failed): the scrape goes on
 * without it. A read still running when the next scrape comes is waited for again rather than started twice, so an
 * outage never piles statements up on the pool.
 */
function onceAtATime<T>(read: () => Promise<T>, ms: number): () => Promise<T | undefined> {
  let pending: Promise<T> | undefined;
  return async () => {
    const running = (pending ??= read().finally(() => (pending = undefined)));
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([running, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Headers a proxy or tunnel adds: a request carrying any of them came through one, whatever its socket says. */
const PROXIED = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via', 'x-forwarded-proto', 'x-forwarded-host', 'cf-connecting-ip', 'true-client-ip'];
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;
const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Who may read /metrics (ADR 0058): anyone with METRICS_TOKEN as a bearer token; without it, only a caller on this
 * machine, connected straight to it: not with TRUST_PROXY set (behind a proxy every caller looks local), nor with a
 * header a proxy adds, nor by a name other than localhost's (a page that rebound its own name to 127.0.0.1).
 */
export function mayReadMetrics(req: FastifyRequest, settings: { token: string | undefined; behindProxy: boolean }): boolean {
  const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  // Compared by their SHA-256, so neither the token's length nor its bytes show in the time taken.
  if (settings.token && bearer) return timingSafeEqual(digest(bearer), digest(settings.token));
  return (
    !settings.behindProxy &&
    isLoopbackAddress(req.socket.remoteAddress) &&
    LOCAL_HOST.test(req.headers.host ?? '') &&
    PROXIED.every((header) => req.headers[header] === undefined)
  );
}

/**
 * Prometheus's scrape at GET /metrics (ADR 0058), on the main server and on the collaboration server alike: callers on
 * this machine, or with METRICS_TOKEN; not part of the API.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, settings: { token: string | undefined; behindProxy: boolean }): void {
  app.addHook('onResponse', metrics.onResponse);
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!mayReadMetrics(req, settings)) {
      return reply.code(403).send({ error: { code: 'forbidden', message: 'Metrics are served to this machine, or with METRICS_TOKEN.', requestId: req.id } });
    }
    return reply
      .header('cache-control', 'no-store')
      .type('text/plain; version=0.0.4; charset=utf-8')
      .send(await metrics.text());
  });
}
