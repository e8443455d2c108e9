/** A file's text as the extractor answers it. */
export type Extraction =
  | { state: 'ready'; text: string; truncated: boolean }
  /** A type that is not read (a zip, a video, binary content under a text file's name). */
  | { state: 'unsupported' }
  /**
   * Encrypted, damaged, too large, too slow, out of memory: `reason` is a sentence for the details
   * panel. `transient` when the failure need not be the file's (the pool was full, its worker
   * crashed or did not start): worth trying again later.
   */
  | { state: 'failed'; reason: string; transient?: true };

/** What crosses to the worker thread (by structured clone). */
export interface ExtractInput {
  bytes: Uint8Array;
  mimeType: string;
  name: string;
  /** The whole file's size, when `bytes` is only its head. */
  size?: number;
  /** The pool's time limit for this task: a PDF's pages are read within part of it (READ_TIME_SHARE). */
  timeoutMs: number;
}
