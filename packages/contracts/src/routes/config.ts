import { defineRoute } from './define-route.ts';

/** The installation as the browser sees it, and this API's description. */
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
  openApi: defineRoute({
    method: 'GET',
    path: '/openapi.json',
    tag: 'config',
    summary: 'This API described in OpenAPI 3.1',
    auth: 'none',
    public: false,
    errors: [],
  }),
};
