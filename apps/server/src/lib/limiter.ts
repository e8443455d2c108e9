export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

/** A task refused because `maxWaiting` others already wait their turn. */
export class LimiterFull extends Error {
  constructor() {
    super('too many tasks waiting');
  }
}

/**
 * Runs at most `concurrency` tasks at once; the others wait their turn, in order. With
 * `maxWaiting`, a task that would wait behind that many others is refused at once (`LimiterFull`),
 * so a flood is turned away instead of piling up.
 */
export function limiter(concurrency: number, maxWaiting = Number.POSITIVE_INFINITY): Limiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < concurrency) active++;
    else if (waiting.length >= maxWaiting) throw new LimiterFull();
    // A finishing task hands its place on to the next waiting one.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
