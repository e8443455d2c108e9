import { defineRoute } from './define-route.ts';

/** The caller, and signing out. */
export const meApi = {
  get: defineRoute({
    method: 'GET',
    path: '/me',
    tag: 'account',
    summary: 'Who is calling',
    auth: 'read',
    public: true,
    responses: { 200: 'ZMe' },
    errors: [],
  }),
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
