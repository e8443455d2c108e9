import { itemsApi } from '@cabinet/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let ada: Person;
beforeAll(async () => {
  t = await startTestApp();
  ada = await given(t.ctx, t.url).person();
});
afterAll(() => t.close());

const NAMES = ['a', 'b', 'c', 'A', 'B'];

/** Every active item reaches a root within 64 steps, its parent exists, and no two active siblings share a name. */
async function expectSoundTree(workspaceId: string) {
  const rows = await t.ctx.db.selectFrom('items').select(['id', 'parent_id', 'name', 'state']).where('workspace_id', '=', workspaceId).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const row of rows) {
    let at: typeof row | undefined = row;
    for (let steps = 0; at?.parent_id; steps++) {
      expect(steps, `cycle through ${row.id}`).toBeLessThan(65);
      at = byId.get(at.parent_id);
      expect(at, `orphan ${row.id}`).toBeDefined();
    }
  }
  const siblings = new Set<string>();
  for (const row of rows.filter((r) => r.state === 'active' && r.parent_id)) {
    const key = `${row.parent_id}/${row.name.toLowerCase()}`;
    expect(siblings.has(key), `two active siblings named ${row.name}`).toBe(false);
    siblings.add(key);
  }
}

it('never makes a cycle, an orphan or a duplicate name, whatever moves and renames race', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ item: fc.nat(7), target: fc.nat(8), rename: fc.option(fc.constantFrom(...NAMES), { nil: undefined }) }), {
        minLength: 4,
        maxLength: 16,
      }),
      async (ops) => {
        const top = (
          await ada.call(itemsApi.create, {
            params: { ws: ada.workspace.id },
            body: {
              kind: 'folder',
              name: `run-${Date.now()}-${Math.random()}`,
              parentId: ada.workspace.rootId,
            },
          })
        ).body;
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) {
          const parent = i < 2 ? top.id : ids[i % 2]!;
          ids.push((await ada.call(itemsApi.create, { params: { ws: ada.workspace.id }, body: { kind: 'folder', name: `f${i}`, parentId: parent } })).body.id);
        }
        const targets = [...ids, top.id];
        // All at once, as several clients would.
        const results = await Promise.all(
          ops.map((op) => ada.raw('PATCH', `/items/${ids[op.item]}`, { parentId: targets[op.target], ...(op.rename ? { name: op.rename } : {}) })),
        );
        for (const r of results) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
        await expectSoundTree(ada.workspace.id);
      },
    ),
    { numRuns: 15 },
  );
});
