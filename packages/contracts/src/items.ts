import { z } from 'zod';
import { ZId, ZIsoTime } from './common.ts';

export const ZItemKind = z.enum(['folder', 'file', 'document']);
export const ZItemRole = z.enum(['viewer', 'commenter', 'editor', 'manager']);
export type TItemRole = z.infer<typeof ZItemRole>;

const encoder = new TextEncoder();

/** PRODUCT.md §5: NFC, 1–255 bytes of UTF-8, no `/`, NUL or control characters, not `.` or `..`, no edge spaces. */
export const ZItemName = z
  .string()
  .transform((s) => s.normalize('NFC'))
  .superRefine((name, ctx) => {
    const problem =
      name.length === 0 ? 'A name cannot be empty'
      : encoder.encode(name).length > 255 ? 'A name can be at most 255 bytes long'
      : name.includes('/') ? 'A name cannot contain “/”'
      : [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) ? 'A name cannot contain control characters'
      : name === '.' || name === '..' ? 'A name cannot be “.” or “..”'
      : name !== name.trim() ? 'A name cannot start or end with a space'
      : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** PRODUCT.md §7: the item as every call answers it; `role` is the caller's effective role on it. */
export const ZItem = z.object({
  id: ZId,
  workspaceId: ZId,
  parentId: ZId.nullable(),
  kind: ZItemKind,
  name: z.string(),
  size: z.number().int(),
  mimeType: z.string().nullable(),
  ownerId: ZId,
  updatedAt: ZIsoTime,
  updatedBy: ZId.nullable(),
  version: z.number().int(),
  role: ZItemRole,
});
export type TItem = z.infer<typeof ZItem>;

export const ZCreateItemRequest = z.object({
  kind: z.enum(['folder', 'document'], { message: 'Folders and documents are created this way; files arrive by upload' }),
  name: ZItemName,
  parentId: ZId,
});
export type TCreateItemRequest = z.input<typeof ZCreateItemRequest>;

export const ZUpdateItemRequest = z
  .object({ name: ZItemName.optional(), parentId: ZId.optional() })
  .refine((c) => c.name !== undefined || c.parentId !== undefined, 'Give a new name, a new parentId, or both');
export type TUpdateItemRequest = z.input<typeof ZUpdateItemRequest>;

export const ZChildrenQuery = z.object({
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  sort: z.enum(['name', 'modified', 'size', 'type']).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type TChildrenQuery = z.infer<typeof ZChildrenQuery>;

export const ZItemPage = z.object({ items: z.array(ZItem), nextCursor: z.string().nullable() });

export const ZRestoreResult = z.object({
  item: ZItem,
  /** `home` when the original folder was gone, so the item came back into its owner's My files. */
  restoredInto: z.enum(['original', 'home']),
});

export const ZCopyItemRequest = z.object({ parentId: ZId, name: ZItemName.optional() });
export type TCopyItemRequest = z.input<typeof ZCopyItemRequest>;

export const ZItemList = z.object({ items: z.array(ZItem) });
