import { z } from 'zod';
import { ZCursor, ZEmail, ZId, ZIsoTime, ZPageQuery, ZWorkspaceParams, ZWorkspaceSlug } from './common.ts';
import { ZWorkspaceRole } from './workspaces.ts';

/** A member of a workspace, by the workspace and their user id. */
export const ZMemberParams = ZWorkspaceParams.extend({ userId: ZId });

/**
 * `PATCH /workspaces/:ws/members/:userId` (owners and admins): a new role. `owner` hands the
 * workspace over (the owner only): the caller becomes an admin, so there is always one owner.
 */
export const ZUpdateMemberRequest = z.object({ role: ZWorkspaceRole });
export type TUpdateMemberRequest = z.infer<typeof ZUpdateMemberRequest>;

/** `DELETE /workspaces/:ws/members/:userId?filesTo=`: who receives the removed person's "My files" (nothing is deleted). */
export const ZRemoveMemberQuery = z.object({ filesTo: ZId });

/**
 * The roles an invitation gives (older invitations may hold `guest`): ownership is handed over,
 * never given by invitation.
 */
export const ZInvitationRole = z.enum(['admin', 'member', 'guest']);
export type TInvitationRole = z.infer<typeof ZInvitationRole>;
/**
 * The roles a new invitation can give. Guests are made by sharing something with them (ADR 0029):
 * a guest joining through an invitation would see nothing at all.
 */
export const ZNewInvitationRole = z.enum(['admin', 'member'], {
  error: 'An invitation makes a member or an admin; to let someone in as a guest, share an item with them instead',
});
export const ZInvitationState = z.enum(['pending', 'accepted', 'revoked', 'expired']);
export type TInvitationState = z.infer<typeof ZInvitationState>;

/** `POST /workspaces/:ws/invitations`: to one address (mailed), or, without one, an invite link. */
export const ZCreateInvitationRequest = z.object({
  email: ZEmail.optional(),
  role: ZNewInvitationRole,
  /** Default: 7 days from now; at most 90. */
  expiresAt: ZIsoTime.optional(),
  /** How many people may join with an invite link (no limit when absent); an invitation by email is used once. */
  maxUses: z.number().int().min(1).max(1000).optional(),
});
export type TCreateInvitationRequest = z.infer<typeof ZCreateInvitationRequest>;

export const ZInvitation = z.object({
  id: ZId,
  workspaceId: ZId,
  /** Null for an invite link. */
  email: z.string().nullable(),
  role: ZInvitationRole,
  /** `expired` once past `expiresAt`; `accepted` once an invitation by email is used or a link is used up. */
  state: ZInvitationState,
  expiresAt: ZIsoTime,
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  createdBy: z.object({ id: ZId, name: z.string() }).nullable(),
  createdAt: ZIsoTime,
});
export type TInvitation = z.infer<typeof ZInvitation>;
/** The invitation as made: with its URL (`PUBLIC_URL/invite/<token>`), which is shown this once. */
export const ZCreatedInvitation = ZInvitation.extend({ url: z.string() });
export type TCreatedInvitation = z.infer<typeof ZCreatedInvitation>;
export const ZInvitationList = z.object({ items: z.array(ZInvitation), nextCursor: z.string().nullable() });
export const ZInvitationParams = ZWorkspaceParams.extend({ id: ZId });
/** A position in the invitations list (newest first; ids are time-ordered). */
export const ZInvitationsPosition = z.object({ id: ZId });
export const ZInvitationsQuery = ZPageQuery(ZCursor(ZInvitationsPosition));
export type TInvitationsQuery = z.infer<typeof ZInvitationsQuery>;

/** The token of an invitation's URL. */
export const ZInvitationTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'is not an invitation token') });

/** `GET /invitations/:token`: what the invitation page shows before anyone signs in. */
export const ZInvitationPreview = z.object({
  workspace: z.object({ id: ZId, name: z.string(), slug: ZWorkspaceSlug }),
  role: ZInvitationRole,
  /** The address an invitation by email is for; null for an invite link. */
  email: z.string().nullable(),
  /** Whether it can still be accepted, and if not why: `used_up` is an invite link at its limit. */
  state: z.enum(['pending', 'accepted', 'revoked', 'expired', 'used_up']),
  expiresAt: ZIsoTime,
  invitedBy: z.string().nullable(),
});
export type TInvitationPreview = z.infer<typeof ZInvitationPreview>;

/** `POST /invitations/:token/accept`: the workspace joined; `joined` false when the caller was already in it with this role or a stronger one. */
export const ZAcceptedInvitation = z.object({
  workspace: z.object({ id: ZId, name: z.string(), slug: ZWorkspaceSlug }),
  role: ZWorkspaceRole,
  joined: z.boolean(),
});
export type TAcceptedInvitation = z.infer<typeof ZAcceptedInvitation>;
