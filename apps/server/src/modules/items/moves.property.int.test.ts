import { itemsApi } from '@cabinet/contracts';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { type Person } from '../../testing/given.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp();
let ada: Person;
beforeAll(async () => {
  ada = await test.given.person();
});

const NAMES = ['a', 'b', 'c', 'A', 'B'];

/** Every active item reaches a root within 64 steps, its parent exists, and no two active siblings share a name. */
async function expectSoundTree(workspaceId: string) {
  const rows = await test.app.ctx.db.selectFrom('items').select(['id', 'parent_id', 'name', 'state']).where('workspace_id', '=', workspaceId).execute();
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
        const top = await test.given.folder(ada, ada.workspace.rootId, `run-${Date.now()}-${Math.random()}`);
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) {
          const parent = i < 2 ? top.id : ids[i % 2]!;
          ids.push((await test.given.folder(ada, parent, `f${i}`)).id);
        }
        const targets = [...ids, top.id];
        // All at once, as several clients would.
        const results = await Promise.all(
          // Indexes within the eight folders and their nine targets.
          ops.map((op) => ada.call(itemsApi.update, { params: { id: ids[op.item]! }, body: { parentId: targets[op.target]!, name: op.rename } })),
        );
        for (const r of results) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
        await expectSoundTree(ada.workspace.id);
      },
    ),
    { numRuns: 15 },
  );
  // Fifteen races of up to sixteen moves each: a minute on a busy machine.
}, 180_000);
