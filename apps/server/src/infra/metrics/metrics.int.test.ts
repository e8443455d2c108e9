import { filesApi, meApi } from '@cabinet/contracts';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
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
    // A change that has waited a minute for the search index, put off for an hour (as after a failed try) so this
    // instance's indexer does not take it before the scrape.
    const folder = await test.given.folder(ada, ada.workspace.homeId, 'Waiting');
    const waiting = sql`now() - interval '60 seconds'`;
    const putOff = sql`now() + interval '1 hour'`;
    await sql`INSERT INTO search_tasks (item_id, kind, queued_at, locked_until) VALUES (${folder.id}, 'text', ${waiting}, ${putOff})
      ON CONFLICT (item_id, kind) DO UPDATE SET queued_at = ${waiting}, locked_until = ${putOff}`.execute(test.app.ctx.db);
    await enqueue(test.app.ctx.db, 'metrics.boom', {}, { maxAttempts: 1 });
    // A job that fails on this instance is counted by the runner that ran it.
    const runner = new JobRunner(
      test.app.ctx.db,
      { 'metrics.boom': { run: () => Promise.reject(new Error('boom')) } },
      { onFailed: test.app.ctx.metrics.jobFailed },
    );
    expect(await runner.runDue()).toBe(1);
    // A storage call that fails is counted by its operation, and still fails for its caller: a file stands where the
    // object's folder would go. What the caller asked wrong (an object that is not there) is not storage failing.
    await mkdir(path.join(test.app.dataDir, 'blobs', 'objects'), { recursive: true });
    await writeFile(path.join(test.app.dataDir, 'blobs', 'objects', 'metrics'), 'in the way');
    await expect(test.app.ctx.storage.put('metrics/object', new Uint8Array([1, 2, 3]), 'application/octet-stream')).rejects.toThrow();
    await expect(test.app.ctx.storage.read('no-such-object')).rejects.toThrow();

    // A file of 3,000 bytes uploaded, then downloaded whole twice and ten bytes of it once.
    const file = await test.given.upload(ada, ada.workspace.homeId, 'counted.bin', new Uint8Array(3000).fill(7));
    expect(file.status).toBe(200);
    const signed = await ada.call(filesApi.contentUrl, { params: { id: file.body.item!.id } });
    for (let i = 0; i < 2; i++) expect((await get(signed.body.url)).body.length).toBe(3000);
    expect((await get(signed.body.url, { range: 'bytes=0-9' })).status).toBe(206);

    const res = await get(`${test.app.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body.toString();
    expect(valueOf(text, 'cabinet_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status="2xx"}')).toBe(3);
    expect(valueOf(text, 'cabinet_http_request_duration_seconds_count{method="GET",route="/api/v1/me",status="4xx"}')).toBe(1);
    expect(valueOf(text, 'cabinet_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/me",status="2xx"}')).toBe(3);
    expect(valueOf(text, 'cabinet_job_failures_total{kind="metrics.boom"}')).toBe(1);
    expect(valueOf(text, 'cabinet_storage_failures_total{operation="put"}')).toBe(1);
    expect(valueOf(text, 'cabinet_storage_failures_total{operation="read"}')).toBeUndefined();
    expect(valueOf(text, 'cabinet_upload_bytes_total')).toBe(3000);
    expect(valueOf(text, 'cabinet_collab_sockets')).toBe(0);
    expect(valueOf(text, 'cabinet_collab_documents')).toBe(0);
    expect(valueOf(text, 'cabinet_process_resident_memory_bytes')).toBeGreaterThan(0);
    if (test.app.ctx.database.kind === 'postgres') expect(valueOf(text, 'cabinet_db_pool_connections')).toBeGreaterThan(0);
    else expect(text).not.toContain('cabinet_db_pool_connections');
    // Read from the database when scraped: a database slower than the scrape's 2 s wait (a loaded machine) leaves them
    // out of that scrape, so they are asked for again until they come.
    const scraped = async (series: string) => valueOf((await get(`${test.app.url}/metrics`)).body.toString(), series);
    // Counted as each answer ends on the server's side, which may be just after the client has read it.
    await expect.poll(() => scraped('cabinet_download_bytes_total'), { timeout: 10_000 }).toBe(6010);
    await expect.poll(() => scraped('cabinet_jobs{kind="metrics.later",state="scheduled"}'), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => scraped('cabinet_jobs{kind="metrics.boom",state="failed"}'), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => scraped('cabinet_search_index_lag_seconds'), { timeout: 30_000 }).toBeGreaterThanOrEqual(59);
    // An address nobody declared is one series, not one per address asked for.
    await get(`${test.app.url}/no/such/page/${Date.now()}`);
    expect((await get(`${test.app.url}/metrics`)).body.toString()).toMatch(/route="unmatched"/);
  });

  it('serves every series the Grafana dashboard in docs/ reads', async () => {
    const dashboard = JSON.parse(await readFile(new URL('../../../../../docs/grafana/cabinet-dashboard.json', import.meta.url), 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const read = new Set(exprs.flatMap((e) => e.match(/\bcabinet_[a-z0-9_]+/g) ?? []).map((name) => name.replace(/_(bucket|count|sum)$/, '')));
    const text = (await get(`${test.app.url}/metrics`)).body.toString();
    const served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    // The pool is PostgreSQL's: an embedded database has none to show.
    const expected = [...read].filter((name) => test.app.ctx.database.kind === 'postgres' || !name.startsWith('cabinet_db_pool_'));
    expect(expected.filter((name) => !served.has(name))).toEqual([]);
    expect(expected.length).toBeGreaterThan(10);
  });

  it('is refused to a caller on another machine, through a proxy or by another name, unless it carries METRICS_TOKEN', async () => {
    const asked = (remoteAddress: string, headers: Record<string, string> = {}) =>
      test.app.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { host: 'localhost:8080', ...headers } });
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect((await asked(local)).statusCode).toBe(200);
    const refused = [
      await asked('192.0.2.10'),
      await asked('::ffff:192.0.2.10'),
      await asked('2001:db8::1'),
      ...(await Promise.all(
        ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via', 'x-forwarded-proto', 'x-forwarded-host', 'cf-connecting-ip', 'true-client-ip'].map((h) =>
          asked('127.0.0.1', { [h]: '203.0.113.9' }),
        ),
      )),
      // A page whose name was made to point at 127.0.0.1 (DNS rebinding) asks by that name.
      await asked('127.0.0.1', { host: 'evil.example:8080' }),
      await asked('192.0.2.10', { authorization: `Bearer ${TOKEN}x` }),
      await asked('192.0.2.10', { authorization: `Bearer ${TOKEN.slice(0, -1)}y` }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: 'forbidden' } });
    }
    const allowed = await asked('192.0.2.10', { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('# TYPE cabinet_http_request_duration_seconds histogram');
  });
});

describe('/metrics behind a proxy', () => {
  const test = useTestApp({ TRUST_PROXY: 'true' });

  it('is served to no one without METRICS_TOKEN, as every caller looks local', async () => {
    const res = await test.app.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { host: 'localhost' } });
    expect(res.statusCode).toBe(403);
  });
});
