import { z } from 'zod';
import { ZId, ZIsoTime, ZText } from './common.ts';

export const ZUser = z.object({
  id: ZId,
  email: z.string(),
  emailVerified: z.boolean(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  isInstanceAdmin: z.boolean(),
  createdAt: ZIsoTime,
});
export type TUser = z.infer<typeof ZUser>;

export const ZMe = z.object({
  user: ZUser,
  /** How the caller is authenticated: the browser session or an API token. */
  via: z.enum(['session', 'token']),
  sessionId: ZId.nullable(),
});
export type TMe = z.infer<typeof ZMe>;

/** The email comes from the identity provider; only the display name is Cabinet's to change. */
export const ZUpdateMeRequest = z.object({
  name: ZText(200).min(1, 'Enter your name'),
});
export type TUpdateMeRequest = z.infer<typeof ZUpdateMeRequest>;
