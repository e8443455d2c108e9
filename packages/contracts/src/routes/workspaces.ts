import { defineAddressedRoute, defineRoute } from './define-route.ts';

export const workspacesApi = {
  list: defineRoute({
    method: 'GET',
    path: '/workspaces',
    tag: 'workspaces',
    summary: 'Workspaces you belong to',
    auth: 'read',
    public: true,
    responses: { 200: 'ZWorkspaceList' },
    errors: [],
  }),
  create: defineRoute({
    method: 'POST',
    path: '/workspaces',
    tag: 'workspaces',
    summary: 'Create a workspace you own',
    auth: 'write',
    public: true,
    body: 'ZCreateWorkspaceRequest',
    responses: { 201: 'ZWorkspace' },
    errors: ['name_conflict'],
  }),
  get: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws',
    tag: 'workspaces',
    summary: 'One workspace, by id or slug',
    auth: 'read',
    public: true,
    responses: { 200: 'ZWorkspace' },
    errors: [],
  }),
  members: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws/members',
    tag: 'workspaces',
    summary: 'Members of a workspace, optionally those whose name or email contains q, or members without guests (not for guests)',
    auth: 'read',
    public: true,
    query: 'ZMembersQuery',
    responses: { 200: 'ZMemberList' },
    errors: ['forbidden'],
  }),
};

export const eventsApi = {
  stream: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws/events',
    tag: 'events',
    summary: 'Live changes in the workspace (Server-Sent Events; each `data:` is an ItemEvent)',
    description:
      'Each change the caller may see comes as `event: item` with `id:` (its place in the activity record) and `data:` an ItemEvent ' +
      '(`type`: item.created, item.renamed, item.moved, item.updated, item.trashed, item.restored, item.deleted, item.shared, ' +
      'comment.added, comment.edited, comment.resolved, comment.reopened, comment.deleted; `itemId`; `parentIds`: the folders it ' +
      'was in or went to; `clientId`: the X-Client-Id that made it, sent only to its maker). To everyone but guests, a change to the ' +
      'groups comes as `event: group` with `id:` and `data:` a GroupEvent (`type`: group.created, group.renamed, group.deleted, ' +
      'group.member_added, group.member_removed; `clientId`). A first connection given `after` (the `Last-Change-Id` header of ' +
      'the answers the page shows) replays the changes recorded since then; one without it gets the changes of the last minute. ' +
      'Either then sends `event: ready`, whose `id:` names the latest change sent. Reconnecting with `Last-Event-ID` ' +
      'replays what was missed, in order. When more than 500 changes were missed, or the record no longer holds ' +
      'where the caller left off (a database restored from a backup, a tab asleep for months), ' +
      "`event: reset` says to fetch afresh whatever is shown. `event: notifications` (no id) says the caller's notifications changed, " +
      'in any workspace: read `GET /notifications` again. Comments (`: keepalive`) keep the connection open.',
    auth: 'read',
    public: true,
    query: 'ZEventsQuery',
    produces: 'event-stream',
    errors: [],
  }),
};
