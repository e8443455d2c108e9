import { z } from 'zod';
import { ZCursor, ZId, ZIsoTime, ZPageQuery, ZText } from './common.ts';
import { ZWorkspaceRole } from './workspaces.ts';

/**
 * Instance administration (`/admin`, PRODUCT.md §2): what instance administrators see and change of the
 * whole installation. Every call answers `forbidden` to anyone else, workspace owners included.
 */

/** A dependency's state: answering, not answering, or not configured on this instance. */
export const ZAdminCheck = z.object({
  state: z.enum(['ok', 'unavailable', 'not_configured']),
  /** What it is and, when unavailable, why (nothing secret: no address with a password). */
  detail: z.string(),
});
export type TAdminCheck = z.infer<typeof ZAdminCheck>;

export const ZAdminBackup = z.object({
  id: ZId,
  state: z.enum(['running', 'done', 'failed']),
  trigger: z.enum(['command', 'schedule']),
  location: z.string(),
  name: z.string(),
  startedAt: ZIsoTime,
  finishedAt: ZIsoTime.nullable(),
  blobCount: z.number().int().nullable(),
  blobBytes: z.number().int().nullable(),
  copiedBytes: z.number().int().nullable(),
  databaseBytes: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type TAdminBackup = z.infer<typeof ZAdminBackup>;

export const ZAdminOverview = z.object({
  version: z.string(),
  /** When this instance started. */
  startedAt: ZIsoTime,
  database: z.enum(['embedded', 'postgresql']),
  storage: z.enum(['local', 's3']),
  health: z.object({ database: ZAdminCheck, storage: ZAdminCheck, redis: ZAdminCheck, mail: ZAdminCheck }),
  usage: z.object({
    /** What every workspace's files take, versions included (the quotas' counters). */
    usedBytes: z.number().int(),
    workspaces: z.number().int(),
    people: z.number().int(),
    deactivatedPeople: z.number().int(),
  }),
  backups: z.object({
    /** BACKUP_SCHEDULE, or null when backups are not scheduled. */
    schedule: z.string().nullable(),
    /** When the next scheduled backup starts (null when none is scheduled). */
    next: ZIsoTime.nullable(),
    /** The latest runs, newest first (at most 10). */
    recent: z.array(ZAdminBackup),
  }),
});
export type TAdminOverview = z.infer<typeof ZAdminOverview>;

/** A setting as the instance runs with it; secrets and passwords inside addresses are masked. */
export const ZAdminSetting = z.object({
  name: z.string(),
  value: z.string().nullable(),
  /** Set by the operator (otherwise the default, or unset). */
  set: z.boolean(),
  secret: z.boolean(),
});
export const ZAdminSettings = z.object({ items: z.array(ZAdminSetting) });
export type TAdminSetting = z.infer<typeof ZAdminSetting>;

const ZPersonRef = z.object({ id: ZId, name: z.string(), email: z.string() });

export const ZAdminWorkspace = z.object({
  id: ZId,
  slug: z.string(),
  name: z.string(),
  owner: ZPersonRef.nullable(),
  memberCount: z.number().int(),
  usedBytes: z.number().int(),
  quotaBytes: z.number().int().nullable(),
  createdAt: ZIsoTime,
});
export type TAdminWorkspace = z.infer<typeof ZAdminWorkspace>;
export const ZAdminWorkspaceList = z.object({ items: z.array(ZAdminWorkspace), nextCursor: z.string().nullable() });

/** Workspaces, most storage first; `q` finds a name or address. */
export const ZAdminWorkspacesQuery = ZPageQuery(ZCursor(z.object({ usedBytes: z.number().int(), id: ZId }))).extend({
  q: ZText(200).optional(),
});

export const ZUpdateAdminWorkspaceRequest = z.object({
  /** Bytes, or null for no quota. */
  quotaBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
});

export const ZAdminUserStatus = z.enum(['active', 'deactivated']);

export const ZAdminUser = z.object({
  id: ZId,
  name: z.string(),
  email: z.string(),
  status: ZAdminUserStatus,
  isInstanceAdmin: z.boolean(),
  /** When they last signed in. */
  lastSeenAt: ZIsoTime.nullable(),
  createdAt: ZIsoTime,
  /** What the files they own take (their current bytes, in every workspace). */
  ownedBytes: z.number().int(),
  workspaces: z.array(z.object({ id: ZId, slug: z.string(), name: z.string(), role: ZWorkspaceRole })),
});
export type TAdminUser = z.infer<typeof ZAdminUser>;
export const ZAdminUserList = z.object({ items: z.array(ZAdminUser), nextCursor: z.string().nullable() });

/** People, in the order they joined; `q` finds a name or email, `status` keeps one kind. */
export const ZAdminUsersQuery = ZPageQuery(ZCursor(z.object({ id: ZId }))).extend({
  q: ZText(200).optional(),
  status: ZAdminUserStatus.optional(),
});

export const ZUpdateAdminUserRequest = z
  .object({
    /** `deactivated` ends their sessions, API tokens, open pages and collaboration sockets at once. */
    status: ZAdminUserStatus.optional(),
    isInstanceAdmin: z.boolean().optional(),
  })
  .refine((b) => b.status !== undefined || b.isInstanceAdmin !== undefined, { message: 'Give status or isInstanceAdmin', path: ['status'] });

export const ZAdminSignOutResult = z.object({ revoked: z.number().int() });

export const ZAdminJobState = z.enum(['running', 'failed', 'due', 'scheduled']);
export const ZAdminJobs = z.object({
  /** The queue by kind and state. */
  counts: z.array(z.object({ kind: z.string(), state: ZAdminJobState, count: z.number().int() })),
  /** Jobs out of attempts, kept with their error until retried or discarded (newest first, at most 100). */
  failed: z.array(
    z.object({
      id: ZId,
      kind: z.string(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
      /** When the last attempt ended. */
      failedAt: ZIsoTime,
      createdAt: ZIsoTime,
    }),
  ),
});
export type TAdminJobs = z.infer<typeof ZAdminJobs>;

export const ZAdminAction = z.enum([
  'user.deactivated',
  'user.activated',
  'user.signed_out',
  'user.two_step_reset',
  'user.admin_granted',
  'user.admin_revoked',
  'workspace.quota_changed',
  'job.retried',
  'job.discarded',
]);
export type TAdminAction = z.infer<typeof ZAdminAction>;

export const ZAdminAuditEntry = z.object({
  id: ZId,
  action: ZAdminAction,
  /** The administrator (null once their account is gone). */
  actor: ZPersonRef.nullable(),
  targetKind: z.enum(['user', 'workspace', 'job']),
  targetId: ZId,
  /** The person's email, the workspace's name or the job's kind, as they were. */
  targetLabel: z.string(),
  /** What changed: `{ quotaBytes: { from, to } }`, `{ revoked }`… */
  data: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  createdAt: ZIsoTime,
});
export type TAdminAuditEntry = z.infer<typeof ZAdminAuditEntry>;
export const ZAdminAuditList = z.object({ items: z.array(ZAdminAuditEntry), nextCursor: z.string().nullable() });
export const ZAdminAuditQuery = ZPageQuery(ZCursor(z.object({ id: ZId })));

/** What resetting a person's two-step sign-in removed: their authenticator app and recovery codes, and how many passkeys. */
export const ZAdminResetTwoStepResult = z.object({ removed: z.boolean(), passkeys: z.number().int() });
export type TAdminResetTwoStepResult = z.infer<typeof ZAdminResetTwoStepResult>;
