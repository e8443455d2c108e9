import type { TSearchSettings, TUpdateSearchSettings } from '@cabinet/contracts';
import { inTransaction, type Db } from '../../db/client.ts';
import { AppError, invalidInput } from '../../errors.ts';
import type { Actor } from '../../infra/http/actor.ts';
import { record } from '../events/index.ts';
import { getWorkspace, mergeSettings, requireWorkspace } from '../workspaces/index.ts';
import { findSearchSettings, findTextConfigs, RELANGUAGE_KEY, RELANGUAGE_START, relanguageBatch } from './search-settings.repo.ts';

/** Entries read again in one statement: at most this many, and about this much text (a few seconds of stemming). */
const RELANGUAGE_BATCH = { size: 2000, bytes: 4 * 1024 * 1024 };

export async function getSearchSettings(db: Db, actor: Actor, ws: string): Promise<TSearchSettings> {
  const workspace = await getWorkspace(db, actor.user, ws);
  const s = await findSearchSettings(db, workspace.id);
  if (!s) throw new AppError('not_found', 'This workspace does not exist.');
  return { ...s, languages: await findTextConfigs(db) };
}

/**
 * Sets the language of the workspace's texts (those who change its settings: owners and admins). Searches use it at once; texts
 * indexed before are read again in it in the background (`relanguage`), a batch at a time, while
 * search goes on. Names match as written in every language, so they are found throughout.
 */
export async function updateSearchSettings(db: Db, actor: Actor, ws: string, input: TUpdateSearchSettings): Promise<TSearchSettings> {
  return inTransaction(db, async (tx) => {
    const workspace = await requireWorkspace(tx, actor.user, ws, 'changeSettings');
    const before = await findSearchSettings(tx, workspace.id);
    if (!before) throw new AppError('not_found', 'This workspace does not exist.');
    const languages = await findTextConfigs(tx);
    if (!languages.includes(input.language)) {
      throw invalidInput([{ path: 'body.language', message: 'this database cannot stem words in that language; choose another' }]);
    }
    if (before.language === input.language) return { language: input.language, languages, updating: before.updating };
    await mergeSettings(tx, workspace.id, { searchLanguage: input.language, [RELANGUAGE_KEY]: RELANGUAGE_START });
    await record(tx, actor, {
      workspaceId: workspace.id,
      action: 'search.language_changed',
      itemId: null,
      data: { language: input.language, previous: before.language },
    });
    return { language: input.language, languages, updating: true };
  });
}

/** Reads texts again in their workspace's new language until none wait or `budgetMs` has passed; how many batches it did. */
export async function relanguage(db: Db, budgetMs: number): Promise<number> {
  const until = Date.now() + budgetMs;
  let batches = 0;
  while (Date.now() < until && (await relanguageBatch(db, RELANGUAGE_BATCH))) batches++;
  return batches;
}
