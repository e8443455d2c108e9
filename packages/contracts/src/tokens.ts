import { z } from 'zod';
import { ZId, ZIsoTime, ZText } from './common.ts';
import { LIMITS } from './limits.ts';
import { isAppPassword, TOKEN_SCOPES } from './token-scopes.ts';

export const ZTokenScope = z.enum(TOKEN_SCOPES);

export const ZApiToken = z.object({
  id: ZId,
  name: z.string(),
  scopes: z.array(ZTokenScope),
  createdAt: ZIsoTime,
  expiresAt: ZIsoTime,
  lastUsedAt: ZIsoTime.nullable(),
});
export type TApiToken = z.infer<typeof ZApiToken>;

export const ZCreateApiTokenRequest = z
  .object({
    name: ZText(100).min(1, 'Give the token a name'),
    /** `dav` alone (an app password), or some of `read` and `write` (an API token). */
    scopes: z.array(ZTokenScope).min(1).default(['read', 'write']),
    /** Days until the token expires: 1 to 365 (PRODUCT.md §9). */
    expiresInDays: z.number().int().min(1).max(LIMITS.apiTokenMaxDays).default(90),
  })
  .refine((r) => !isAppPassword(r.scopes) || r.scopes.every((s) => s === 'dav'), {
    message: 'An app password (dav) has no other scope: make an API token for read or write.',
    path: ['scopes'],
  });
export type TCreateApiTokenRequest = z.input<typeof ZCreateApiTokenRequest>;

/** The secret appears once, in the answer to create; only its hash is stored. */
export const ZCreatedApiToken = ZApiToken.extend({ token: z.string() });
export type TCreatedApiToken = z.infer<typeof ZCreatedApiToken>;
export const ZApiTokenList = z.object({ items: z.array(ZApiToken), nextCursor: z.string().nullable() });
