import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { meApi } from '@cabinet/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../testing/test-app.ts';

/** A span as OTLP/JSON sends it, its attributes made plain. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status?: { code?: number };
}

type Value = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
const plain = (v: Value) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));

/** An OpenTelemetry collector of the smallest kind: what is posted to /v1/traces, kept. */
const spans: Span[] = [];
const resources: Record<string, unknown>[] = [];
let collector: Server;
async function startCollector(): Promise<string> {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: Value }[] };
            scopeSpans: { spans: (Omit<Span, 'attributes'> & { attributes?: { key: string; value: Value }[] })[] }[];
          }[];
        };
        for (const r of body.resourceSpans) {
          resources.push(Object.fromEntries(r.resource.attributes.map((a) => [a.key, plain(a.value)])));
          for (const s of r.scopeSpans.flatMap((x) => x.spans))
            spans.push({ ...s, attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, plain(a.value)])) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
}
afterAll(() => new Promise<void>((resolve) => (collector ? collector.close(() => resolve()) : resolve())));

describe('traces, with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const test = useTestApp(async () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: await startCollector(), OTEL_SERVICE_NAME: 'cabinet-tests' }));

  it('sends a span for each request, with the statements and storage calls it made inside it', async () => {
    const ada = await test.given.person('Ada');
    expect((await ada.call(meApi.get)).status).toBe(200);
    const uploaded = await test.given.upload(ada, ada.workspace.homeId, 'traced.txt', new TextEncoder().encode('traced'));
    expect(uploaded.status).toBe(200);

    const request = (name: string) => spans.find((s) => s.name === name && s.kind === 2);
    await expect.poll(() => request('GET /api/v1/me') && request('POST /api/v1/uploads/:id/complete'), { timeout: 15_000 }).toBeTruthy();
    const me = request('GET /api/v1/me')!;
    expect(me.attributes).toMatchObject({ 'http.route': '/api/v1/me', 'http.response.status_code': 200, 'http.request.method': 'GET' });
    // The statements the request made (authenticating its token) are spans inside it.
    const within = (parent: Span) => spans.filter((s) => s.parentSpanId === parent.spanId);
    await expect.poll(() => within(me).filter((s) => s.name.startsWith('db ')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(within(me).find((s) => s.name.startsWith('db '))).toMatchObject({ traceId: me.traceId, attributes: { 'db.system.name': 'postgresql' } });
    // Completing an upload asks storage for the bytes it joins: storage's calls are spans inside the request too.
    const complete = request('POST /api/v1/uploads/:id/complete')!;
    await expect.poll(() => within(complete).some((s) => s.name.startsWith('storage ')), { timeout: 15_000 }).toBe(true);
    expect(resources[0]).toMatchObject({ 'service.name': 'cabinet-tests' });
  });
});

describe('traces, without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const test = useTestApp();
  it('are off: no tracing at all', () => {
    expect(test.app.ctx.tracing).toBeUndefined();
  });
});
