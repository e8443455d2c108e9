import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rerunner } from './rerun.ts';

/** A pass the test ends when it wants: `started` counts passes begun, `finish` ends the oldest running one. */
function passes() {
  const ends: Array<(error?: Error) => void> = [];
  let started = 0;
  return {
    run: () =>
      new Promise<void>((resolve, reject) => {
        started++;
        ends.push((error) => (error ? reject(error) : resolve()));
      }),
    get started() {
      return started;
    },
    finish: async (error?: Error) => {
      ends.shift()!(error);
      // Lets the pass's settlement (and a rerun's scheduling) happen.
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('rerunner', () => {
  it('runs a pass outside the context of the call that woke it', async () => {
    const request = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const r = rerunner(async () => void seen.push(request.getStore()), { settleMs: 10, onError: () => {} });
    request.run('a request', () => r.wake());
    await vi.advanceTimersByTimeAsync(10);
    expect(seen).toEqual([undefined]);
  });

  it('makes one pass of wakes in quick succession, after they settle', async () => {
    const p = passes();
    const r = rerunner(p.run, { settleMs: 100, onError: () => {} });
    r.wake();
    await vi.advanceTimersByTimeAsync(60);
    r.wake();
    r.wake();
    expect(p.started).toBe(0);
    await vi.advanceTimersByTimeAsync(40);
    expect(p.started).toBe(1);
    await p.finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.started).toBe(1);
  });

  it('runs exactly once more after a pass that was woken during, never two at once', async () => {
    const p = passes();
    const r = rerunner(p.run, { settleMs: 10, onError: () => {} });
    r.wake();
    await vi.advanceTimersByTimeAsync(10);
    expect(p.started).toBe(1);
    for (let i = 0; i < 5; i++) r.wake();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.started).toBe(1);
    await p.finish();
    await vi.advanceTimersByTimeAsync(10);
    expect(p.started).toBe(2);
    await p.finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.started).toBe(2);
  });

  it('reports a failed pass and runs again at the next wake', async () => {
    const p = passes();
    const onError = vi.fn();
    const r = rerunner(p.run, { settleMs: 10, onError });
    r.wake();
    await vi.advanceTimersByTimeAsync(10);
    await p.finish(new Error('database away'));
    expect(onError).toHaveBeenCalledWith(new Error('database away'));
    r.wake();
    await vi.advanceTimersByTimeAsync(10);
    expect(p.started).toBe(2);
    await p.finish();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('reports a pass that throws before it is under way', async () => {
    const onError = vi.fn();
    const r = rerunner(
      () => {
        throw new Error('no pool');
      },
      { settleMs: 10, onError },
    );
    r.wake();
    await vi.advanceTimersByTimeAsync(10);
    expect(onError).toHaveBeenCalledWith(new Error('no pool'));
  });

  it('stops: waits for the pass running, then neither its rerun nor any wake runs', async () => {
    const p = passes();
    const r = rerunner(p.run, { settleMs: 10, onError: () => {} });
    r.wake();
    await vi.advanceTimersByTimeAsync(10);
    r.wake();
    let stopped = false;
    const stopping = r.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    await p.finish();
    await stopping;
    r.wake();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.started).toBe(1);
  });

  it('stops before a woken pass starts: it never does', async () => {
    const p = passes();
    const r = rerunner(p.run, { settleMs: 100, onError: () => {} });
    r.wake();
    await r.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(p.started).toBe(0);
  });
});
