import { z } from 'zod';
import { ZId, ZWorkspaceSlug } from './common.ts';

export const ZWorkspaceRole = z.enum(['owner', 'admin', 'member', 'guest']);
export type TWorkspaceRole = z.infer<typeof ZWorkspaceRole>;

/** PRODUCT.md §7: `{ id, slug, name, role, rootId, homeId, quotaBytes, usedBytes }`. */
export const ZWorkspace = z.object({
  id: ZId,
  slug: z.string(),
  name: z.string(),
  role: ZWorkspaceRole,
  rootId: ZId,
  homeId: ZId,
  quotaBytes: z.number().int().nullable(),
  usedBytes: z.number().int(),
});
export type TWorkspace = z.infer<typeof ZWorkspace>;

export const ZCreateWorkspaceRequest = z.object({
  name: z.string().trim().min(1, 'Give the workspace a name').max(100),
  slug: ZWorkspaceSlug.optional(),
});
export type TCreateWorkspaceRequest = z.infer<typeof ZCreateWorkspaceRequest>;

export const ZWorkspaceList = z.object({ items: z.array(ZWorkspace), nextCursor: z.string().nullable() });
