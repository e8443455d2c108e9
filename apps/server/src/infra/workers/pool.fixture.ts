// Tasks for pool.test.ts: what a parser of user files can do to its worker.
import { writeFileSync } from 'node:fs';
import { AppError } from '../../errors.ts';

export const echo = (input: unknown) => input;

export function refuse(): never {
  throw new AppError('unsupported_media_type', 'Not a file this reads.');
}

/** Holds on to ever more memory, as a parser building a huge tree does. */
export function hoard(): never {
  const held: number[][] = [];
  for (;;) held.push(Array.from({ length: 100_000 }, (_, i) => i));
}

export const spin = (): never => {
  for (;;);
};

/** Ends its thread the hard way, as a crashing native parser would. */
export function crash(): void {
  process.exit(3);
}

/** Holds on to ever more memory outside the heap (buffers), as a decoder of pictures or pages does; then waits. */
export async function hoardBuffers(): Promise<never> {
  const held: Buffer[] = [];
  for (let i = 0; i < 40; i++) held.push(Buffer.alloc(16 * 1024 * 1024, 1));
  for (;;) await new Promise((r) => setTimeout(r, 1000 + held.length));
}

/** Waits `ms`, holding nothing, then answers. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(() => resolve('done'), ms));

/** The environment the worker sees. */
export const environment = () => ({ ...process.env });

/** When this module was loaded in its worker, also written to WARM_MARK when set (the test of warming reads it). */
const loadedAt = String(Date.now());
if (process.env.WARM_MARK) writeFileSync(process.env.WARM_MARK, loadedAt);
export const whenLoaded = () => loadedAt;
