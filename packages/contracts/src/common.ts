import { z } from 'zod';
import { DEFAULT_PAGE } from './limits.ts';

export const ZId = z.uuid();
export const ZIsoTime = z.iso.datetime({ offset: true });

// Control characters (C0, DEL, C1) and lone UTF-16 surrogates: nothing a person types, and NUL
// or a surrogate cannot be stored as PostgreSQL text at all.
const CONTROL_OR_LONE_SURROGATE = /[\p{Cc}\p{Cs}]/u;
const CONTROL_BUT_LINE_OR_TAB = /(?![\n\t])[\p{Cc}\p{Cs}]/u;

/** True when a string holds a control character or a lone surrogate (names and one-line text refuse them). */
export const hasControlCharacters = (s: string) => CONTROL_OR_LONE_SURROGATE.test(s);

/** Free text on one line (a display name, a token name): trimmed, `max` characters, no control characters. */
export const ZText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max.toLocaleString('en')} characters`)
    .refine((s) => !hasControlCharacters(s), 'Control characters are not allowed');

/** Free text that may run over several lines (a comment): new lines and tabs are kept, other controls refused. */
export const ZMultilineText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max.toLocaleString('en')} characters`)
    .refine((s) => !CONTROL_BUT_LINE_OR_TAB.test(s), 'Control characters other than new lines and tabs are not allowed');

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

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A page cursor as a listing gives it in `nextCursor`: its position, as base64url JSON. */
export function encodeCursor(position: unknown): string {
  let binary = '';
  for (const byte of utf8.encode(JSON.stringify(position))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(cursor: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(cursor)) throw new Error('not base64url');
  const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(strictUtf8.decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
}

/** A `cursor` query parameter: decoded and checked against the position its listing encodes, or `invalid_input`. */
export const ZCursor = <T extends z.ZodType>(position: T) =>
  z
    .string()
    .max(2000)
    .transform((cursor, ctx): z.output<T> => {
      let decoded: unknown;
      try {
        decoded = decodeCursor(cursor);
      } catch {
        decoded = undefined;
      }
      const parsed = position.safeParse(decoded);
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: 'is not a cursor this listing gave' });
      return z.NEVER;
    });

/** `?cursor=&limit=` of a listing whose cursor is the position `cursor` decodes. */
export const ZPageQuery = <T extends z.ZodType>(cursor: T) =>
  z.object({
    cursor: cursor.optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(DEFAULT_PAGE),
  });

/** A workspace in a path: its id or its slug. */
export const ZWorkspaceRef = z.union([ZId, ZWorkspaceSlug], { error: 'Give a workspace id or address' });
export const ZWorkspaceParams = z.object({ ws: ZWorkspaceRef });

export const ZIdParams = z.object({ id: ZId });
/** `If-Match`: the version a change was made against, to refuse it when stale (other headers pass). */
export const ZIfMatchHeaders = z.looseObject({ 'if-match': z.string().optional() });
/** A folder of a workspace in a path. */
export const ZFolderParams = ZWorkspaceParams.extend({ id: ZId });
