import { z } from 'zod';
import { ZId, ZIsoTime } from './common.ts';

export const ZSession = z.object({
  id: ZId,
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: ZIsoTime,
  lastUsedAt: ZIsoTime,
  expiresAt: ZIsoTime,
  current: z.boolean(),
});
export type TSession = z.infer<typeof ZSession>;
export const ZSessionList = z.object({ items: z.array(ZSession), nextCursor: z.string().nullable() });
export const ZRevokeOthersResult = z.object({ revoked: z.number().int() });

/** Where to send the browser after signing out, to end the identity provider's session too. */
export const ZSignOutResult = z.object({ redirectUrl: z.string() });
