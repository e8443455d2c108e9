import { activityApi, searchApi } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { collabTestApp } from '../../testing/collab-client.ts';
import type { Person } from '../../testing/given.ts';
import { countTasks, indexPending, relanguage } from './index.ts';

const app = collabTestApp();

/** Everything queued for search is done, here or by the server's own indexer. */
async function settled() {
  for (;;) {
    await indexPending({ db: app.t.ctx.db, storage: app.t.ctx.storage, extractors: app.t.ctx.extractors });
    if ((await countTasks(app.t.ctx.db)) === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const names = async (p: Person, q: string, ws = p.workspace.id) => {
  const res = await p.call(searchApi.search, { params: { ws }, query: { q } });
  expect(res.status, JSON.stringify(res.error)).toBe(200);
  return res.body.results.filter((r) => r.matchedIn !== 'similar').map((r) => r.item.name);
};

describe('search settings', () => {
  it('sets the language texts are stemmed in: owners and admins change it, texts indexed before are read again, names match as before', async () => {
    const ada = await app.g.person('Ada');
    const bo = await app.g.person('Bo');
    await app.g.membership(bo, ada.workspace.id, 'member');
    const ws = ada.workspace.id;
    const change = (p: Person, language: string) => p.call(searchApi.updateSettings, { params: { ws }, body: { language } });
    expect((await bo.call(searchApi.settings, { params: { ws } })).body).toEqual({
      language: 'english',
      languages: expect.arrayContaining(['english', 'german', 'simple']),
      updating: false,
    });

    const upload = await app.g.upload(ada, ada.workspace.rootId, 'Stadtplan.txt', new TextEncoder().encode('Die alten Häuser am Fluss'));
    expect(upload.status).toBe(200);
    await settled();
    // In English "Häuser" is a word of its own: "haus" does not find it.
    expect(await names(ada, 'haus')).toEqual([]);

    // A member may not change it; a language that does not exist is refused.
    expect(await change(bo, 'german')).toFail('forbidden');
    expect((await change(ada, 'klingon')).status).toBe(400);

    const changed = await change(ada, 'german');
    expect(changed.status, JSON.stringify(changed.error)).toBe(200);
    expect(changed.body).toMatchObject({ language: 'german' });
    // The same again changes nothing.
    expect((await change(ada, 'german')).body).toMatchObject({ language: 'german' });
    // The change itself starts reading texts again; the job carries on with what is left (here, nothing). A pass the
    // change began may still hold the work's lock when the job's pass is asked for, which then leaves it to that one.
    await expect
      .poll(
        async () => {
          await relanguage(app.t.ctx.db, 60_000);
          return (await bo.call(searchApi.settings, { params: { ws } })).body;
        },
        { timeout: 15_000 },
      )
      .toMatchObject({ language: 'german', updating: false });
    // In German, "Häuser" is a form of "Haus"; the name is found by its words as before.
    expect(await names(ada, 'haus')).toEqual(['Stadtplan.txt']);
    expect(await names(bo, 'stadtplan', ada.workspace.id)).toEqual(['Stadtplan.txt']);
    // A text indexed after the change is stemmed in German too.
    await app.g.upload(ada, ada.workspace.rootId, 'Garten.txt', new TextEncoder().encode('Zwei Gärten hinter dem Hof'));
    await settled();
    expect(await names(ada, 'garten')).toEqual(['Garten.txt']);

    // The change is in the audit log.
    const log = await ada.call(activityApi.workspace, { params: { ws }, query: { action: 'search.language_changed' } });
    expect(log.status, JSON.stringify(log.error)).toBe(200);
    expect(log.body.items).toEqual([expect.objectContaining({ action: 'search.language_changed', data: { language: 'german', previous: 'english' } })]);
  });
});
