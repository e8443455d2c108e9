import { uuidv7 } from '@cabinet/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Q = Kysely<Database>;

export interface CommentRow {
  id: string;
  item_id: string;
  thread_id: string;
  anchor: { start: Record<string, unknown>; end: Record<string, unknown> } | null;
  quote: string | null;
  author_id: string | null;
  author_name: string | null;
  body: string;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
  resolved_by_name: string | null;
}

const personName = (u: string) => sql.raw(`COALESCE(NULLIF(${u}.name, ''), ${u}.email)`);

/** An item's comments with their authors' names, thread by thread, each thread in order. */
export async function findComments(db: Q, itemId: string, threadId?: string): Promise<CommentRow[]> {
  const { rows } = await sql<CommentRow>`
    SELECT c.*, ${personName('a')} AS author_name, ${personName('r')} AS resolved_by_name
    FROM comments c
    LEFT JOIN users a ON a.id = c.author_id
    LEFT JOIN users r ON r.id = c.resolved_by
    WHERE c.item_id = ${itemId} ${threadId ? sql`AND c.thread_id = ${threadId}` : sql``}
    ORDER BY c.thread_id, c.created_at, c.id
  `.execute(db);
  return rows;
}

export async function findComment(db: Q, itemId: string, id: string) {
  return db.selectFrom('comments').selectAll().where('item_id', '=', itemId).where('id', '=', id).executeTakeFirst();
}

/** A thread's first comment (threadId omitted) or a reply. Answers the thread's id. */
export async function insertComment(
  db: Q,
  c: { itemId: string; threadId?: string; anchor?: unknown; quote?: string; authorId: string; body: string },
): Promise<{ threadId: string; commentId: string }> {
  const id = uuidv7();
  await db
    .insertInto('comments')
    .values({
      id,
      item_id: c.itemId,
      thread_id: c.threadId ?? id,
      anchor: c.anchor ? (JSON.stringify(c.anchor) as never) : null,
      quote: c.quote ?? null,
      author_id: c.authorId,
      body: c.body,
    })
    .execute();
  return { threadId: c.threadId ?? id, commentId: id };
}

export async function updateCommentBody(db: Q, id: string, body: string): Promise<void> {
  await db.updateTable('comments').set({ body, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function setThreadResolved(db: Q, threadId: string, by: string | null): Promise<void> {
  await db
    .updateTable('comments')
    .set({ resolved_at: by ? new Date() : null, resolved_by: by })
    .where('id', '=', threadId)
    .execute();
}

/** A reply, or a whole thread when `id` is its first comment. */
export async function deleteComment(db: Q, id: string): Promise<void> {
  await db
    .deleteFrom('comments')
    .where((eb) => eb.or([eb('id', '=', id), eb('thread_id', '=', id)]))
    .execute();
}

/** Who wrote in a thread before a comment of it (the people a reply answers), each once. */
export async function findThreadAuthorsBefore(db: Q, threadId: string, commentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('comments')
    .select('author_id')
    .distinct()
    .where('thread_id', '=', threadId)
    .where('id', '<', commentId)
    .where('author_id', 'is not', null)
    .execute();
  return rows.map((r) => r.author_id!);
}
