import { eventsApi, urlOf, type TItemEvent } from '@cabinet/contracts';
import { expect } from 'vitest';
import type { Person } from './given.ts';

/** What `found` gives once it gives something, looked for every 20 ms; an error saying `missing()` after `timeoutMs`. */
async function waitFor<T>(found: () => T | undefined, timeoutMs: number, missing: () => string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(missing());
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Reads a Server-Sent Events stream, collecting the item events (with their ids) and resets as they come:
 * reconnecting with `lastEventId`, or opened `after` a `Last-Change-Id` (ADR 0046).
 */
export async function watch(baseUrl: string, person: Person, workspaceId: string, lastEventId?: number, o: { after?: number } = {}) {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${person.token}`, ...(lastEventId ? { 'last-event-id': String(lastEventId) } : {}) };
  // A stream read as it comes (`call` would wait for its end).
  const res = await fetch(`${baseUrl}${urlOf(eventsApi.stream, { ws: workspaceId }, { after: o.after })}`, { headers, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: TItemEvent[] = [];
  const ids: number[] = [];
  /** Every message in order: an item event's id, 'reset', 'ready', or a group event's type. */
  const order: (number | string)[] = [];
  const groups: { id: number; type: string; clientId: string | null }[] = [];
  /** The id `event: ready` carried. */
  let readyId: number | undefined;
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
        if (field('event') === 'reset') order.push('reset');
        if (field('event') === 'ready') {
          order.push('ready');
          readyId = Number(field('id'));
        }
        if (field('event') === 'group') {
          const group = JSON.parse(field('data')!) as { type: string; clientId: string | null };
          groups.push({ id: Number(field('id')), ...group });
          order.push(group.type);
        }
        if (field('event') !== 'item') continue;
        const id = Number(field('id'));
        events.push(JSON.parse(field('data')!) as TItemEvent);
        ids.push(id);
        order.push(id);
      }
    }
  })();
  return {
    events,
    ids,
    order,
    groups,
    get readyId() {
      return readyId;
    },
    /** Settles when the server ends the stream. */
    ended: pump,
    /** Settles when the stream has said `ready`: what it replays is sent, and what follows is live. */
    ready: (timeoutMs = 5000) =>
      waitFor(
        () => readyId,
        timeoutMs,
        () => `no ready; heard ${JSON.stringify(order)}`,
      ),
    until: (predicate: (e: TItemEvent) => boolean, timeoutMs = 5000) =>
      waitFor(
        () => events.find(predicate),
        timeoutMs,
        () => `no such event; heard ${JSON.stringify(events)}`,
      ),
    async close() {
      controller.abort();
      await pump;
    },
  };
}
