import { stopped } from './wait-to-retry.ts';

/** The storage answered a part with an error status (not a network failure). */
export class PartRejected extends Error {
  constructor(readonly status: number) {
    super(`The storage refused a part (${status}).`);
  }
}

/**
 * PUTs one part to its signed URL. XMLHttpRequest rather than fetch, because only it reports
 * upload progress. A network failure rejects with a TypeError; an error status with PartRejected.
 */
export function putPart(url: string, body: Blob, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const stop = () => xhr.abort();
    signal.addEventListener('abort', stop, { once: true });
    const settle = (error?: Error) => {
      signal.removeEventListener('abort', stop);
      if (error) reject(error);
      else resolve();
    };
    xhr.open('PUT', url);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => settle(xhr.status >= 200 && xhr.status < 300 ? undefined : new PartRejected(xhr.status));
    xhr.onerror = () => settle(new TypeError('The network dropped while sending a part.'));
    xhr.onabort = () => settle(stopped());
    xhr.send(body);
  });
}
