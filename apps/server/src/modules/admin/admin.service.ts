import type { TAdminAction, TAdminAuditEntry, TAdminBackup, TAdminCheck, TAdminJobs, TAdminOverview, TAdminUser, TAdminWorkspace } from '@cabinet/contracts';
import { endAccountSessions } from '@cabinet/idp';
import { embeddedIssuer, type AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import { maskSecretsIn, settingsInForce } from '../../env.ts';
import { AppError } from '../../errors.ts';
import { keysetPage } from '../../lib/keyset-page.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { countJobs, discardFailedJob, failedJobs, retryFailedJob } from '../../infra/jobs/queue.ts';
import { nextScheduledBackup, recentBackups } from '../backups/index.ts';
import { CABINET_VERSION } from '../../version.ts';
import { probe } from '../health/index.ts';
import { resetTwoStep as resetFactors } from '../security/index.ts';
import { endOtherSessions } from '../sessions/index.ts';
import { noteRevocation, revokeAllApiTokensOf } from '../tokens/index.ts';
import {
  activeAdmins,
  auditPage,
  identityOf,
  insertAudit,
  lockUser,
  setQuota,
  updateUserForAdmin,
  usageTotals,
  userById,
  usersPage,
  workspaceById,
  workspacesPage,
  type UserRowForAdmin,
  type WorkspaceRow,
} from './admin.repo.ts';

const STARTED_AT = new Date();

/** The admin API's gate: instance administrators only; anyone else, a workspace's owner too, is `forbidden`. */
export function requireInstanceAdmin(actor: Actor): void {
  if (!actor.user.is_instance_admin) throw new AppError('forbidden', 'Only instance administrators can do this.');
}

const audit = (
  db: Db,
  actor: Actor,
  action: TAdminAction,
  target: { kind: 'user' | 'workspace' | 'job'; id: string; label: string },
  data: Record<string, unknown> = {},
) =>
  insertAudit(db, {
    actorUserId: actor.user.id,
    action,
    targetKind: target.kind,
    targetId: target.id,
    targetLabel: target.label,
    // A script with an administrator's API token, or the administrator in their browser.
    data: actor.via === 'token' ? { ...data, via: 'token', tokenId: actor.tokenId } : data,
    ip: actor.ip,
    userAgent: actor.userAgent,
  });

function check(result: 'ok' | string, detail: string): TAdminCheck {
  return result === 'ok' ? { state: 'ok', detail } : { state: 'unavailable', detail: maskSecretsIn(`${detail}: ${result}`) };
}

async function pingRedis(url: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3_000,
    commandTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  redis.on('error', () => {}); // The failure is the ping's answer.
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

function presentBackup(b: Awaited<ReturnType<typeof recentBackups>>[number]): TAdminBackup {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: b.id,
    state: b.state,
    trigger: b.trigger,
    location: b.location,
    name: b.name,
    startedAt: b.started_at.toISOString(),
    finishedAt: b.finished_at?.toISOString() ?? null,
    blobCount: b.blob_count,
    blobBytes: n(b.blob_bytes),
    copiedBytes: n(b.copied_bytes),
    databaseBytes: n(b.database_bytes),
    error: b.error,
  };
}

/** How long one look at the services serves the administrators' pages: a mail server is not logged in to on every refresh. */
const HEALTH_KEPT_MS = 20_000;
const looked = new WeakMap<AppContext, { at: number; health: Promise<TAdminOverview['health']> }>();

/** Whether the database, storage, Redis and mail answer, each probed within 5 s; one look kept HEALTH_KEPT_MS. */
function health(ctx: AppContext): Promise<TAdminOverview['health']> {
  const kept = looked.get(ctx);
  if (kept && Date.now() - kept.at < HEALTH_KEPT_MS) return kept.health;
  const { env } = ctx;
  const health = Promise.all([
    probe(() => ctx.database.ping()),
    probe(() => ctx.storage.check()),
    env.REDIS_URL ? probe(() => pingRedis(env.REDIS_URL!)) : Promise.resolve(null),
    env.SMTP_URL ? probe(async () => ctx.mailer.check?.()) : Promise.resolve(null),
  ]).then(([database, storage, redis, mail]) => ({
    database: check(database, ctx.database.kind === 'pglite' ? 'Embedded database (PGlite)' : 'PostgreSQL'),
    storage: check(storage, env.STORAGE_DRIVER === 's3' ? `S3 bucket ${env.S3_BUCKET}` : 'Local disk'),
    redis: redis === null ? { state: 'not_configured' as const, detail: 'Not used: one instance (REDIS_URL unset)' } : check(redis, 'Redis'),
    mail:
      mail === null
        ? { state: 'not_configured' as const, detail: 'No mail server (SMTP_URL unset): mail is kept in the outbox folder, and nobody receives it' }
        : check(mail, 'SMTP server'),
  }));
  looked.set(ctx, { at: Date.now(), health });
  return health;
}

export async function overview(ctx: AppContext): Promise<TAdminOverview> {
  const { env } = ctx;
  const [checks, usage, backups] = await Promise.all([health(ctx), usageTotals(ctx.db), recentBackups(ctx.db, 10)]);
  const next = nextScheduledBackup(env);
  return {
    version: CABINET_VERSION,
    startedAt: STARTED_AT.toISOString(),
    database: ctx.database.kind === 'pglite' ? 'embedded' : 'postgresql',
    storage: env.STORAGE_DRIVER === 's3' ? 's3' : 'local',
    health: checks,
    usage: { usedBytes: usage.used_bytes, workspaces: usage.workspaces, people: usage.people, deactivatedPeople: usage.deactivated },
    backups: {
      schedule: env.BACKUP_DIR ? env.BACKUP_SCHEDULE : null,
      next: next?.toISOString() ?? null,
      recent: backups.map(presentBackup),
    },
  };
}

export const settings = (ctx: AppContext) => ({ items: settingsInForce(ctx.env) });

function presentWorkspace(w: WorkspaceRow): TAdminWorkspace {
  return {
    id: w.id,
    slug: w.slug,
    name: w.name,
    owner: w.owner,
    memberCount: w.member_count,
    usedBytes: w.used_bytes,
    quotaBytes: w.quota_bytes,
    createdAt: w.created_at.toISOString(),
  };
}

export async function listWorkspaces(ctx: AppContext, q: { q?: string | undefined; cursor?: { usedBytes: number; id: string } | undefined; limit: number }) {
  const rows = await workspacesPage(ctx.db, { q: q.q, after: q.cursor, limit: q.limit + 1 });
  return keysetPage(rows, q.limit, presentWorkspace, (last) => ({ usedBytes: last.used_bytes, id: last.id }));
}

export async function setWorkspaceQuota(ctx: AppContext, actor: Actor, id: string, quotaBytes: number | null): Promise<TAdminWorkspace> {
  return inTransaction(ctx.db, async (tx) => {
    const changed = await setQuota(tx, id, quotaBytes);
    if (!changed) throw new AppError('not_found', 'No such workspace.');
    const row = (await workspaceById(tx, id))!;
    if (changed.before !== quotaBytes)
      await audit(tx, actor, 'workspace.quota_changed', { kind: 'workspace', id, label: row.name }, { from: changed.before, to: quotaBytes });
    return presentWorkspace(row);
  });
}

function presentUser(u: UserRowForAdmin): TAdminUser {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    status: u.status,
    isInstanceAdmin: u.is_instance_admin,
    lastSeenAt: u.last_seen_at?.toISOString() ?? null,
    createdAt: u.created_at.toISOString(),
    ownedBytes: u.owned_bytes,
    workspaces: u.workspaces,
  };
}

