/** Files this small are hashed at once with WebCrypto: starting a worker would take longer. */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;

/** The SHA-256 of a file, computed in a Web Worker (at once, for a small file); `signal` stops it. */
export async function hashFile(file: File, signal: AbortSignal): Promise<string> {
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
    worker.onmessage = (event: MessageEvent<{ type: string; sha256?: string; message?: string }>) => {
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
