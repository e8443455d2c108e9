/**
 * What the page shows is at least as fresh as the `Last-Change-Id` its answers carried (ADR 0046):
 * a live stream opened from the oldest of those misses no change and replays none the page already
 * shows, so a page load fetches its lists once. Answers older than FRESH_MS are left out: what they
 * brought is stale by then (queries keep data fresh 30 s) and is fetched again when shown.
 */
const FRESH_MS = 60_000;

/** The ids answers carried, with when they came, oldest first. */
let heard: Array<{ at: number; id: number }> = [];

/** Notes the `Last-Change-Id` header of an answer (absent or malformed: nothing). */
export function noteLastChange(header: string | null, now = Date.now()): void {
  const id = header === null || header === '' ? NaN : Number(header);
  if (!Number.isSafeInteger(id) || id < 0) return;
  heard = heard.filter((h) => now - h.at < FRESH_MS);
  heard.push({ at: now, id });
}

/** Where a stream opened now starts: the oldest id of the last FRESH_MS's answers, or undefined when there were none. */
export function changesShownSince(now = Date.now()): number | undefined {
  heard = heard.filter((h) => now - h.at < FRESH_MS);
  return heard.length ? Math.min(...heard.map((h) => h.id)) : undefined;
}

/** Forgets every id (tests). */
export function forgetLastChanges(): void {
  heard = [];
}
