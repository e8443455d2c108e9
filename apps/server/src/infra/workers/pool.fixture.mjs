// Tasks for pool.system.test.ts: what a parser of user files can do to its worker. Plain JavaScript: a worker runs
// built modules (ADR 0073), and this one is the tests' own, in no build.
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import { setTimeout } from 'node:timers';

export const echo = (input) => input;

/** Refuses as a task of the server's refuses a file: an AppError, which crosses to the pool as its name, code and message. */
export function refuse() {
  throw Object.assign(new Error('Not a file this reads.'), { name: 'AppError', code: 'unsupported_media_type' });
}

/** Holds on to ever more memory, as a parser building a huge tree does. */
export function hoard() {
  const held = [];
  for (;;) held.push(Array.from({ length: 100_000 }, (_, i) => i));
}

export const spin = () => {
  for (;;);
};

/** Ends its thread the hard way, as a crashing native parser would. */
export function crash() {
  process.exit(3);
}

/** Holds on to ever more memory outside the heap (buffers), as a decoder of pictures or pages does; then waits. */
export async function hoardBuffers() {
  const held = [];
  for (let i = 0; i < 40; i++) held.push(Buffer.alloc(16 * 1024 * 1024, 1));
  for (;;) await new Promise((r) => setTimeout(r, 1000 + held.length));
}

/** Waits `ms`, holding nothing, then answers. */
export const pause = (ms) => new Promise((resolve) => setTimeout(() => resolve('done'), ms));

/** The environment the worker sees. */
export const environment = () => ({ ...process.env });

/** When this module was loaded in its worker, also written to WARM_MARK when set (the test of warming reads it). */
const loadedAt = String(Date.now());
if (process.env.WARM_MARK) writeFileSync(process.env.WARM_MARK, loadedAt);
export const whenLoaded = () => loadedAt;
