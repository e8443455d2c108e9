import type { Context, Span, Tracer } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * OpenTelemetry traces (ADR 0061), only when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans of each request, each database
 * statement and each storage call, sent in batches over OTLP/HTTP. Unset, nothing of OpenTelemetry is even loaded, no
 * hook is added and nothing is timed: it costs nothing.
 */
export interface Tracing {
  tracer: Tracer;
  /** A finished statement as a span under whatever is active (a request's span): ended now, begun `ms` ago. */
  statement(sql: string, ended: { ms: number; failed: boolean }): void;
  /** `fn` as a span named `name`, under whatever is active. */
  span<T>(name: string, attributes: Record<string, string | number>, fn: () => Promise<T>): Promise<T>;
  /** Each request a span under its route, from its start until its answer has gone. */
  traceRequests(app: FastifyInstance): void;
  /** Sends what is waiting and stops. */
  shutdown(): Promise<void>;
}

let contextManagerSet = false;

export async function startTracing(settings: { endpoint: string; serviceName: string; version: string }): Promise<Tracing> {
  const [api, { BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { AsyncLocalStorageContextManager }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/resources'),
    ]);
  const { context, trace, SpanKind, SpanStatusCode } = api;
  // One context manager for the process (apps in one process, as tests run them, share it): what is active follows
  // the async work it started, so a statement's span finds its request's.
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
  }
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': settings.version }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1_000 })],
  });
  const tracer = provider.getTracer('cabinet', settings.version);
  const failed = (span: Span, error: unknown) => {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  };

  return {
    tracer,
    statement(sql, ended) {
      // Only inside something traced (a request): the job runner's polls would otherwise each be a trace of their own.
      if (!trace.getSpan(context.active())) return;
      const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
      const span = tracer.startSpan(`db ${verb}`, {
        kind: SpanKind.CLIENT,
        startTime: Date.now() - ended.ms,
        attributes: { 'db.system.name': 'postgresql', 'db.operation.name': verb, 'db.query.text': sql.slice(0, 2_000) },
      });
      if (ended.failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    async span(name, attributes, fn) {
      return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        try {
          return await fn();
        } catch (error) {
          failed(span, error);
          throw error;
        } finally {
          span.end();
        }
      });
    },
    traceRequests(app) {
      const spans = new WeakMap<FastifyRequest, { span: Span; active: Context }>();
      app.addHook('onRequest', (req, _reply, done) => {
        const span = tracer.startSpan(req.method, {
          kind: SpanKind.SERVER,
          // Not the address asked for: it can hold a link's or an invitation's token (the route, once known, names it).
          attributes: { 'http.request.method': req.method, 'client.address': req.ip },
        });
        const active = trace.setSpan(context.active(), span);
        spans.set(req, { span, active });
        context.with(active, done);
      });
      // The handler runs inside the request's span whatever ran before it (a body read from the socket's events).
      app.addHook('preHandler', (req, _reply, done) => {
        const held = spans.get(req);
        if (held) context.with(held.active, done);
        else done();
      });
      // A browser gone before the answer: the span ends, said to be cut short.
      app.addHook('onRequestAbort', (req, done) => {
        const held = spans.get(req);
        if (held) {
          held.span.setAttributes({ 'http.route': req.routeOptions.url ?? 'unmatched', 'cabinet.aborted': true });
          held.span.end();
          spans.delete(req);
        }
        done();
      });
      app.addHook('onResponse', (req, reply, done) => {
        const held = spans.get(req);
        if (held) {
          const route = req.routeOptions.url ?? 'unmatched';
          held.span.updateName(`${req.method} ${route}`);
          held.span.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode });
          if (reply.statusCode >= 500) held.span.setStatus({ code: SpanStatusCode.ERROR });
          held.span.end();
          spans.delete(req);
        }
        done();
      });
    },
    async shutdown() {
      // What is waiting goes, but a collector that does not answer holds nobody's stop for more than 2 s.
      await Promise.race([provider.shutdown().catch(() => {}), new Promise((r) => setTimeout(r, 2_000).unref())]);
    },
  };
}
