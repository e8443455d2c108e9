import type { MessagePort } from 'node:worker_threads';

// Byte ranges of a stored file, asked for by a worker thread through a MessagePort and read by the
// main thread (which holds the storage driver): a task reads only the parts of a large file it
// needs (a PDF's first page) instead of being handed all of it.

/** Reads bytes `begin`..`end` (exclusive) of the file. */
export type ReadRange = (begin: number, end: number) => Promise<Uint8Array>;

interface Ask {
  id: number;
  begin: number;
  end: number;
}
type Answer = { id: number; bytes: Uint8Array } | { id: number; error: string; refused: boolean };

/** A read through a port that failed: `refused` past the limits `serveRanges` was given, else the storage's failure. */
export class RangeReadFailure extends Error {
  override name = 'RangeReadFailure';
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
  }
}

/**
 * Answers a worker's asks on `port` from `read`, for bytes within `size`, at most `maxBytes` in all
 * (past that, or outside the file, an ask fails). Never throws: a failed read is an answer.
 */
export function serveRanges(port: MessagePort, size: number, read: ReadRange, maxBytes: number): void {
  let served = 0;
  port.on('message', (ask: Ask) => {
    const answer = (a: Answer) => {
      try {
        port.postMessage(a);
      } catch {
        // The port closed (the task ended): nobody is waiting.
      }
    };
    const { id, begin, end } = ask;
    if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end > size || end <= begin) {
      return answer({ id, error: `bytes ${begin}–${end} are outside the file`, refused: true });
    }
    served += end - begin;
    if (served > maxBytes) return answer({ id, error: `more than ${maxBytes} bytes of the file were asked for`, refused: true });
    read(begin, end).then(
      (bytes) => answer({ id, bytes }),
      (error: unknown) => answer({ id, error: error instanceof Error ? error.message : String(error), refused: false }),
    );
  });
}

/** The worker's side: reads ranges through `port`. A refused or failed read rejects with RangeReadFailure. */
export function rangeReader(port: MessagePort): { read: ReadRange; close(): void } {
  let next = 0;
  const waiting = new Map<number, { resolve(bytes: Uint8Array): void; reject(error: Error): void }>();
  port.on('message', (a: Answer) => {
    const w = waiting.get(a.id);
    waiting.delete(a.id);
    if ('error' in a) w?.reject(new RangeReadFailure(a.error, a.refused));
    else w?.resolve(a.bytes);
  });
  return {
    read: (begin, end) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        port.postMessage({ id, begin, end } satisfies Ask);
      }),
    close() {
      for (const w of waiting.values()) w.reject(new RangeReadFailure('the reading ended', false));
      waiting.clear();
      port.close();
    },
  };
}
