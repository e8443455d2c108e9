import { IDEMPOTENCY_KEY_HEADER, itemsApi, linksApi } from '@cabinet/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call } from './api-client.ts';

const ID = '0190f5d6-0000-7000-8000-000000000000';

/** What was sent: each request's method and Idempotency-Key. */
let sent: { method: string; key: string | undefined }[] = [];

/** A server answering these statuses in turn (201 once they run out). */
function answering(...statuses: number[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push({ method: init.method ?? 'GET', key: (init.headers as Record<string, string>)[IDEMPOTENCY_KEY_HEADER] });
      const status = statuses.shift() ?? 201;
      const body = status < 300 ? { id: ID } : { error: { code: status === 429 ? 'rate_limited' : 'database_unavailable', message: 'Later.', requestId: 'r' } };
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
}

/** A call, its backoffs run at once. */
async function settled<T>(answer: Promise<T>): Promise<T> {
  const outcome = answer.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  const done = await outcome;
  if ('error' in done) throw done.error;
  return done.value;
}

beforeEach(() => {
  sent = [];
  vi.useFakeTimers();
  vi.stubGlobal('document', { cookie: '' });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the API client', () => {
  it('sends a creation again after 503 and 429 under its one key, and the next creation under a new key', async () => {
    answering(503, 429, 201);
    await settled(call(linksApi.create, { params: { id: ID }, body: { kind: 'view' } }));
    expect(sent).toHaveLength(3);
    expect(sent[0]!.key).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);

    answering(201);
    await settled(call(linksApi.create, { params: { id: ID }, body: { kind: 'view' } }));
    expect(sent).toHaveLength(4);
    expect(sent[3]!.key).not.toBe(sent[0]!.key);
  });

  it('sends a key with any POST, but a POST that makes nothing is not sent again after a 503; a read carries none', async () => {
    answering(503);
    await expect(settled(call(itemsApi.trash, { params: { id: ID } }))).rejects.toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.key).toMatch(/^[0-9a-f]{32}$/);

    answering(200);
    await settled(call(linksApi.list, { params: { id: ID } }));
    expect(sent[1]).toEqual({ method: 'GET', key: undefined });
  });
});
