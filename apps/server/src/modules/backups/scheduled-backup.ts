import { Cron } from 'croner';
import type { Database } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import type { StorageDriver } from '../../infra/storage/index.ts';
import type { ErrorLog } from '../../lib/error-log.ts';
import { BackupRefused, createBackup } from './backup.service.ts';
import { recordFailedRun, scheduledSince } from './backups.repo.ts';

type Context = { database: Database; storage: StorageDriver; env: Env };

const schedule = (env: Env) => new Cron(env.BACKUP_SCHEDULE, { paused: true, timezone: 'UTC' });

/** When the scheduled backup runs next (none when BACKUP_DIR is unset). */
export function nextScheduledBackup(env: Env, after = new Date()): Date | null {
  return env.BACKUP_DIR ? schedule(env).nextRun(after) : null;
}

/**
 * The scheduled backup (ADR 0057), looked at every minute by a job: due when no scheduled backup has started since the
 * schedule's last time (one missed while no instance ran is made up once, at the next look). It is started and not
 * awaited, so the instance's other jobs go on meanwhile; the running slot keeps a second one away, on any instance.
 * A failed one is not tried again before the schedule's next time: the admin page and its row say why it failed.
 */
export async function startScheduledBackup(ctx: Context, log?: ErrorLog): Promise<'off' | 'not due' | 'started'> {
  const dir = ctx.env.BACKUP_DIR;
  if (!dir) return 'off';
  const [last] = schedule(ctx.env).previousRuns(1, new Date());
  if (!last || (await scheduledSince(ctx.database.db, last))) return 'not due';
  const started = new Date();
  void createBackup(ctx, dir, { trigger: 'schedule', keep: ctx.env.BACKUP_KEEP }).catch(async (err: unknown) => {
    log?.error({ err }, 'the scheduled backup failed');
    // Failed before it had a row (its folder refused, say): recorded, so that it waits for the schedule's next time.
    // Another backup running is no failure: the next look tries again.
    if (err instanceof BackupRefused || (await scheduledSince(ctx.database.db, started).catch(() => true))) return;
    const error = err instanceof Error ? err.message : String(err);
    await recordFailedRun(ctx.database.db, { trigger: 'schedule', location: dir, name: '', error }).catch(() => {});
  });
  return 'started';
}
