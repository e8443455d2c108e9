import { AsyncResource } from 'node:async_hooks';

/** A pass woken by news (a change heard), run one at a time. */
export interface Rerunner {
  /** Runs the pass `settleMs` from now, or once more after the one running: never two at once, never more than one waiting. */
  wake(): void;
  /** No pass starts any more; resolves once the one running (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `run` soon after a wake: wakes in quick succession (a document saved as people type) make
 * one pass, and wakes during a pass make exactly one more after it, since what they announce may
 * have come after the pass read. A pass that fails is given to `onError` and never rejects, and
 * the next wake runs again.
 */
export function rerunner(run: () => Promise<unknown>, o: { settleMs: number; onError: (error: unknown) => void }): Rerunner {
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const pass = async () => {
    try {
      await run();
    } catch (error) {
      o.onError(error);
    }
  };
  // A pass runs in the context the rerunner was made in, not in that of the call whose change woke
  // it: it is nobody's request (its statements are not that call's, statements.ts).
  const start = AsyncResource.bind(() => {
    timer = undefined;
    running = pass().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        wake();
      }
    });
  });
  const wake = () => {
    if (stopped) return;
    if (running) again = true;
    else timer ??= setTimeout(start, o.settleMs);
  };
  return {
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
