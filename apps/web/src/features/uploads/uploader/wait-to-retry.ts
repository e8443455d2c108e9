/**
 * The wait before an upload's next try. A try that failed because Cabinet could not be reached (restarting, a
 * deploy, the network gone) is tried again as soon as Cabinet answers once more, not only when its doubling wait
 * ends (up to 30 s): while such waits are pending, one probe for all of them asks Cabinet's `/readyz` every
 * `PROBE_MS`, and the browser coming back online wakes them too. Other failures (a storage elsewhere, a refusal,
 * too many requests) wait their whole time.
 */
export const PROBE_MS = 2_000;

const waking = new Set<() => void>();
let probe: ReturnType<typeof setTimeout> | undefined;

function wakeAll() {
  for (const wake of [...waking]) wake();
}

function probeLater() {
  if (probe !== undefined || waking.size === 0) return;
  probe = setTimeout(() => {
    void fetch('/readyz', { cache: 'no-store' })
      .then(
        (res) => res.ok,
        () => false,
      )
      .then((up) => {
        probe = undefined;
        if (up) wakeAll();
        probeLater();
      });
  }, PROBE_MS);
}

/**
 * Waits `ms`, or less when `wakesWhenBack` and Cabinet answers again first; rejects with an AbortError when
 * `signal` stops the upload.
 */
export function waitToRetry(ms: number, signal: AbortSignal, wakesWhenBack = false): Promise<void> {
  if (signal.aborted) return Promise.reject(new DOMException('Stopped', 'AbortError'));
  return new Promise<void>((resolve, reject) => {
    const end = () => {
      clearTimeout(timer);
      waking.delete(done);
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', stop);
    };
    const done = () => {
      end();
      resolve();
    };
    const stop = () => {
      end();
      reject(new DOMException('Stopped', 'AbortError'));
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', stop, { once: true });
    if (wakesWhenBack) {
      waking.add(done);
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
