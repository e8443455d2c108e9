import { defineAddressedRoute, defineRoute } from './define-route.ts';

/** Managing who is in a workspace (owners and admins); the member list itself is `workspacesApi.members`. */
export const membersApi = {
  update: defineRoute({
    method: 'PATCH',
    path: '/workspaces/:ws/members/:userId',
    tag: 'team',
    summary: "Change a member's role (owners and admins); `owner` hands the workspace over (the owner only, who becomes an admin)",
    description:
      'Admins cannot change an owner or make anyone owner. ' +
      'The owner cannot step down except by handing the workspace to another member: there is always exactly one owner.',
    auth: 'write',
    public: true,
    params: 'ZMemberParams',
    body: 'ZUpdateMemberRequest',
    responses: { 200: 'ZMember' },
    errors: ['not_found'],
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/workspaces/:ws/members/:userId',
    tag: 'team',
    summary: 'Remove someone from the workspace (owners and admins); their "My files" goes to `filesTo`, a member, as a folder "<Name>\'s files"',
    description: 'Nothing of theirs is deleted. Their access ends at once: open documents close, and their calls answer `not_found` for the workspace.',
    auth: 'write',
    public: true,
    params: 'ZMemberParams',
    query: 'ZRemoveMemberQuery',
    responses: { 204: null },
    errors: ['not_found'],
  }),
};

export const invitationsApi = {
  list: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws/invitations',
    tag: 'team',
    summary: 'Invitations to the workspace, newest first (owners and admins), a page at a time',
    auth: 'read',
    public: true,
    query: 'ZInvitationsQuery',
    responses: { 200: 'ZInvitationList' },
    errors: ['forbidden'],
  }),
  create: defineAddressedRoute({
    method: 'POST',
    path: '/workspaces/:ws/invitations',
    tag: 'team',
    summary: 'Invite someone by email (mailed), or make an invite link without one (owners and admins); the URL is given only here',
    auth: 'write',
    public: true,
    body: 'ZCreateInvitationRequest',
    responses: { 201: 'ZCreatedInvitation' },
    errors: ['rate_limited'],
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/workspaces/:ws/invitations/:id',
    tag: 'team',
    summary: 'Revoke a pending or expired invitation (owners and admins): its URL stops working; an accepted one cannot be revoked',
    auth: 'write',
    public: true,
    params: 'ZInvitationParams',
    responses: { 204: null },
    errors: ['not_found', 'invalid_input'],
  }),
  resend: defineRoute({
    method: 'POST',
    path: '/workspaces/:ws/invitations/:id/resend',
    tag: 'team',
    summary: 'Mail an invitation again with a new URL (the old one stops working once the mail is sent) and a new expiry (owners and admins)',
    description: 'At most 5 sends of one invitation an hour, and 50 invitations made or resent by one person an hour across all workspaces (`rate_limited`).',
    auth: 'write',
    public: true,
    params: 'ZInvitationParams',
    responses: { 200: 'ZInvitation' },
    errors: ['not_found', 'rate_limited'],
  }),
  preview: defineRoute({
    method: 'GET',
    path: '/invitations/:token',
    tag: 'team',
    summary: 'What an invitation is to (workspace, role) and whether it can still be accepted; needs no sign-in',
    auth: 'none',
    public: true,
    params: 'ZInvitationTokenParams',
    responses: { 200: 'ZInvitationPreview' },
    errors: ['not_found'],
  }),
  accept: defineRoute({
    method: 'POST',
    path: '/invitations/:token/accept',
    tag: 'team',
    summary: "Join the workspace with the invitation's role (an invitation by email: only its verified address)",
    description:
      '`link_expired` (410) when the invitation has expired, was revoked, was already used or is used up ' +
      '(`details.reason`: expired, revoked, accepted, used_up); ' +
      "`forbidden` (403) when it was sent to another address than the caller's (`details.reason`: wrong_email) " +
      "or to the caller's address not yet confirmed (`unverified_email`; with the embedded provider the address is looked at again on each " +
      'call, so one confirmed since signing in counts at once; with a hosted provider, at the next sign-in); ' +
      '`link_expired` with `details.reason` `revoked` too when whoever made it no longer manages the workspace. Someone already in the workspace ' +
      'with this role or a stronger one is not added twice: `joined` is false and no use is counted.',
    auth: 'write',
    public: true,
    params: 'ZInvitationTokenParams',
    responses: { 200: 'ZAcceptedInvitation' },
    errors: ['not_found', 'link_expired'],
  }),
  previewMine: defineRoute({
    method: 'GET',
    path: '/me/invitations/:id',
    tag: 'team',
    summary: 'An invitation sent to your address, by its id (an `invited` notification opens it): what it is to and whether it still holds',
    description: 'An invitation by email to another address than yours, or an invite link, is `not_found`.',
    auth: 'read',
    public: true,
    params: 'ZIdParams',
    responses: { 200: 'ZInvitationPreview' },
    errors: ['not_found'],
  }),
  acceptMine: defineRoute({
    method: 'POST',
    path: '/me/invitations/:id/accept',
    tag: 'team',
    summary: 'Join the workspace of an invitation sent to your address, by its id, as `POST /invitations/:token/accept` does',
    description:
      'Your verified address stands for the link in its mail. Answers as `POST /invitations/:token/accept` does; an invitation by email ' +
      'to another address than yours, or an invite link, is `not_found`.',
    auth: 'write',
    public: true,
    params: 'ZIdParams',
    responses: { 200: 'ZAcceptedInvitation' },
    errors: ['not_found', 'link_expired'],
  }),
};
