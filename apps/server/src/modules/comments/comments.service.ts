import type { TCommentThread, TCreateCommentRequest, TUpdateCommentRequest } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import type { TActivityAction } from '@cabinet/contracts';
import { findRecordedMentions, record } from '../events/index.ts';
import { requireDocument, type ItemAccess } from '../items/index.ts';
import { deleteComment, findComment, findComments, insertComment, setThreadResolved, updateCommentBody, type CommentRow } from './comments.repo.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

function threads(rows: CommentRow[]): TCommentThread[] {
  const byThread = new Map<string, TCommentThread>();
  for (const r of rows) {
    let thread = byThread.get(r.thread_id);
    if (!thread) {
      // Rows come thread by thread, first comment first: it holds the thread's anchor and state.
      thread = {
        id: r.thread_id,
        itemId: r.item_id,
        anchor: r.anchor,
        quote: r.quote,
        resolvedAt: r.resolved_at ? iso(r.resolved_at) : null,
        resolvedBy: r.resolved_by ? { id: r.resolved_by, name: r.resolved_by_name ?? '' } : null,
        comments: [],
      };
      byThread.set(r.thread_id, thread);
    }
    thread.comments.push({
      id: r.id,
      threadId: r.thread_id,
      author: r.author_id ? { id: r.author_id, name: r.author_name ?? '' } : null,
      body: r.body,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.updated_at),
    });
  }
  return [...byThread.values()];
}

function announce(db: Db, actor: Actor, access: ItemAccess, action: TActivityAction, data: { threadId: string; commentId: string; mentioned?: string[] }) {
  return record(db, actor, { workspaceId: access.item.workspace_id, action, itemId: access.item.id, parentIds: [access.item.parent_id], data });
}

async function thread(db: Db, itemId: string, threadId: string): Promise<TCommentThread> {
  const [t] = threads(await findComments(db, itemId, threadId));
  if (!t) throw new AppError('not_found');
  return t;
}

export async function listThreads(db: Db, actor: Actor, id: string): Promise<TCommentThread[]> {
  const { item } = await requireDocument(db, actor, id, 'view');
  return threads(await findComments(db, item.id));
}

/** A new thread on the document, or a reply to one of its threads. Answers the whole thread. */
export async function addComment(db: Db, actor: Actor, id: string, input: TCreateCommentRequest): Promise<TCommentThread> {
  return inTransaction(db, async (tx) => {
    const access = await requireDocument(tx, actor, id, 'comment');
    if (input.threadId) {
      const root = await findComment(tx, access.item.id, input.threadId);
      if (!root || root.thread_id !== root.id) throw new AppError('not_found', 'No such thread on this document.');
    }
    const { threadId, commentId } = await insertComment(tx, {
      itemId: access.item.id,
      threadId: input.threadId,
      anchor: input.anchor,
      quote: input.quote,
      authorId: actor.user.id,
      body: input.body,
    });
    // Answering a resolved thread opens it again.
    if (input.threadId) await setThreadResolved(tx, threadId, null);
    // Whom it mentions is kept in the record, where notifications read it (ADR 0034); naming oneself tells no one.
    const mentioned = [...new Set(input.mentions ?? [])].filter((m) => m !== actor.user.id);
    await announce(tx, actor, access, 'comment.added', { threadId, commentId, ...(mentioned.length ? { mentioned } : {}) });
    return thread(tx, access.item.id, threadId);
  });
}

/** New words (the comment's author only), or a thread resolved or reopened (anyone who may comment). */
export async function updateComment(db: Db, actor: Actor, id: string, commentId: string, change: TUpdateCommentRequest): Promise<TCommentThread> {
  return inTransaction(db, async (tx) => {
    const access = await requireDocument(tx, actor, id, 'comment');
    const comment = await findComment(tx, access.item.id, commentId);
    if (!comment) throw new AppError('not_found');
    if (change.body !== undefined) {
      if (comment.author_id !== actor.user.id) throw new AppError('forbidden', 'Only its author can change a comment.');
      await updateCommentBody(tx, comment.id, change.body);
      // Only whom the comment did not mention before is told (ADR 0034): the record keeps whom it did.
      const before = change.mentions?.length ? await findRecordedMentions(tx, access.item.id, comment.id) : new Set<string>();
      const mentioned = [...new Set(change.mentions ?? [])].filter((m) => m !== actor.user.id && !before.has(m));
      await announce(tx, actor, access, 'comment.edited', { threadId: comment.thread_id, commentId: comment.id, ...(mentioned.length ? { mentioned } : {}) });
    }
    if (change.resolved !== undefined) {
      if (comment.thread_id !== comment.id)
        throw new AppError('invalid_input', 'Resolve a thread on its first comment.', { fields: [{ path: 'body.resolved', message: 'applies to a thread' }] });
      await setThreadResolved(tx, comment.id, change.resolved ? actor.user.id : null);
      await announce(tx, actor, access, change.resolved ? 'comment.resolved' : 'comment.reopened', { threadId: comment.thread_id, commentId: comment.id });
    }
    return thread(tx, access.item.id, comment.thread_id);
  });
}

/** A comment goes (its author, or whoever may delete anyone's comments there); the first comment takes its thread with it. */
export async function removeComment(db: Db, actor: Actor, id: string, commentId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    const access = await requireDocument(tx, actor, id, 'comment');
    const comment = await findComment(tx, access.item.id, commentId);
    if (!comment) throw new AppError('not_found');
    if (comment.author_id !== actor.user.id && !access.abilities.deleteAnyComment)
      throw new AppError('forbidden', 'Only its author or a manager can delete a comment.');
    await deleteComment(tx, comment.id);
    await announce(tx, actor, access, 'comment.deleted', { threadId: comment.thread_id, commentId: comment.id });
  });
}
