/**
 * The wait before an upload's next try. A try that failed because Cabinet could not be reached (restarting, a
 * deploy, the network gone) goes again soon after Cabinet is back, not only when its doubling wait ends (up to
 * 30 s): while such waits are pending, one probe for all of them asks Cabinet's `/readyz` every `PROBE_MS`, and a
 * wait that has seen the probe fail ends once it answers again (each a moment apart, so that not every upload of
 * every tab comes back at the same instant). The browser coming back online ends them too. A wait that never saw
 * Cabinet down (a connection that drops now and then while Cabinet answers) and other failures (a storage
 * elsewhere, a refusal, too many requests) wait their whole time.
 */
export const PROBE_MS = 2_000;
/** Waits woken by Cabinet's return end within this much of it, each at a random moment. */
export const SPREAD_MS = 1_000;

interface Waiting {
  wake: () => void;
  /** The probe found Cabinet away since this wait began. */
  sawDown: boolean;
}

const waiting = new Set<Waiting>();
let probe: ReturnType<typeof setTimeout> | undefined;
let asking = false;

/** The error an upload's waits and calls end with when it is stopped. */
export const stopped = () => new DOMException('Stopped', 'AbortError');

function probeLater() {
  if (probe !== undefined || asking || waiting.size === 0) return;
  probe = setTimeout(() => {
    probe = undefined;
    asking = true;
    void fetch('/readyz', { cache: 'no-store', signal: AbortSignal.timeout(PROBE_MS) })
      .then(
        (res) => res.ok,
        () => false,
      )
      .then((up) => {
        asking = false;
        for (const w of waiting) {
          if (!up) w.sawDown = true;
          else if (w.sawDown) setTimeout(w.wake, Math.random() * SPREAD_MS);
        }
        probeLater();
      });
  }, PROBE_MS);
}

/**
 * Waits `ms`, or less when `wakesWhenBack` and Cabinet, found away, answers again first; rejects with an AbortError
 * when `signal` stops the upload.
 */
export function waitToRetry(ms: number, signal: AbortSignal, wakesWhenBack = false): Promise<void> {
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise<void>((resolve, reject) => {
    let ended = false;
    const end = () => {
      ended = true;
      clearTimeout(timer);
      waiting.delete(entry);
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', stop);
      // Nothing waits any longer: the next probe is not sent.
      if (waiting.size === 0 && probe !== undefined) {
        clearTimeout(probe);
        probe = undefined;
      }
    };
    const done = () => {
      if (ended) return;
      end();
      resolve();
    };
    const stop = () => {
      if (ended) return;
      end();
      reject(stopped());
    };
    const entry: Waiting = { wake: done, sawDown: false };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', stop, { once: true });
    if (wakesWhenBack) {
      waiting.add(entry);
      window.addEventListener('online', done, { once: true });
      probeLater();
    }
  });
}

/** Whether a failed call or part never reached Cabinet itself: its own calls, and parts sent to its own address. */
export function cabinetUnreachable(error: unknown, url?: string): boolean {
  const network = error instanceof TypeError || (typeof error === 'object' && error !== null && 'status' in error && error.status === 0);
  if (!network) return false;
  return url === undefined || new URL(url, window.location.href).origin === window.location.origin;
}
