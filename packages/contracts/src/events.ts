import { z } from 'zod';
import { ZId } from './common.ts';

/**
 * A change in a workspace, as `GET /workspaces/:ws/events` streams it (Server-Sent Events, one
 * `data:` line of JSON each). It names what changed and the folders whose listings it touches;
 * the browser fetches what it shows again. A person only hears of folders they can see.
 */
export const ZItemEvent = z.object({
  // comments.changed: a thread on the item was started, answered, edited, resolved, reopened or deleted.
  type: z.enum(['item.created', 'item.updated', 'item.trashed', 'item.restored', 'item.deleted', 'comments.changed']),
  itemId: ZId,
  /** The folders whose listings changed: the parent, and for a move the old parent too. */
  parentIds: z.array(ZId),
});
export type TItemEvent = z.infer<typeof ZItemEvent>;
