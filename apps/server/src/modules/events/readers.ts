import type { TActivityAction } from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { rerunner } from '../../lib/rerun.ts';
import type { EventHub } from './events.ts';
import type { ErrorLog } from '../../lib/error-log.ts';

type Area = TActivityAction extends `${infer A}.${string}` ? A : never;
/** A recorded action, or every action of an area (`item.*`). */
export type ActionPattern = TActivityAction | `${Area}.*`;

/** One of a reader's passes over what it reads (the record, or work the record's changes queued). */
export type ReaderPass = (ctx: AppContext, log: ErrorLog | undefined) => Promise<unknown>;

/**
 * A reader of the activity record that works in passes (ADR 0027): declared once, in its module,
 * and listed in `readers.ts`, from which the app wakes and stops it and the job runner catches it up.
 */
export interface Reader {
  /** Its catch-up job's name, and its name in the log. */
  name: string;
  /** The recorded changes whose announcement wakes it, on every instance that hears them. */
  wakesOn: readonly ActionPattern[];
  /** How long a wake waits before the pass: wakes within it make one pass. */
  settleMs: number;
  /** The pass a wake runs. */
  run: ReaderPass;
  /** How often its catch-up job runs (on one instance at a time). */
  catchUpEvery: number;
  /** The catch-up job's pass: what no instance heard (one down, a LISTEN lost), and what no change announces. */
  catchUp: ReaderPass;
}

/** Declares a reader (see `Reader`). */
export const reader = (declaration: Reader): Reader => declaration;

function wakes(r: Reader, action: TActivityAction): boolean {
  return r.wakesOn.some((pattern) => pattern === action || (pattern.endsWith('.*') && action.startsWith(pattern.slice(0, -1))));
}

/**
 * Wakes each reader when this instance hears a change it declared: one pass at a time, a wake
 * during a pass making one more (`rerunner`). `stop` lets the passes running end.
 */
export function startReaders(readers: readonly Reader[], hub: EventHub, ctx: AppContext, log: ErrorLog): { stop(): Promise<void> } {
  const started = readers.map((r) => {
    const passes = rerunner(() => r.run(ctx, log), {
      settleMs: r.settleMs,
      onError: (err) => log.error({ err, reader: r.name }, 'a reader of the activity record failed'),
    });
    const stopHearing = hub.onRecorded(({ action }) => {
      if (wakes(r, action)) passes.wake();
    });
    return { passes, stopHearing };
  });
  return {
    async stop() {
      for (const { stopHearing } of started) stopHearing();
      await Promise.all(started.map(({ passes }) => passes.stop()));
    },
  };
}
