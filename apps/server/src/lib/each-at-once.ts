/** Runs `fn` on each item, `n` at a time; after a failure none is begun, and it fails once those under way have ended. */
export async function eachAtOnce<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (!failed && next < items.length) {
        try {
          await fn(items[next++]!);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}
