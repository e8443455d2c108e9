import { defineRoute } from './define-route.ts';

/** The installation, the caller, their sessions and API tokens, signing out. */
export const configApi = {
  get: defineRoute({
    method: 'GET',
    path: '/config',
    tag: 'config',
    summary: 'What the browser needs to know of the installation',
    auth: 'none',
    public: true,
    responses: { 200: 'ZPublicConfig' },
    errors: [],
  }),
  openApi: defineRoute({ method: 'GET', path: '/openapi.json', tag: 'config', summary: 'This API described in OpenAPI 3.1', auth: 'none', public: false, errors: [] }),
};

export const meApi = {
  get: defineRoute({ method: 'GET', path: '/me', tag: 'account', summary: 'Who is calling', auth: 'read', public: true, responses: { 200: 'ZMe' }, errors: [] }),
  update: defineRoute({
    method: 'PATCH',
    path: '/me',
    tag: 'account',
    summary: 'Change your display name',
    auth: 'write',
    public: true,
    body: 'ZUpdateMeRequest',
    responses: { 200: 'ZUser' },
    errors: [],
  }),
};

export const authApi = {
  signOut: defineRoute({
    method: 'POST',
    path: '/auth/signout',
    tag: 'auth',
    summary: 'Sign out of this browser session',
    auth: 'write',
    public: true,
    responses: { 200: 'ZSignOutResult' },
    errors: [],
  }),
};

export const sessionsApi = {
  list: defineRoute({ method: 'GET', path: '/sessions', tag: 'sessions', summary: 'List your active sessions', auth: 'read', public: true, responses: { 200: 'ZSessionList' }, errors: [] }),
  end: defineRoute({
    method: 'DELETE',
    path: '/sessions/:id',
    tag: 'sessions',
    summary: 'Sign out one session',
    auth: 'write',
    public: true,
    params: 'ZIdParams',
    responses: { 204: null },
    errors: ['not_found'],
  }),
  endOthers: defineRoute({
    method: 'POST',
    path: '/sessions/revoke-others',
    tag: 'sessions',
    summary: 'Sign out every other session',
    auth: 'write',
    public: true,
    responses: { 200: 'ZRevokeOthersResult' },
    errors: [],
  }),
};

export const tokensApi = {
  list: defineRoute({ method: 'GET', path: '/tokens', tag: 'tokens', summary: 'List your API tokens', auth: 'read', public: true, responses: { 200: 'ZApiTokenList' }, errors: [] }),
  create: defineRoute({
    method: 'POST',
    path: '/tokens',
    tag: 'tokens',
    summary: 'Create an API token (the secret is shown once)',
    auth: 'write',
    public: true,
    body: 'ZCreateApiTokenRequest',
    responses: { 201: 'ZCreatedApiToken' },
    errors: [],
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/tokens/:id',
    tag: 'tokens',
    summary: 'Revoke an API token',
    auth: 'write',
    public: true,
    params: 'ZIdParams',
    responses: { 204: null },
    errors: ['not_found'],
  }),
};
