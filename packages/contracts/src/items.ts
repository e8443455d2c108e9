import { z } from 'zod';
import { hasControlCharacters, ZCursor, ZId, ZIsoTime, ZPageQuery } from './common.ts';

export const ZItemKind = z.enum(['folder', 'file', 'document']);
export const ZItemRole = z.enum(['viewer', 'commenter', 'editor', 'manager']);
export type TItemRole = z.infer<typeof ZItemRole>;

/**
 * What the caller may do with an item, as the server decides it (PRODUCT.md §6 and the item's
 * kind and place): the server checks each call against the same answers, and the browser offers
 * an action only when its ability is true. Each name below is also what a call asks for.
 */
export const ZItemAbilities = z.object({
  /** See it and open it: read it, list a folder, a file's versions, a document's revisions and comments; star it; copy it. */
  view: z.boolean(),
  /** Have its bytes: a file's content (any version), a folder as a zip, a document exported. */
  download: z.boolean(),
  /** Documents: start, answer, resolve and reopen comment threads; change or delete one's own comments. */
  comment: z.boolean(),
  /** Documents: delete anyone's comment. */
  deleteAnyComment: z.boolean(),
  /** Change it: rename it, move it within the folders its access comes from, a document's text, a file's new version. Never a root folder. */
  edit: z.boolean(),
  /** Folders: create, upload, import, move or copy items into it. Documents: upload files into it (its pictures and attachments, ADR 0013). */
  createInside: z.boolean(),
  /** Move it (with everything in it) to the trash. Never a root folder. */
  trash: z.boolean(),
  /** An item in the trash: bring it back. */
  restore: z.boolean(),
  /** An item in the trash: delete it, and everything in it, forever. */
  deleteForever: z.boolean(),
  /** See and change who has access to it: grants. */
  share: z.boolean(),
  /** It is the caller's to manage: they may move it out of the folders their access comes from (ADR 0017). */
  manage: z.boolean(),
  /** Documents: make the document what it was at an earlier revision. */
  restoreRevision: z.boolean(),
  /** Files: make an older version the current one again. */
  restoreVersion: z.boolean(),
  /** Files: delete a version that is not the current one. */
  deleteVersion: z.boolean(),
});
export type TItemAbilities = z.infer<typeof ZItemAbilities>;
export type TItemAbility = keyof TItemAbilities;

const encoder = new TextEncoder();

/** PRODUCT.md §5: NFC, 1–255 bytes of UTF-8, no `/`, NUL or control characters, not `.` or `..`, no edge spaces. */
export const ZItemName = z
  .string()
  .transform((s) => s.normalize('NFC'))
  .superRefine((name, ctx) => {
    const problem =
      name.length === 0
        ? 'A name cannot be empty'
        : encoder.encode(name).length > 255
          ? 'A name can be at most 255 bytes long'
          : name.includes('/')
            ? 'A name cannot contain “/”'
            : hasControlCharacters(name)
              ? 'A name cannot contain control characters'
              : name === '.' || name === '..'
                ? 'A name cannot be “.” or “..”'
                : name !== name.trim()
                  ? 'A name cannot start or end with a space'
                  : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * PRODUCT.md §7: the item as every call answers it; `role` is the caller's effective role on it,
 * `abilities` what that role lets them do with this item now.
 */
/**
 * A file's thumbnail (ADR 0040), as listings carry it: `ready` — fetch
 * `GET /items/:id/thumbnail?size=256|1024&v=<v>` (the bytes' hash prefix, so the address is
 * cached for good); `pending` — being made; `failed` — `reason` says why ("the picture is larger
 * than 100 megapixels"); `unsupported` — a kind of file without one. `placeholder` is a ThumbHash
 * (base64) to draw, at the picture's aspect (`width` × `height` of the 1024 px preview), while it loads.
 */
export const ZItemPreview = z.object({
  state: z.enum(['pending', 'ready', 'failed', 'unsupported']),
  reason: z.string().nullable(),
  v: z.string().nullable(),
  placeholder: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type TItemPreview = z.infer<typeof ZItemPreview>;

/**
 * A write lock a WebDAV client holds on the item itself (PRODUCT.md §7): who holds it, the client they took it with
 * ("Finder", "Windows", "rclone"; null when not known), when it runs out unless the client renews it, and whether it is
 * the only one (`exclusive`) or one of several (`shared`, the latest shown). `breakable`: the caller may break it (they
 * hold it, manage the item, run its workspace or the instance).
 */
export const ZItemLock = z.object({
  by: z.object({ id: ZId, name: z.string() }),
  client: z.string().nullable(),
  expiresAt: ZIsoTime,
  scope: z.enum(['exclusive', 'shared']),
  breakable: z.boolean(),
});
export type TItemLock = z.infer<typeof ZItemLock>;

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
  abilities: ZItemAbilities,
  /** Files only, where the listing knows it; absent or null otherwise. */
  preview: ZItemPreview.nullable().optional(),
  /** The live lock on it, where the answer knows it (listings, the item itself); absent or null otherwise. */
  lock: ZItemLock.nullable().optional(),
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

export const ZChildSort = z.enum(['name', 'modified', 'size', 'type']);

/** Where a page of a folder ended: in the files group or not, the last row's sort key as the database prints it, its id. */
export const ZChildrenPosition = z.object({
  f: z.boolean(),
  // Only NUL is refused: a key is a stored name, and names stored before control characters were refused may hold them.
  k: z
    .string()
    .max(1000)
    .refine((k) => !k.includes('\0')),
  i: ZId,
});
export type TChildrenPosition = z.infer<typeof ZChildrenPosition>;

// A sort key as PostgreSQL prints it: a bigint for size, a timestamptz for modified.
const KEY_FORMATS: Partial<Record<z.infer<typeof ZChildSort>, RegExp>> = {
  size: /^-?\d{1,18}$/,
  modified: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/,
};

export const ZChildrenQuery = ZPageQuery(ZCursor(ZChildrenPosition))
  .extend({ sort: ZChildSort.default('name'), order: z.enum(['asc', 'desc']).default('asc') })
  .superRefine((q, ctx) => {
    const format = KEY_FORMATS[q.sort];
    if (q.cursor && format && !format.test(q.cursor.k)) ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'is not a cursor this listing gave' });
  });
export type TChildrenQuery = z.infer<typeof ZChildrenQuery>;

/** Where a page of the trash ended: the last unit's trashing time and id. */
export const ZTrashPosition = z.object({ at: ZIsoTime, id: ZId });
export type TTrashPosition = z.infer<typeof ZTrashPosition>;
export const ZTrashQuery = ZPageQuery(ZCursor(ZTrashPosition));
export type TTrashQuery = z.infer<typeof ZTrashQuery>;

export const ZItemPage = z.object({ items: z.array(ZItem), nextCursor: z.string().nullable() });

export const ZRestoreResult = z.object({
  item: ZItem,
  /** `root` when the original folder was gone, so the item came back at the top of the tree it was in (the shared root or a My files). */
  restoredInto: z.enum(['original', 'root']),
});
export type TRestoreResult = z.infer<typeof ZRestoreResult>;

export const ZCopyItemRequest = z.object({ parentId: ZId, name: ZItemName.optional() });
export type TCopyItemRequest = z.input<typeof ZCopyItemRequest>;

export const ZItemList = z.object({ items: z.array(ZItem) });

export const ZEmptyTrashResult = z.object({ deleted: z.number().int() });
