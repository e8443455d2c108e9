import { createSHA256 } from 'hash-wasm';

/** Hashes a file off the main thread, reading it in slices, so the page stays responsive. */
const CHUNK = 8 * 1024 * 1024;
const scope = self as unknown as { onmessage: ((event: MessageEvent<{ file: File }>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = (event) => void hash(event.data.file);

async function hash(file: File) {
  try {
    const hasher = await createSHA256();
    hasher.init();
    for (let offset = 0; offset < file.size; offset += CHUNK) {
      hasher.update(new Uint8Array(await file.slice(offset, offset + CHUNK).arrayBuffer()));
      scope.postMessage({ type: 'progress', bytes: Math.min(file.size, offset + CHUNK) });
    }
    scope.postMessage({ type: 'done', sha256: hasher.digest('hex') });
  } catch (error) {
    scope.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}
