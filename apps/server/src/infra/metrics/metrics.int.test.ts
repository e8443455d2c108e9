import { meApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { rawGet as get } from '../../testing/raw-get.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { enqueue } from '../jobs/queue.ts';
import { JobRunner } from '../jobs/runner.ts';

const TOKEN = 'metrics-token-0123456789';

/** A metric's value in Prometheus text, by its name and labels as written (`name{a="b"}`), or undefined. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  const test = useTestApp({ METRICS_TOKEN: TOKEN });

  it('counts and times requests by declared route and status class, failed jobs and storage calls, and reads the queue, the index, the pool and the sockets when scraped', async () => {
    const ada = await test.given.person();
    for (let i = 0; i < 3; i++) expect((await ada.call(meApi.get)).status).toBe(200);
    expect((await get(`${test.app.url}/api/v1/me`)).status).toBe(401);
    await enqueue(test.app.ctx.db, 'metrics.later', {}, { runAt: new Date(Date.now() + 3_600_000) });
    await enqueue(test.app.ctx.db, 'metrics.boom', {}, { maxAttempts: 1 });
    // A job that fails on this instance is counted by the runner that ran it.
    const runner = new JobRunner(
      test.app.ctx.db,
      { 'metrics.boom': { run: () => Promise.reject(new Error('boom')) } },
      { onFailed: test.app.ctx.metrics.jobFailed },
    );
    expect(await runner.runDue()).toBe(1);
    // A storage call that fails is counted by its operation, and still fails for its caller.
    await expect(test.app.ctx.storage.read('metrics/no-such-object')).rejects.toThrow();

    const res = await get(`${test.app.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body.toString();
    expect(valueOf(text, 'cabinet_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status="2xx"}')).toBe(3);
    expect(valueOf(text, 'cabinet_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status="4xx"}')).toBe(1);
    expect(valueOf(text, 'cabinet_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/me",status="2xx"}')).toBe(3);
    expect(valueOf(text, 'cabinet_jobs{kind="metrics.later",state="scheduled"}')).toBe(1);
    expect(valueOf(text, 'cabinet_jobs{kind="metrics.boom",state="failed"}')).toBe(1);
    expect(valueOf(text, 'cabinet_job_failures_total{kind="metrics.boom"}')).toBe(1);
    expect(valueOf(text, 'cabinet_storage_failures_total{operation="read"}')).toBe(1);
    expect(valueOf(text, 'cabinet_search_index_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'cabinet_collab_sockets')).toBe(0);
    expect(valueOf(text, 'cabinet_collab_documents')).toBe(0);
    expect(valueOf(text, 'cabinet_process_resident_memory_bytes')).toBeGreaterThan(0);
    if (test.app.ctx.database.kind === 'postgres') expect(valueOf(text, 'cabinet_db_pool_connections')).toBeGreaterThan(0);
    else expect(text).not.toContain('cabinet_db_pool_connections');
    // An address nobody declared is one series, not one per address asked for.
    await get(`${test.app.url}/no/such/page/${Date.now()}`);
    expect((await get(`${test.app.url}/metrics`)).body.toString()).toMatch(/route="unmatched"/);
  });

  it('is refused to a request a proxy forwarded, unless it carries METRICS_TOKEN', async () => {
    const asked: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }, { authorization: `Bearer ${TOKEN}x` }];
    for (const headers of asked) {
      const refused = await get(`${test.app.url}/metrics`, headers);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body.toString())).toMatchObject({ error: { code: 'forbidden' } });
    }
    const allowed = await get(`${test.app.url}/metrics`, { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(allowed.body.toString()).toContain('# TYPE cabinet_http_request_duration_seconds histogram');
  });
});