export async function listUsers(
  ctx: AppContext,
  q: { q?: string | undefined; status?: 'active' | 'deactivated' | undefined; cursor?: { id: string } | undefined; limit: number },
) {
  const rows = await usersPage(ctx.db, { q: q.q, status: q.status, after: q.cursor?.id, limit: q.limit + 1 });
  return keysetPage(rows, q.limit, presentUser, (last) => ({ id: last.id }));
}

/** Whether `user` signed in through the embedded provider (whose own sessions Cabinet can end). */
const embeddedAccount = (ctx: AppContext, user: { issuer: string }) => ctx.env.embeddedIdp && user.issuer === embeddedIssuer(ctx.env);

/**
 * Deactivates or activates an account, makes a person an instance administrator or not. Deactivating ends
 * their sessions (Cabinet's and the embedded provider's) and revokes their API tokens in the same
 * transaction; the status change's notice (ADR 0009) closes their event streams and collaboration sockets.
 * No one deactivates themselves or takes their own administration away, so an administrator always remains.
 */
export async function updateUser(
  ctx: AppContext,
  actor: Actor,
  id: string,
  change: { status?: 'active' | 'deactivated' | undefined; isInstanceAdmin?: boolean | undefined },
): Promise<TAdminUser> {
  const target = await inTransaction(ctx.db, async (tx) => {
    // The administrators first, in one order: another administrator's change at the same moment waits, and the caller
    // is still one of them when theirs goes ahead.
    const admins = await activeAdmins(tx);
    if (!admins.includes(actor.user.id)) throw new AppError('forbidden', 'Only instance administrators can do this.');
    const user = await lockUser(tx, id);
    if (!user) throw new AppError('not_found', 'No such person.');
    const self = user.id === actor.user.id;
    if (change.status === 'deactivated' && self) throw new AppError('forbidden', 'You cannot deactivate your own account: ask another administrator.');
    if (change.isInstanceAdmin === false && self) throw new AppError('forbidden', 'You cannot take away your own administration: ask another administrator.');
    const takesAnAdmin = admins.includes(user.id) && (change.status === 'deactivated' || change.isInstanceAdmin === false);
    if (takesAnAdmin && admins.length <= 1) throw new AppError('forbidden', 'This is the last active instance administrator.');
    const label = { kind: 'user' as const, id: user.id, label: user.email };
    if (change.status && change.status !== user.status) {
      await updateUserForAdmin(tx, user.id, { status: change.status });
      if (change.status === 'deactivated') {
        const sessions = await endOtherSessions(tx, user.id, null, null);
        const tokens = await revokeAllApiTokensOf(tx, user.id);
        await audit(tx, actor, 'user.deactivated', label, { sessions, tokens });
      } else {
        await audit(tx, actor, 'user.activated', label);
      }
    }
    if (change.isInstanceAdmin !== undefined && change.isInstanceAdmin !== user.is_instance_admin) {
      await updateUserForAdmin(tx, user.id, { is_instance_admin: change.isInstanceAdmin });
      await audit(tx, actor, change.isInstanceAdmin ? 'user.admin_granted' : 'user.admin_revoked', label);
    }
    return user;
  });
  // Their tokens' revocation has committed: a WebDAV sign-in this process kept is not taken again (ADR 0075).
  if (change.status === 'deactivated') noteRevocation();
  if (change.status === 'deactivated' && embeddedAccount(ctx, target)) await endAccountSessions(ctx.database.sql, target.subject);
  return presentUser((await userById(ctx.db, id))!);
}

