import type { Db } from '../../db/client.ts';
import type { JobRow } from '../../db/schema.ts';
import { claimJob, enqueue, failJob, finishJob, postponeJob } from './queue.ts';
import type { ErrorLog } from '../../lib/error-log.ts';

/** Thrown by a job that cannot run yet (what it would change is in use): run again after `ms`, the attempt not counted. */
export class JobPostponed extends Error {
  constructor(
    readonly ms: number,
    reason: string,
  ) {
    super(reason);
  }
}

export interface JobDefinition {
  run(payload: Record<string, unknown>, job: JobRow): Promise<void>;
  /** A recurring job: queued once at start, then again this long after each run. */
  everyMs?: number;
}

export interface JobRunnerOptions {
  pollMs?: number;
  leaseMs?: number;
  log?: ErrorLog;
  /** Told of each job that failed (not one postponed), for the instance's metrics. */
  onFailed?: (kind: string) => void;
}

/**
 * Runs queued jobs in this process, one at a time. Every instance runs one; the queue's
 * claim makes sure each job runs on one of them at a time.
 */
export class JobRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private readonly pollMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly db: Db,
    private readonly jobs: Record<string, JobDefinition>,
    private readonly options: JobRunnerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 5_000;
    this.leaseMs = options.leaseMs ?? 10 * 60_000;
  }

  async start(): Promise<void> {
    for (const [kind, def] of Object.entries(this.jobs)) {
      if (def.everyMs) await enqueue(this.db, kind, {}, { singleton: kind });
    }
    this.stopped = false;
    this.schedule(0);
  }

  /** Runs every job that is due now; resolves with how many ran (tests call this directly). */
  async runDue(): Promise<number> {
    let ran = 0;
    for (;;) {
      const job = await claimJob(this.db, this.leaseMs);
      if (!job) return ran;
      ran++;
      const def = this.jobs[job.kind];
      try {
        if (!def) throw new Error(`no job called ${job.kind}`);
        await def.run(job.payload, job);
        await finishJob(this.db, job, def.everyMs ? new Date(Date.now() + def.everyMs) : undefined);
      } catch (error) {
        if (error instanceof JobPostponed) await postponeJob(this.db, job, error).catch(() => {});
        else {
          this.options.log?.error({ err: error, job: job.kind, attempt: job.attempts }, 'job failed');
          this.options.onFailed?.(job.kind);
          await failJob(this.db, job, error).catch(() => {});
        }
      }
      // Stopping lets the job in hand finish, then leaves the rest for the next start.
      if (this.stopped && this.running) return ran;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.runDue()
        .catch((error) => this.options.log?.error({ err: error }, 'job runner could not reach the queue'))
        .then(() => {
          this.running = undefined;
          this.schedule(this.pollMs);
        });
    }, delay);
    this.timer.unref();
  }
}
