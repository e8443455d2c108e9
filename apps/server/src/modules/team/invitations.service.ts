import {
  LIMITS,
  type TAcceptedInvitation,
  type TCreatedInvitation,
  type TCreateInvitationRequest,
  type TInvitation,
  type TInvitationPreview,
  type TInvitationsQuery,
  type TWorkspaceRole,
} from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { keysetPage } from '../../lib/keyset-page.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { refreshEmailVerified } from '../auth/index.ts';
import { record } from '../events/index.ts';
import { findMembership, insertMembership, requireWorkspace, workspaceAbilities } from '../workspaces/index.ts';
import {
  activeRoleOf,
  countSendsSince,
  findInvitation,
  findPendingFor,
  lockUser,
  findInvitationByHash,
  findInvitationForEmail,
  findWorkspaceSummary,
  insertInvitation,
  listInvitations,
  memberWithEmail,
  updateInvitation,
  deleteUnsentInvitation,
  restoreInvitationToken,
  setRole,
  type InvitationRow,
} from './team.repo.ts';

const DAY = 24 * 60 * 60_000;
const HOUR = 60 * 60_000;
/** Invitations one person may send (make or mail again), in all workspaces together, in an hour: plenty for a team, too few for spam. */
export const INVITATIONS_PER_HOUR = 50;
/** How often one invitation may be mailed in an hour. */
export const RESENDS_PER_HOUR = 5;

const invalid = (path: string, message: string) => new AppError('invalid_input', message, { fields: [{ path, message }] });
const RANK: Record<TWorkspaceRole, number> = { guest: 0, member: 1, admin: 2, owner: 3 };

/** Its state as people see it: a pending invitation past its expiry is expired. */
const stateOf = (i: InvitationRow): TInvitation['state'] => (i.state === 'pending' && new Date(i.expires_at).getTime() <= Date.now() ? 'expired' : i.state);

function present(i: InvitationRow): TInvitation {
  return {
    id: i.id,
    workspaceId: i.workspace_id,
    email: i.email,
    role: i.role,
    state: stateOf(i),
    expiresAt: new Date(i.expires_at).toISOString(),
    maxUses: i.max_uses,
    uses: i.uses,
    createdBy: i.created_by ? { id: i.created_by, name: i.created_by_name ?? '' } : null,
    createdAt: new Date(i.created_at).toISOString(),
  };
}

const urlOf = (ctx: AppContext, token: string) => `${ctx.env.PUBLIC_URL}/invite/${token}`;

/** Counts every send by the person (from the activity record), wherever and however often. */
async function rateLimit(db: Db, userId: string, invitationId?: string): Promise<void> {
  const since = new Date(Date.now() - HOUR);
  // One person's sends are counted one after another, so two at once cannot both slip under the limit.
  await lockUser(db, userId);
  if ((await countSendsSince(db, userId, since)) >= INVITATIONS_PER_HOUR) {
    throw new AppError('rate_limited', `You have sent ${INVITATIONS_PER_HOUR} invitations in the last hour. Wait a while before sending more.`, {
      retryAfter: 600,
    });
  }
  if (invitationId && (await countSendsSince(db, userId, since, invitationId)) >= RESENDS_PER_HOUR) {
    throw new AppError('rate_limited', `This invitation was sent ${RESENDS_PER_HOUR} times in the last hour. Wait a while before sending it again.`, {
      retryAfter: 600,
    });
  }
}

/**
 * Mails once the change is committed, so a slow mail server holds no transaction and a change that
 * did not happen is never mailed. When the mail cannot be sent, `undo` puts things back as they
 * were (no invitation made; the link sent before works again) and the caller is told.
 */
async function mailOrUndo(ctx: AppContext, to: string, o: Parameters<typeof mail>[2], resend: boolean, undo: () => Promise<void>): Promise<void> {
  try {
    await mail(ctx, to, o);
  } catch (error) {
    await undo();
    const what = resend ? 'The invitation was not sent again: the link sent before still works.' : 'The invitation was not made.';
    throw Object.assign(new AppError('internal', `The email to ${to} could not be sent, so nothing changed. ${what} Try again later.`), { cause: error });
  }
}

