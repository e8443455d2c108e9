import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.ts';

describe('how long a stopping instance goes on serving', () => {
  it('stops at once when nothing checked it twice in the last minute', () => {
    const readiness = new Readiness();
    expect(readiness.drainMs(undefined, 1_000)).toBe(0);
    readiness.checked('10.0.0.1', 1_000);
    expect(readiness.drainMs(undefined, 2_000)).toBe(0);
    readiness.checked('10.0.0.1', 3_000);
    expect(readiness.drainMs(undefined, 3_100)).toBe(8_000);
    // A minute later the balancer is not known to be there any more.
    expect(readiness.drainMs(undefined, 3_000 + 61_000)).toBe(0);
  });

  it('waits four intervals of its slowest checker, at most 20 s; checks further apart than that are no balancer', () => {
    const readiness = new Readiness();
    for (let t = 0; t <= 2_000; t += 400) readiness.checked('10.0.0.1', t);
    for (let t = 0; t <= 2_000; t += 1_000) readiness.checked('10.0.0.2', t);
    expect(readiness.drainMs(undefined, 2_100)).toBe(4_000);
    readiness.checked('10.0.0.3', 2_000);
    readiness.checked('10.0.0.3', 12_000);
    expect(readiness.drainMs(undefined, 12_100)).toBe(20_000);
    const person = new Readiness();
    person.checked('10.0.0.4', 0);
    person.checked('10.0.0.4', 25_000);
    expect(person.drainMs(undefined, 25_100)).toBe(0);
  });

  it('forgets the checkers that asked longest ago beyond 64, however many addresses ask', () => {
    const readiness = new Readiness();
    readiness.checked('10.0.0.1', 0);
    readiness.checked('10.0.0.1', 500);
    for (let i = 0; i < 1_000; i++) readiness.checked(`2001:db8::${i.toString(16)}`, 600);
    expect(readiness.drainMs(undefined, 700)).toBe(0);
  });

  it('takes DRAIN_SECONDS as given', () => {
    const readiness = new Readiness();
    expect(readiness.drainMs(0)).toBe(0);
    expect(readiness.drainMs(12)).toBe(12_000);
  });

  it('says it is stopping from the moment it drains, and a second signal ends the wait', async () => {
    const readiness = new Readiness();
    expect(readiness.stopping).toBe(false);
    const draining = readiness.drain(60_000, Promise.resolve());
    expect(readiness.stopping).toBe(true);
    await draining;
  });
});
