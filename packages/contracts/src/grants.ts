import { z } from 'zod';
import { ZId, ZIsoTime } from './common.ts';
import { ZItemRole } from './items.ts';

/** Who a grant is for: one person (by id, or by the email they sign in with), or everyone in the item's workspace. */
export const ZGrantPrincipalRequest = z.union([
  z.object({ type: z.literal('user'), id: ZId }),
  z.object({ type: z.literal('user'), email: z.email() }),
  z.object({ type: z.literal('workspace') }),
]);

/** `POST /items/:id/grants`: give a role on the item (and everything under it); an existing grant to the same principal changes. */
export const ZCreateGrantRequest = z.object({
  principal: ZGrantPrincipalRequest,
  role: ZItemRole,
  expiresAt: ZIsoTime.nullable().optional(),
});
export type TCreateGrantRequest = z.infer<typeof ZCreateGrantRequest>;

export const ZGrant = z.object({
  id: ZId,
  itemId: ZId,
  principal: z.object({ type: z.enum(['user', 'group', 'workspace']), id: ZId, name: z.string(), email: z.string().nullable() }),
  role: ZItemRole,
  expiresAt: ZIsoTime.nullable(),
  createdAt: ZIsoTime,
});
export type TGrant = z.infer<typeof ZGrant>;
export const ZGrantList = z.object({ items: z.array(ZGrant), nextCursor: z.string().nullable() });
export const ZGrantParams = z.object({ id: ZId, grantId: ZId });
