/** Files this small are hashed at once with WebCrypto: starting a worker would take longer. */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;

/** The SHA-256 of a file, computed in a Web Worker (at once, for a small file); `signal` stops it; `onProgress` hears the bytes hashed so far. */
export async function hashFile(file: File, signal: AbortSignal, onProgress?: (bytes: number) => void): Promise<string> {
  if (file.size <= SMALL_FILE_BYTES && globalThis.crypto?.subtle) {
    const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
    signal.throwIfAborted();
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./hash-worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(new DOMException('Hashing stopped', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<{ type: string; sha256?: string; message?: string; bytes?: number }>) => {
      if (event.data.type === 'progress') return onProgress?.(event.data.bytes ?? 0);
      if (event.data.type === 'done') resolve(event.data.sha256!);
      else reject(new Error(event.data.message));
      signal.removeEventListener('abort', stop);
      worker.terminate();
    };
    worker.onerror = (event) => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
      reject(new Error(event.message || 'The file could not be read.'));
    };
    worker.postMessage({ file });
  });
}

/**
 * The answer to a dedup challenge from the file at hand (ADR 0042): SHA-256 of the nonce's text
 * and then the ranges asked for, in order. A few small slices: read at once, hashed with WebCrypto.
 */
export async function proveHeld(file: Blob, challenge: { nonce: string }, slices: { start: number; end: number }[]): Promise<string> {
  const ranges = await Promise.all(slices.map(async (s) => new Uint8Array(await file.slice(s.start, s.end).arrayBuffer())));
  const parts = [new TextEncoder().encode(challenge.nonce), ...ranges];
  const whole = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    whole.set(p, at);
    at += p.length;
  }
  const digest = await crypto.subtle.digest('SHA-256', whole);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
