// No zod here: the browser tells app passwords from API tokens without loading the schemas.

/**
 * What a token may do: `read` and `write` are the API's (any API token reads; `write` also changes);
 * `dav` makes it an app password, which signs in WebDAV clients at /dav/ and nothing else.
 */
export const TOKEN_SCOPES = ['read', 'write', 'dav'] as const;
export type TTokenScope = (typeof TOKEN_SCOPES)[number];

/** An app password is a token with the `dav` scope, which goes with no other. */
export const isAppPassword = (scopes: readonly TTokenScope[]): boolean => scopes.includes('dav');
