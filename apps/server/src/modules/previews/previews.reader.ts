import { reader } from '../events/index.ts';
import { makeDuePreviews } from './previews.service.ts';

/**
 * Previews are made right after a file version's completion commits (its trigger queued them in
 * the same transaction), on every instance that hears it; they share the queue. The job catches
 * up on what was not heard, and on what was postponed.
 */
export const previewsReader = reader({
  name: 'previews.make',
  wakesOn: ['item.created', 'item.updated', 'item.restored'],
  settleMs: 300,
  run: (ctx, log) => makeDuePreviews({ ...ctx, log }, { budgetMs: 60_000 }),
  catchUpEvery: 60_000,
  catchUp: (ctx, log) => makeDuePreviews({ ...ctx, log }, { budgetMs: 50_000 }),
});
