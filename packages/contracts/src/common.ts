import { z } from 'zod';

export const ZId = z.uuid();
export const ZIsoTime = z.iso.datetime({ offset: true });

/** PRODUCT.md §5: a workspace slug is 3–48 of `a-z 0-9 -`. */
export const ZWorkspaceSlug = z
  .string()
  .min(3, 'A workspace address needs at least 3 characters')
  .max(48, 'A workspace address has at most 48 characters')
  .regex(/^[a-z0-9-]+$/, 'Use only lowercase letters, digits and hyphens');

/** PRODUCT.md §5: email follows the WHATWG rule (the one `<input type=email>` applies). */
export const ZEmail = z
  .string()
  .max(254)
  .regex(
    /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/,
    'Enter a valid email address',
  );

export const ZListQuery = z.object({
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const ZIdParams = z.object({ id: ZId });