async function mail(ctx: AppContext, to: string, o: { inviter: string; workspace: string; role: string; url: string; expiresAt: Date }): Promise<void> {
  await ctx.mailer.send({
    to,
    subject: `${o.inviter} invited you to ${o.workspace} on Cabinet`,
    text:
      `${o.inviter} invited you to join the workspace “${o.workspace}” on Cabinet as ${o.role === 'admin' ? 'an admin' : `a ${o.role}`}.\n\n` +
      `Open this link to accept (sign in, or create an account with this address):\n${o.url}\n\n` +
      `The invitation expires on ${o.expiresAt.toUTCString()}. If you did not expect it, ignore this message.\n`,
  });
}

export async function invitationsOf(db: Db, actor: Actor, ws: string, q: TInvitationsQuery): Promise<{ items: TInvitation[]; nextCursor: string | null }> {
  const workspace = await requireWorkspace(db, actor.user, ws, 'manageMembers');
  const rows = await listInvitations(db, workspace.id, q.limit + 1, q.cursor?.id);
  return keysetPage(rows, q.limit, present, (last) => ({ id: last.id }));
}

/** An invitation by email (mailed now) or an invite link; the URL, which holds the token, is answered only here. */
export async function createInvitation(ctx: AppContext, actor: Actor, ws: string, input: TCreateInvitationRequest): Promise<TCreatedInvitation> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : new Date(Date.now() + LIMITS.invitationDefaultDays * DAY);
  if (expiresAt.getTime() <= Date.now()) throw invalid('body.expiresAt', 'must be in the future');
  if (expiresAt.getTime() > Date.now() + LIMITS.invitationMaxDays * DAY) throw invalid('body.expiresAt', `must be within ${LIMITS.invitationMaxDays} days`);
  if (input.email && input.maxUses !== undefined && input.maxUses !== 1) throw invalid('body.maxUses', 'an invitation by email is used once');
  const token = randomToken(32);
  const url = urlOf(ctx, token);
  const invitation = await inTransaction(ctx.db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'manageMembers');
    await rateLimit(tx, actor.user.id);
    if (input.email && (await memberWithEmail(tx, workspace.id, input.email))) throw invalid('body.email', 'This person is already a member of the workspace.');
    if (input.email && (await findPendingFor(tx, workspace.id, input.email))) {
      throw invalid('body.email', 'This address already has a pending invitation: send that one again from the list instead.');
    }
    const id = await insertInvitation(tx, {
      workspaceId: workspace.id,
      email: input.email ?? null,
      role: input.role,
      tokenHash: sha256(token),
      expiresAt,
      maxUses: input.email ? 1 : (input.maxUses ?? null),
      createdBy: actor.user.id,
    });
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'invitation.created',
      itemId: null,
      data: { invitationId: id, email: input.email ?? null, role: input.role },
    });
    return { row: (await findInvitation(tx, workspace.id, id))!, workspaceName: workspace.name };
  });
  const { row } = invitation;
  if (input.email) {
    const email = input.email;
    await mailOrUndo(ctx, email, { inviter: actor.user.name, workspace: invitation.workspaceName, role: input.role, url, expiresAt }, false, () =>
      inTransaction(ctx.db, async (tx) => {
        // Unless it was revoked meanwhile: no one holds its link, so it goes, and the record says why.
        if (!(await deleteUnsentInvitation(tx, row.id, sha256(token)))) return;
        await record(tx, actor, {
          workspaceId: row.workspace_id,
          action: 'invitation.revoked',
          itemId: null,
          data: { invitationId: row.id, email, role: row.role, reason: 'not_mailed' },
        });
      }),
    );
  }
  return { ...present(row), url };
}

export async function revokeInvitation(db: Db, actor: Actor, ws: string, id: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'manageMembers');
    const invitation = await findInvitation(tx, workspace.id, id);
    if (!invitation) throw new AppError('not_found', 'No such invitation.');
    if (invitation.state === 'revoked') return;
    if (invitation.state === 'accepted') throw invalid('params.id', 'This invitation was already accepted: remove the person from the members list instead.');
    await updateInvitation(tx, id, { state: 'revoked' });
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'invitation.revoked',
      itemId: null,
      data: { invitationId: id, email: invitation.email, role: invitation.role },
    });
  });
}

