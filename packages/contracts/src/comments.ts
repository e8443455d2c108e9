import { z } from 'zod';
import { hasControlCharacters, ZId, ZIsoTime, ZMultilineText } from './common.ts';
import { ZPersonRef } from './documents.ts';

/** PRODUCT.md §5: a comment is 1–10,000 characters. */
export const ZCommentBody = ZMultilineText(10_000).min(1, 'Write something');

const ZYjsId = z.object({ client: z.number().int().min(0), clock: z.number().int().min(0) });
/** A Yjs relative position as `Y.relativePositionToJSON` writes it, and nothing more. */
const ZRelativePosition = z.strictObject({
  type: ZYjsId.nullable().optional(),
  tname: z
    .string()
    .max(200)
    .refine((s) => !hasControlCharacters(s), 'Control characters are not allowed')
    .nullable()
    .optional(),
  item: ZYjsId.nullable().optional(),
  assoc: z.number().int().optional(),
});

/** Where a thread sits in the text: the Yjs relative positions of its start and end. */
export const ZCommentAnchor = z.object({ start: ZRelativePosition, end: ZRelativePosition });

export const ZComment = z.object({
  id: ZId,
  threadId: ZId,
  author: ZPersonRef.nullable(),
  body: z.string(),
  createdAt: ZIsoTime,
  updatedAt: ZIsoTime,
});
export type TComment = z.infer<typeof ZComment>;

/** A thread is its first comment's id, its anchor and quote, whether it is resolved, and its comments in order. */
export const ZCommentThread = z.object({
  id: ZId,
  itemId: ZId,
  /** As it was stored: anchors from before positions were checked may carry other keys. */
  anchor: z.object({ start: z.record(z.string(), z.unknown()), end: z.record(z.string(), z.unknown()) }).nullable(),
  quote: z.string().nullable(),
  resolvedAt: ZIsoTime.nullable(),
  resolvedBy: ZPersonRef.nullable(),
  comments: z.array(ZComment),
});
export type TCommentThread = z.infer<typeof ZCommentThread>;
export const ZCommentThreadList = z.object({ items: z.array(ZCommentThread), nextCursor: z.string().nullable() });

/** A new thread (on the anchored text, or on the whole document), or with `threadId` a reply. */
export const ZCreateCommentRequest = z
  .object({
    body: ZCommentBody,
    threadId: ZId.optional(),
    anchor: ZCommentAnchor.optional(),
    quote: ZMultilineText(1000).optional(),
    /**
     * The people the comment mentions (`@Name` in its body, picked from the workspace's people):
     * each is notified, if they can see the document (ADR 0034).
     */
    mentions: z.array(ZId).max(20).optional(),
  })
  .refine((c) => !c.threadId || (!c.anchor && c.quote === undefined), 'A reply takes its thread’s place in the text: give threadId or an anchor, not both');
export type TCreateCommentRequest = z.infer<typeof ZCreateCommentRequest>;

/**
 * Change a comment's words (its author), or resolve and reopen a thread (on its first comment).
 * `mentions` with a new body: the people it mentions now; those it did not mention before are
 * notified (ADR 0034).
 */
export const ZUpdateCommentRequest = z
  .object({ body: ZCommentBody.optional(), resolved: z.boolean().optional(), mentions: z.array(ZId).max(20).optional() })
  .refine((c) => c.body !== undefined || c.resolved !== undefined, 'Give a new body, resolved, or both');
export type TUpdateCommentRequest = z.infer<typeof ZUpdateCommentRequest>;

export const ZCommentParams = z.object({ id: ZId, commentId: ZId });
