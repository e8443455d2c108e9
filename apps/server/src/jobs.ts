import type { AppContext } from './context.ts';
import { postponeKind } from './infra/jobs/queue.ts';
import { JobPostponed, JobRunner, type JobDefinition, type JobRunnerOptions } from './infra/jobs/runner.ts';
import { runningBackup, startScheduledBackup } from './modules/backups/index.ts';
import { deleteEndedUploads, discardUploadBytes, expireStaleUploads, pruneOldVersions, recomputeAllUsage } from './modules/files/index.ts';
import { deleteBlobIfUnused, purgeExpiredTrash } from './modules/items/index.ts';
import { pruneActivity } from './modules/activity/index.ts';
import { mailUnreadNotifications, pruneNotifications } from './modules/notifications/index.ts';
import { relanguage } from './modules/search/index.ts';
import { evictPreviews } from './modules/previews/index.ts';
import { readers } from './readers.ts';
import { announceExpiredAccess } from './modules/events/index.ts';
import { pruneIdempotencyKeys } from './infra/http/idempotency.ts';

const MINUTE = 60_000;
/** How often access that expired is announced: a collaboration socket outlives its access by about this, plus the runner's poll. */
export const ACCESS_EXPIRY_EVERY_MS = 2_000;

/** Every background job Cabinet runs, by name. */
export function jobDefinitions(ctx: AppContext, log?: JobRunnerOptions['log']): Record<string, JobDefinition> {
  return {
    // Each reader of the activity record catches up on what its wakes missed (readers.ts).
    ...Object.fromEntries(readers.map((r) => [r.name, { everyMs: r.catchUpEvery, run: async () => void (await r.catchUp(ctx, log)) }])),
    // Access that ended by the clock (a grant, a session, a token) is announced as access taken away is (ADR 0050).
    'access.expire': { everyMs: ACCESS_EXPIRY_EVERY_MS, run: async () => void (await announceExpiredAccess(ctx.db)) },
    // Not while a backup runs: the snapshot it copies from may still name the blob (ADR 0057).
    'blob.delete': {
      run: async (p) => {
        if (await runningBackup(ctx.db)) {
          // Every blob deletion due waits a minute with this one: one statement, not a claim of each every minute.
          await postponeKind(ctx.db, 'blob.delete', MINUTE);
          throw new JobPostponed(MINUTE, 'waiting for the backup that is running to end');
        }
        await deleteBlobIfUnused(ctx.db, ctx.storage, String(p.key));
      },
    },
    'upload.discard': { run: (p) => discardUploadBytes(ctx.storage, p) },
    'uploads.expire': { everyMs: 15 * MINUTE, run: async () => void (await expireStaleUploads(ctx.db)) },
    // Older versions thin out (PRODUCT.md §9): hourly, daily, weekly; at most VERSIONS_MAX; named ones kept.
    'versions.prune': { everyMs: 60 * MINUTE, run: async () => void (await pruneOldVersions(ctx.db, { max: ctx.env.VERSIONS_MAX })) },
    'trash.purge': { everyMs: 60 * MINUTE, run: async () => void (await purgeExpiredTrash(ctx.db, ctx.env.TRASH_RETENTION_DAYS)) },
    // The activity record is kept ACTIVITY_RETENTION_DAYS (0: for ever); older entries go in batches.
    'activity.prune': { everyMs: 60 * MINUTE, run: async () => void (await pruneActivity(ctx.db, ctx.env.ACTIVITY_RETENTION_DAYS)) },
    // Notifications left unread NOTIFICATION_MAIL_DELAY_MINUTES are mailed, once, one mail per person.
    'notifications.mail': { everyMs: MINUTE, run: async () => void (await mailUnreadNotifications(ctx, ctx.env.NOTIFICATION_MAIL_DELAY_MINUTES)) },
    // Notifications are kept NOTIFICATION_RETENTION_DAYS, read or not; older ones go in batches.
    'notifications.prune': { everyMs: 60 * MINUTE, run: async () => void (await pruneNotifications(ctx.db, ctx.env.NOTIFICATION_RETENTION_DAYS)) },
    // Texts indexed before a workspace's search language changed are read again in the new one.
    'search.language': { everyMs: MINUTE / 2, run: async () => void (await relanguage(ctx.db, MINUTE / 2)) },
    // Thumbnails are kept within PREVIEW_CACHE_MAX: the least recently used go (made again when asked for).
    'previews.evict': { everyMs: 10 * MINUTE, run: async () => void (await evictPreviews(ctx, ctx.env.PREVIEW_CACHE_MAX)) },
    // Creation calls' keys answer for a day (ADR 0043); then they are forgotten.
    'idempotency.prune': { everyMs: 60 * MINUTE, run: async () => void (await pruneIdempotencyKeys(ctx.db)) },
    // The scheduled backup (BACKUP_DIR, BACKUP_SCHEDULE, BACKUP_KEEP), started when due and run beside the other jobs.
    'backup.schedule': { everyMs: MINUTE, run: async () => void (await startScheduledBackup(ctx, log)) },
    'usage.recompute': { everyMs: 24 * 60 * MINUTE, run: () => recomputeAllUsage(ctx.db) },
    // An ended upload's row is only needed to answer a retried completion; a week is plenty.
    'uploads.forget': { everyMs: 24 * 60 * MINUTE, run: async () => void (await deleteEndedUploads(ctx.db, new Date(Date.now() - 7 * 24 * 60 * MINUTE))) },
  };
}

export function createJobRunner(ctx: AppContext, options: JobRunnerOptions = {}): JobRunner {
  return new JobRunner(ctx.db, jobDefinitions(ctx, options.log), options);
}
