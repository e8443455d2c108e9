import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { EventHub } from './events.ts';
import { reader, startReaders } from './readers.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A hub fed by hand: `announce` is what the activity record's trigger would send on commit. */
async function hubByHand() {
  let deliver!: (payload: string) => void;
  const hub = new EventHub();
  await hub.start({
    listen: async (_channel: string, onMessage: (payload: string) => void) => {
      deliver = onMessage;
      return async () => {};
    },
    // The record's head, read once at start: an empty record.
    db: { selectFrom: () => ({ select: () => ({ executeTakeFirst: async () => undefined }) }) },
  } as unknown as Database);
  const announce = (type: string, id: number) => deliver(JSON.stringify({ w: 'w1', id, by: null, e: { type, itemId: null, parentIds: [], clientId: null } }));
  return { hub, announce };
}

it('wakes a reader on the changes it declares, an area or an action, and on no other', async () => {
  const { hub, announce } = await hubByHand();
  const run = vi.fn(async () => {});
  const catchUp = vi.fn(async () => {});
  const ctx = {} as AppContext;
  const log = { error: vi.fn() };
  const started = startReaders(
    [reader({ name: 'test.reader', wakesOn: ['item.*', 'comment.added'], settleMs: 50, run, catchUpEvery: 60_000, catchUp })],
    hub,
    ctx,
    log,
  );
  announce('group.created', 1);
  announce('comment.edited', 2);
  await vi.advanceTimersByTimeAsync(100);
  expect(run).not.toHaveBeenCalled();
  announce('item.moved', 3);
  announce('comment.added', 4);
  await vi.advanceTimersByTimeAsync(50);
  expect(run).toHaveBeenCalledTimes(1);
  expect(run).toHaveBeenCalledWith(ctx, log);
  // The catch-up is the job runner's to run.
  expect(catchUp).not.toHaveBeenCalled();
  await started.stop();
  announce('item.created', 5);
  await vi.advanceTimersByTimeAsync(100);
  expect(run).toHaveBeenCalledTimes(1);
});

it("logs a reader's failed pass with its name, and the other readers go on", async () => {
  const { hub, announce } = await hubByHand();
  const log = { error: vi.fn() };
  const other = vi.fn(async () => {});
  const failing = async () => {
    throw new Error('database away');
  };
  const started = startReaders(
    [
      reader({ name: 'test.failing', wakesOn: ['item.*'], settleMs: 0, run: failing, catchUpEvery: 60_000, catchUp: failing }),
      reader({ name: 'test.other', wakesOn: ['item.*'], settleMs: 0, run: other, catchUpEvery: 60_000, catchUp: other }),
    ],
    hub,
    {} as AppContext,
    log,
  );
  announce('item.updated', 1);
  await vi.advanceTimersByTimeAsync(0);
  expect(log.error).toHaveBeenCalledWith({ err: new Error('database away'), reader: 'test.failing' }, expect.any(String));
  expect(other).toHaveBeenCalledTimes(1);
  await started.stop();
});
