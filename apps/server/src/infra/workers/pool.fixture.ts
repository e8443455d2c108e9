// Tasks for pool.test.ts: what a parser of user files can do to its worker.
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
