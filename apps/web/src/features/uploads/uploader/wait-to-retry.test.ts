import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cabinetUnreachable, PROBE_MS, SPREAD_MS, waitToRetry } from './wait-to-retry.ts';

let up = false;
const probes = vi.fn();
beforeEach(() => {
  vi.useFakeTimers();
  up = false;
  probes.mockClear();
  vi.stubGlobal('window', Object.assign(new EventTarget(), { location: { href: 'https://cabinet.example/w/acme/my', origin: 'https://cabinet.example' } }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      probes(url);
      if (!up) throw new TypeError('Failed to fetch');
      return new Response('ok');
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Whether the wait has ended after `ms` more of the clock. */
async function endedAfter(wait: Promise<unknown>, ms: number) {
  let ended = false;
  void wait.then(() => (ended = true));
  await vi.advanceTimersByTimeAsync(ms);
  return ended;
}

describe('the wait before an upload tries again', () => {
  it('ends as soon as Cabinet answers again, found by one probe for every waiting try', async () => {
    const stop = new AbortController();
    const waits = [waitToRetry(30_000, stop.signal, true), waitToRetry(16_000, stop.signal, true)];
    const both = Promise.all(waits);
    expect(await endedAfter(both, 3 * PROBE_MS)).toBe(false);
    expect(probes).toHaveBeenCalledTimes(3);
    expect(probes).toHaveBeenCalledWith('/readyz');
    up = true;
    expect(await endedAfter(both, PROBE_MS + SPREAD_MS)).toBe(true);
    // Nothing waits: the probing stops.
    await vi.advanceTimersByTimeAsync(10 * PROBE_MS);
    expect(probes).toHaveBeenCalledTimes(4);
  });

  it('waits its whole time while Cabinet answers all along: the connection dropped, not Cabinet', async () => {
    up = true;
    const wait = waitToRetry(8_000, new AbortController().signal, true);
    expect(await endedAfter(wait, 7_999)).toBe(false);
    expect(probes).toHaveBeenCalledTimes(3);
    expect(await endedAfter(wait, 1)).toBe(true);
    // Its time over, nothing waits and no probe follows.
    await vi.advanceTimersByTimeAsync(10 * PROBE_MS);
    expect(probes).toHaveBeenCalledTimes(3);
  });

  it('ends when the browser is back online', async () => {
    const wait = waitToRetry(30_000, new AbortController().signal, true);
    window.dispatchEvent(new Event('online'));
    expect(await endedAfter(wait, 0)).toBe(true);
  });

  it('waits its whole time for a failure Cabinet did not cause, and asks nothing meanwhile', async () => {
    up = true;
    const wait = waitToRetry(8_000, new AbortController().signal);
    expect(await endedAfter(wait, 7_999)).toBe(false);
    expect(await endedAfter(wait, 1)).toBe(true);
    expect(probes).not.toHaveBeenCalled();
  });

  it('stops with the upload', async () => {
    const stop = new AbortController();
    const wait = waitToRetry(30_000, stop.signal, true);
    stop.abort();
    await expect(wait).rejects.toThrow('Stopped');
    await expect(waitToRetry(1_000, stop.signal)).rejects.toThrow('Stopped');
  });

  it('tells a failure to reach Cabinet from others: a part sent elsewhere, or refused, waits its whole time', () => {
    expect(cabinetUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(cabinetUnreachable(Object.assign(new Error('unreachable'), { status: 0 }))).toBe(true);
    expect(cabinetUnreachable(Object.assign(new Error('busy'), { status: 503 }))).toBe(false);
    expect(cabinetUnreachable(new TypeError('dropped'), '/storage/parts/abc?sig=1')).toBe(true);
    expect(cabinetUnreachable(new TypeError('dropped'), 'https://bucket.example/part?sig=1')).toBe(false);
  });
});