/**
 * Mails a pending (or expired) invitation again with a new token and a new expiry. The old URL
 * stops working only once the new one is mailed: when the mail fails, nothing changes.
 */
export async function resendInvitation(ctx: AppContext, actor: Actor, ws: string, id: string): Promise<TInvitation> {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + LIMITS.invitationDefaultDays * DAY);
  const sent = await inTransaction(ctx.db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'manageMembers');
    const invitation = await findInvitation(tx, workspace.id, id);
    if (!invitation) throw new AppError('not_found', 'No such invitation.');
    if (!invitation.email) throw invalid('params.id', 'An invite link is not mailed: create a new link instead.');
    if (invitation.state === 'accepted' || invitation.state === 'revoked')
      throw invalid('params.id', `This invitation was ${invitation.state}: invite the person again instead.`);
    await rateLimit(tx, actor.user.id, id);
    await updateInvitation(tx, id, { token_hash: sha256(token), expires_at: expiresAt, state: 'pending' });
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'invitation.resent',
      itemId: null,
      data: { invitationId: id, email: invitation.email, role: invitation.role },
    });
    return { before: invitation, email: invitation.email, workspace, after: (await findInvitation(tx, workspace.id, id))! };
  });
  const { before, email, workspace } = sent;
  // The try still counts towards the limits (its record stays); the link sent before works again.
  await mailOrUndo(ctx, email, { inviter: actor.user.name, workspace: workspace.name, role: before.role, url: urlOf(ctx, token), expiresAt }, true, () =>
    restoreInvitationToken(ctx.db, id, sha256(token), { token_hash: before.token_hash, expires_at: new Date(before.expires_at), state: before.state }),
  );
  return present(sent.after);
}

/** Why an invitation can no longer be accepted, or null while it can. */
function refusal(i: InvitationRow): TInvitationPreview['state'] | null {
  // A link at its limit is `accepted` in the list; to whoever follows it, it is used up.
  if (i.state !== 'revoked' && i.email === null && i.max_uses !== null && i.uses >= i.max_uses) return 'used_up';
  const state = stateOf(i);
  return state === 'pending' ? null : state;
}

/** What the invitation page shows before anyone signs in: the workspace, the role, whether it still holds. */
export async function previewInvitation(db: Db, token: string): Promise<TInvitationPreview> {
  const invitation = await findInvitationByHash(db, sha256(token));
  if (!invitation) throw new AppError('not_found', 'There is no such invitation. Check that the whole link was copied.');
  return presentPreview(db, invitation);
}

/** An invitation sent to the caller's address, by its id (what an `invited` notification opens); any other is not_found. */
export async function previewOwnInvitation(db: Db, actor: Actor, id: string): Promise<TInvitationPreview> {
  return presentPreview(db, await requireOwnInvitation(db, actor, id));
}

async function requireOwnInvitation(db: Db, actor: Actor, id: string, lock = false): Promise<InvitationRow> {
  const invitation = await findInvitationForEmail(db, id, actor.user.email, lock);
  if (!invitation) throw new AppError('not_found', 'There is no such invitation for your address.');
  return invitation;
}

async function presentPreview(db: Db, invitation: InvitationRow): Promise<TInvitationPreview> {
  const workspace = await findWorkspaceSummary(db, invitation.workspace_id);
  return {
    workspace,
    role: invitation.role,
    email: invitation.email,
    state: refusal(invitation) ?? 'pending',
    expiresAt: new Date(invitation.expires_at).toISOString(),
    invitedBy: invitation.created_by_name,
  };
}

const GONE: Record<string, string> = {
  expired: 'This invitation has expired. Ask whoever invited you for a new one.',
  revoked: 'This invitation was revoked. Ask whoever invited you for a new one.',
  accepted: 'This invitation has already been used.',
  used_up: 'This invite link has been used as many times as it allows. Ask whoever invited you for a new one.',
};

/**
 * Joins the workspace with the invitation's role. An invitation by email holds only for someone
 * signed in with that address, verified. Someone already in the workspace keeps the stronger of
 * their role and the invitation's, and is never added twice.
 */
export async function acceptInvitation(ctx: AppContext, actor: Actor, token: string): Promise<TAcceptedInvitation> {
  const caller = await withAddressRechecked(ctx, actor);
  return inTransaction(ctx.db, async (tx) => {
    const invitation = await findInvitationByHash(tx, sha256(token), true);
    if (!invitation) throw new AppError('not_found', 'There is no such invitation. Check that the whole link was copied.');
    return accept(tx, ctx, caller, invitation);
  });
}

