/** The server's own /metrics (the bench calls from loopback); undefined when it did not answer. */
export const metricsOf = (url: string) =>
  fetch(`${url}/metrics`).then(
    (r) => (r.ok ? r.text() : undefined),
    () => undefined,
  );

/** A metric's value in Prometheus text, summed over its series whose labels match `labels` (any when none); NaN when it has none. */
export function metric(text: string, name: string, labels?: RegExp): number {
  const values = [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))]
    .filter((m) => !labels || labels.test(m[1] ?? ''))
    .map((m) => Number(m[2]));
  return values.length ? values.reduce((a, b) => a + b, 0) : labels ? 0 : NaN;
}

/** What the server still has to do in the background: jobs due or running, and how far the search index lags (seconds). */
export async function backgroundWork(url: string): Promise<{ busy: number; lag: number }> {
  const text = (await metricsOf(url)) ?? '';
  return { busy: metric(text, 'cabinet_jobs', /state="(due|running)"/), lag: metric(text, 'cabinet_search_index_lag_seconds') };
}

/**
 * Waits until the server has no background work left (at most `ms`): a measurement started then does not pay for the
 * previews and search texts an earlier one left behind.
 */
export async function untilBackgroundDone(url: string, ms = 300_000): Promise<void> {
  const by = Date.now() + ms;
  for (;;) {
    const { busy, lag } = await backgroundWork(url);
    if (busy === 0 && lag === 0) return;
    if (Date.now() > by) {
      console.log(`  background work not done after ${ms / 1000} s (jobs due or running: ${busy}; search lag: ${lag} s): going on`);
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
