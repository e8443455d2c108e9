import { defineAddressedRoute, defineRoute } from './define-route.ts';

const ADMINS_ONLY = 'For instance administrators only: anyone else signed in, workspace owners included, is answered `forbidden`.';

/** Instance administration (`/admin`): the whole installation, for its administrators. Every change is audited. */
export const adminApi = {
  overview: defineRoute({
    method: 'GET',
    path: '/admin/overview',
    tag: 'admin',
    summary: 'The instance: version, health of the database, storage, Redis and mail, usage, backups',
    description: ADMINS_ONLY,
    auth: 'read',
    public: true,
    responses: { 200: 'ZAdminOverview' },
    errors: ['forbidden'],
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/admin/settings',
    tag: 'admin',
    summary: 'The settings in force (secrets masked)',
    description: ADMINS_ONLY,
    auth: 'read',
    public: true,
    responses: { 200: 'ZAdminSettings' },
    errors: ['forbidden'],
  }),
  workspaces: defineRoute({
    method: 'GET',
    path: '/admin/workspaces',
    tag: 'admin',
    summary: 'Every workspace with its owner, members, usage and quota, most storage first',
    description: ADMINS_ONLY,
    auth: 'read',
    public: true,
    query: 'ZAdminWorkspacesQuery',
    responses: { 200: 'ZAdminWorkspaceList' },
    errors: ['forbidden'],
  }),
  updateWorkspace: defineAddressedRoute({
    method: 'PATCH',
    path: '/admin/workspaces/:id',
    tag: 'admin',
    summary: "Set a workspace's quota (null: none)",
    description: `${ADMINS_ONLY} A quota below what the workspace uses already is allowed: nothing is removed, new bytes are refused.`,
    auth: 'write',
    public: true,
    body: 'ZUpdateAdminWorkspaceRequest',
    responses: { 200: 'ZAdminWorkspace' },
    errors: ['forbidden'],
  }),
  users: defineRoute({
    method: 'GET',
    path: '/admin/users',
    tag: 'admin',
    summary: 'Every person with their workspaces, last sign-in, status and the bytes they own',
    description: ADMINS_ONLY,
    auth: 'read',
    public: true,
    query: 'ZAdminUsersQuery',
    responses: { 200: 'ZAdminUserList' },
    errors: ['forbidden'],
  }),
  updateUser: defineAddressedRoute({
    method: 'PATCH',
    path: '/admin/users/:id',
    tag: 'admin',
    summary: 'Deactivate or activate an account; make a person an instance administrator or not',
    description:
      `${ADMINS_ONLY} Deactivating ends the person's sessions and revokes their API tokens at once (with the embedded ` +
      'provider, its own sessions of them too), and their open pages and collaboration sockets within seconds; they ' +
      'cannot sign in until activated again, and their tokens stay revoked. No one deactivates themselves or takes ' +
      'away their own administration, and the last active administrator cannot be deactivated.',
    auth: 'write',
    public: true,
    body: 'ZUpdateAdminUserRequest',
    responses: { 200: 'ZAdminUser' },
    errors: ['forbidden'],
  }),
  signOutUser: defineAddressedRoute({
    method: 'POST',
    path: '/admin/users/:id/sign-out',
    tag: 'admin',
    summary: 'Sign a person out everywhere (their API tokens stay)',
    description:
      `${ADMINS_ONLY} Every Cabinet session of theirs ends, and with the embedded provider its own sessions of them ` +
      'too: they sign in with their password again.',
    auth: 'write',
    public: true,
    responses: { 200: 'ZAdminSignOutResult' },
    errors: ['forbidden'],
  }),
  resetTwoStep: defineAddressedRoute({
    method: 'POST',
    path: '/admin/users/:id/reset-two-step',
    tag: 'admin',
    summary: 'Reset a person’s two-step sign-in (their authenticator app, recovery codes and passkeys)',
    description:
      `${ADMINS_ONLY} For someone who lost their phone, recovery codes or a device with a passkey: their password alone ` +
      'signs in again, and they set up two-step sign-in anew under Account → Security. Only for accounts of the embedded ' +
      'provider (`forbidden` for a hosted one, whose factors are set there), from a signed-in browser (not with a token), ' +
      'and not one’s own.',
    auth: 'write',
    public: true,
    responses: { 200: 'ZAdminResetTwoStepResult' },
    errors: ['forbidden'],
  }),
  jobs: defineRoute({
    method: 'GET',
    path: '/admin/jobs',
    tag: 'admin',
    summary: 'Background jobs by kind and state, and the failed ones with their error',
    description: ADMINS_ONLY,
    auth: 'read',
    public: true,
    responses: { 200: 'ZAdminJobs' },
    errors: ['forbidden'],
  }),
  retryJob: defineAddressedRoute({
    method: 'POST',
    path: '/admin/jobs/:id/retry',
    tag: 'admin',
    summary: 'Run a failed job once more, now',
    description:
      `${ADMINS_ONLY} Only a failed job (out of attempts, held by no runner): \`not_found\` for any other. ` +
      'It is given one more try; failing again, it is listed as failed again.',
    auth: 'write',
    public: true,
    responses: { 204: null },
    errors: ['forbidden'],
  }),
  discardJob: defineAddressedRoute({
    method: 'DELETE',
    path: '/admin/jobs/:id',
    tag: 'admin',
    summary: 'Discard a failed job',
    description: `${ADMINS_ONLY} Only a failed job: \`not_found\` for any other.`,
    auth: 'write',
    public: true,
    responses: { 204: null },
    errors: ['forbidden'],
  }),
  audit: defineRoute({
    method: 'GET',
    path: '/admin/audit',
    tag: 'admin',
    summary: "What the instance's administrators did, newest first",
    description: ADMINS_ONLY,
    auth: 'read',
    public: true,
    query: 'ZAdminAuditQuery',
    responses: { 200: 'ZAdminAuditList' },
    errors: ['forbidden'],
  }),
};
