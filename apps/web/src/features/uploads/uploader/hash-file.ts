/** The SHA-256 of a file, computed in a Web Worker; `signal` stops it. */
export function hashFile(file: File, signal: AbortSignal): Promise<string> {
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
