import { countTasks, indexPending, queueEverything } from '../modules/search/index.ts';
import { CommandFailed, type CommandScope } from './scope.ts';

/**
 * `cabinet search reindex [--workspace <slug>]`: every file's text read again and every access
 * list worked out again, with progress. Beside a running server the work is queued and done here
 * too: the server's indexer and this command share the queue, each task done once.
 */
export async function reindexSearchCommand({ context, io }: CommandScope, opts: { workspace?: string }): Promise<void> {
  const ctx = await context();
  let workspaceId: string | undefined;
  if (opts.workspace) {
    const w = await ctx.db.selectFrom('workspaces').select('id').where('slug', '=', opts.workspace).executeTakeFirst();
    if (!w) throw new CommandFailed(`No workspace has the address ${opts.workspace}.`);
    workspaceId = w.id;
  }
  const queued = await queueEverything(ctx.db, workspaceId);
  io.err(`Reindexing ${queued.toLocaleString('en')} roots, files and documents${opts.workspace ? ` of ${opts.workspace}` : ''}…\n`);
  let last = Date.now();
  const done = await indexPending(
    { db: ctx.db, storage: ctx.storage, extractors: ctx.extractors },
    {
      onProgress: (n) => {
        if (Date.now() - last < 1000) return;
        last = Date.now();
        void countTasks(ctx.db).then(
          (left) => io.err(`  ${n.toLocaleString('en')} done, ${left.toLocaleString('en')} left\n`),
          () => {},
        );
      },
    },
  );
  io.out(`Reindexed: ${done.toLocaleString('en')} tasks done.\n`);
}
