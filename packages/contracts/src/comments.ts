import { z } from 'zod';
import { ZId, ZIsoTime } from './common.ts';
import { ZPersonRef } from './documents.ts';

/** PRODUCT.md §5: a comment is 1–10,000 characters. */
export const ZCommentBody = z.string().trim().min(1, 'Write something').max(10_000, 'A comment can be at most 10,000 characters');

/** Where a thread sits in the text: the Yjs relative positions of its start and end, as Yjs writes them to JSON. */
export const ZCommentAnchor = z
  .object({ start: z.record(z.string(), z.unknown()), end: z.record(z.string(), z.unknown()) })
  .refine((a) => JSON.stringify(a).length <= 2000, 'An anchor is two positions, not a document');

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
  anchor: ZCommentAnchor.nullable(),
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
    quote: z.string().max(1000).optional(),
  })
  .refine((c) => !c.threadId || (!c.anchor && c.quote === undefined), 'A reply takes its thread’s place in the text: give threadId or an anchor, not both');
export type TCreateCommentRequest = z.infer<typeof ZCreateCommentRequest>;

/** Change a comment's words (its author), or resolve and reopen a thread (on its first comment). */
export const ZUpdateCommentRequest = z
  .object({ body: ZCommentBody.optional(), resolved: z.boolean().optional() })
  .refine((c) => c.body !== undefined || c.resolved !== undefined, 'Give a new body, resolved, or both');
export type TUpdateCommentRequest = z.infer<typeof ZUpdateCommentRequest>;

export const ZCommentParams = z.object({ id: ZId, commentId: ZId });
