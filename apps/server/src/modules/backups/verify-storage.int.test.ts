import { describe, expect, it } from 'vitest';
import { freePort, useTestApp } from '../../testing/test-app.ts';
import { storageDrivers, storageSettings } from '../../testing/test-s3.ts';
import { startRun } from './backups.repo.ts';
import { verifyStorage } from './verify-storage.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe.each(storageDrivers())('checking storage against the database on %s', (_name, driver) => {
  const test = useTestApp(async () => {
    const port = await freePort();
    return { ...(await storageSettings(driver, port)), PORT: String(port) };
  });

  it("finds every file's bytes whole, then the ones missing, damaged and named by nothing; removes only old ones named by nothing", async () => {
    const ada = await test.given.person('Ada');
    const ids: string[] = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      ids.push((await test.given.upload(ada, ada.workspace.rootId, name, bytes(`${name} of ${Date.now()}`))).body.item.id);
    const { ctx } = test.app;
    const clean = await verifyStorage(ctx);
    expect(clean).toMatchObject({ missing: [], corrupt: [], orphaned: [], removed: 0 });
    expect(clean.checked).toBeGreaterThanOrEqual(3);

    const keyOf = async (id: string) =>
      (await ctx.db.selectFrom('file_versions').select('blob_key').where('item_id', '=', id).executeTakeFirstOrThrow()).blob_key;
    const [gone, damaged] = [await keyOf(ids[0]!), await keyOf(ids[1]!)];
    await ctx.storage.delete(gone);
    // The same size, other bytes.
    const size = (await ctx.storage.stat(damaged))!.size;
    await ctx.storage.put(damaged, bytes('x'.repeat(size)), 'text/plain');
    await ctx.storage.put('strays/left-behind', bytes('nobody names me'), 'application/octet-stream');
    const found = await verifyStorage(ctx);
    expect(found.missing).toEqual([gone]);
    expect(found.corrupt).toEqual([{ key: damaged, why: 'its SHA-256 is not the one recorded' }]);
    expect(found.orphaned.map((o) => [o.key, o.size])).toEqual([['strays/left-behind', 15]]);

    // Repair leaves what is under a day old (an upload completing now names its object a moment later)…
    expect((await verifyStorage(ctx, { repair: true })).removed).toBe(0);
    expect(await ctx.storage.stat('strays/left-behind')).not.toBeNull();
    // …and removes what is older; nothing else changes.
    expect((await verifyStorage(ctx, { repair: true, orphanAgeMs: 0 })).removed).toBe(1);
    expect(await ctx.storage.stat('strays/left-behind')).toBeNull();
    expect(await verifyStorage(ctx)).toMatchObject({ missing: [gone], orphaned: [] });
    // Not while a backup runs: bytes no version names any more may still be its to copy.
    const run = await startRun(ctx.db, { trigger: 'command', location: '/nowhere', name: 'running' });
    try {
      await expect(verifyStorage(ctx, { repair: true })).rejects.toThrow(/A backup is running/);
    } finally {
      await ctx.db.updateTable('backups').set({ state: 'done' }).where('id', '=', run!).execute();
    }
  });
});
