import { defineAddressedRoute, defineRoute } from './define-route.ts';

/** The caller's sessions and API tokens (the account page). */
export const sessionsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/sessions',
    tag: 'sessions',
    summary: 'List your active sessions',
    auth: 'read',
    public: true,
    responses: { 200: 'ZSessionList' },
    errors: [],
  }),
  end: defineAddressedRoute({
    method: 'DELETE',
    path: '/sessions/:id',
    tag: 'sessions',
    summary: 'Sign out one session',
    auth: 'write',
    public: true,
    responses: { 204: null },
    errors: [],
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
  list: defineRoute({
    method: 'GET',
    path: '/tokens',
    tag: 'tokens',
    summary: 'List your API tokens',
    auth: 'read',
    public: true,
    responses: { 200: 'ZApiTokenList' },
    errors: [],
  }),
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
  revoke: defineAddressedRoute({
    method: 'DELETE',
    path: '/tokens/:id',
    tag: 'tokens',
    summary: 'Revoke an API token',
    auth: 'write',
    public: true,
    responses: { 204: null },
    errors: [],
  }),
};