/**
 * `acceptInvitation` of an invitation sent to the caller's address, by its id: their verified
 * address stands for the link in its mail (an invitation by email holds only for it anyway).
 */
export async function acceptOwnInvitation(ctx: AppContext, actor: Actor, id: string): Promise<TAcceptedInvitation> {
  const caller = await withAddressRechecked(ctx, actor);
  return inTransaction(ctx.db, async (tx) => accept(tx, ctx, caller, await requireOwnInvitation(tx, caller, id, true)));
}

/**
 * The caller, their address looked at again when it was not confirmed at sign-in: someone who confirmed it
 * since (in another tab) joins without signing out and in. Asked before the transaction, holding nothing.
 */
async function withAddressRechecked(ctx: AppContext, actor: Actor): Promise<Actor> {
  return { ...actor, user: await refreshEmailVerified(ctx, actor.user) };
}

/** Joins with a found invitation, held by the caller's transaction. */
async function accept(tx: Db, ctx: AppContext, actor: Actor, invitation: InvitationRow): Promise<TAcceptedInvitation> {
  const why = refusal(invitation);
  if (why) throw new AppError('link_expired', GONE[why], { reason: why });
  // An invitation speaks for whoever made it: once they no longer manage the workspace, it does not hold.
  const makerRole = invitation.created_by ? await activeRoleOf(tx, invitation.workspace_id, invitation.created_by) : undefined;
  if (!makerRole || !workspaceAbilities(makerRole).manageMembers) {
    throw new AppError(
      'link_expired',
      'Whoever made this invitation no longer manages the workspace, so it no longer holds. Ask the workspace owner or an admin for a new one.',
      { reason: 'revoked' },
    );
  }
  const user = actor.user;
  if (invitation.email && invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    throw new AppError(
      'forbidden',
      `This invitation was sent to another email address than the one you are signed in with (${user.email}). Sign in with the address it was sent to.`,
      { reason: 'wrong_email' },
    );
  }
  if (invitation.email && !user.email_verified) {
    // With the embedded provider the address is looked at again on every try; a hosted one's claim comes with a sign-in.
    const then = ctx.env.embeddedIdp
      ? 'open the link in the message sent to it, then try again'
      : 'confirm it with your identity provider, then sign out and sign in again';
    throw new AppError('forbidden', `Your email address (${user.email}) is not confirmed yet: ${then}.`, { reason: 'unverified_email' });
  }
  if (invitation.role === 'guest') {
    throw new AppError('link_expired', 'Invitations no longer make guests: ask whoever invited you to share what you need with you instead.', {
      reason: 'revoked',
    });
  }
  const workspace = await findWorkspaceSummary(tx, invitation.workspace_id);
  // Two invitations to one workspace accepted at once by one person: the second waits and sees the first's membership.
  await lockUser(tx, user.id);
  const existing = await findMembership(tx, workspace.id, user.id);
  if (existing && RANK[existing.role] >= RANK[invitation.role]) return { workspace, role: existing.role, joined: false };
  if (existing) {
    await setRole(tx, workspace.id, user.id, invitation.role);
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'member.role_changed',
      itemId: null,
      data: { userId: user.id, from: existing.role, to: invitation.role, invitationId: invitation.id },
    });
  } else {
    await insertMembership(tx, { workspaceId: workspace.id, userId: user.id, role: invitation.role });
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'member.added',
      itemId: null,
      data: { userId: user.id, role: invitation.role, invitationId: invitation.id },
    });
  }
  const uses = invitation.uses + 1;
  const usedUp = invitation.email !== null || (invitation.max_uses !== null && uses >= invitation.max_uses);
  await updateInvitation(tx, invitation.id, { uses, accepted_by: user.id, ...(usedUp ? { state: 'accepted' as const } : {}) });
  await record(tx, actor, {
    workspaceId: workspace.id,
    action: 'invitation.accepted',
    itemId: null,
    data: { invitationId: invitation.id, userId: user.id, role: invitation.role },
  });
  return { workspace, role: invitation.role, joined: true };
}