/** Signs a person out everywhere: Cabinet's sessions and the embedded provider's; their API tokens stay. */
export async function signOutUser(ctx: AppContext, actor: Actor, id: string): Promise<{ revoked: number }> {
  const { user, revoked } = await inTransaction(ctx.db, async (tx) => {
    const user = await lockUser(tx, id);
    if (!user) throw new AppError('not_found', 'No such person.');
    const revoked = await endOtherSessions(tx, user.id, null, null);
    await audit(tx, actor, 'user.signed_out', { kind: 'user', id: user.id, label: user.email }, { sessions: revoked });
    return { user, revoked };
  });
  if (embeddedAccount(ctx, user)) await endAccountSessions(ctx.database.sql, user.subject);
  return { revoked };
}

/** Turns off a person's two-step sign-in at the embedded provider (app, recovery codes, passkeys), recorded in the audit log. */
export async function resetTwoStep(ctx: AppContext, actor: Actor, id: string): Promise<{ removed: boolean; passkeys: number }> {
  // How someone signs in is changed from a signed-in browser, never by a script's token; one's own under Account → Security.
  if (actor.via !== 'session') throw new AppError('forbidden', 'Two-step sign-in is reset from a signed-in browser, not with a token.');
  if (id === actor.user.id) throw new AppError('forbidden', 'Change your own two-step sign-in under Account → Security.');
  const user = await identityOf(ctx.db, id);
  if (!user) throw new AppError('not_found', 'No such person.');
  if (!embeddedAccount(ctx, user))
    throw new AppError('forbidden', `${user.email} signs in through your identity provider: reset their two-step sign-in there.`);
  const result = await resetFactors(ctx, { id: user.subject, email: user.email, name: user.name });
  await audit(ctx.db, actor, 'user.two_step_reset', { kind: 'user', id: user.id, label: user.email }, { ...result });
  return result;
}

const FAILED_SHOWN = 100;

export async function jobs(ctx: AppContext): Promise<TAdminJobs> {
  const [counts, failed] = await Promise.all([countJobs(ctx.db), failedJobs(ctx.db, FAILED_SHOWN)]);
  return {
    counts: counts.map((c) => ({ ...c, state: c.state as TAdminJobs['counts'][number]['state'] })),
    failed: failed.map((j) => ({
      id: j.id,
      kind: j.kind,
      attempts: j.attempts,
      lastError: j.last_error,
      failedAt: new Date(j.failed_at).toISOString(),
      createdAt: j.created_at.toISOString(),
    })),
  };
}

export async function retryJob(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const job = await retryFailedJob(tx, id);
    if (!job) throw new AppError('not_found', 'No failed job with this id.');
    await audit(tx, actor, 'job.retried', { kind: 'job', id: job.id, label: job.kind });
  });
}

export async function discardJob(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const job = await discardFailedJob(tx, id);
    if (!job) throw new AppError('not_found', 'No failed job with this id.');
    await audit(tx, actor, 'job.discarded', { kind: 'job', id: job.id, label: job.kind });
  });
}

export async function auditLog(ctx: AppContext, q: { cursor?: { id: string } | undefined; limit: number }) {
  const rows = await auditPage(ctx.db, { before: q.cursor?.id, limit: q.limit + 1 });
  return keysetPage(
    rows,
    q.limit,
    (r): TAdminAuditEntry => ({
      id: r.id,
      action: r.action as TAdminAction,
      actor: r.actor_id ? { id: r.actor_id, name: r.actor_name!, email: r.actor_email! } : null,
      targetKind: r.target_kind,
      targetId: r.target_id,
      targetLabel: r.target_label,
      data: (r.data ?? {}) as Record<string, unknown>,
      ip: r.ip,
      createdAt: r.created_at.toISOString(),
    }),
    (last) => ({ id: last.id }),
  );
}
