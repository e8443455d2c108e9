import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as { forbidden: unknown[]; options: Record<string, unknown> };
const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-boundaries-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Cruises a made-up tree (path → source) with the project's rules; answers the rules broken, by name. */
async function broken(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(path.join(root, 'tree-'));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const { tsConfig: _ts, ...options } = config.options;
    const result = await cruise(
      ['apps', 'packages'].filter((p) => Object.keys(files).some((f) => f.startsWith(p))),
      {
        ...options,
        validate: true,
        ruleSet: { forbidden: config.forbidden } as never,
      },
    );
    const output = result.output as ICruiseResult;
    return [...new Set([...output.summary.violations.map((v) => v.rule.name)])].sort();
  } finally {
    process.chdir(cwd);
  }
}

describe('the boundaries the code keeps (dependency-cruiser)', () => {
  it('lets a module use what another module’s index offers', async () => {
    expect(
      await broken({
        'apps/server/src/modules/items/items.service.ts': "import { f } from '../files/index.ts';\nexport const g = f;",
        'apps/server/src/modules/files/index.ts': "export { f } from './files.service.ts';",
        'apps/server/src/modules/files/files.service.ts': "import { q } from './files.repo.ts';\nexport const f = q;",
        'apps/server/src/modules/files/files.repo.ts': 'export const q = 1;',
        'apps/server/src/jobs.ts': "import { f } from './modules/files/index.ts';\nexport const j = f;",
      }),
    ).toEqual([]);
  });

  it('fails a module, or the server around them, reaching past another module’s index', async () => {
    expect(
      await broken({
        'apps/server/src/modules/items/items.service.ts': "import { q } from '../files/files.repo.ts';\nexport const g = q;",
        'apps/server/src/modules/files/files.repo.ts': 'export const q = 1;',
      }),
    ).toEqual(['modules-through-index']);
    expect(
      await broken({
        'apps/server/src/collab/persistence.ts': "import { f } from '../modules/files/files.service.ts';\nexport const p = f;",
        'apps/server/src/modules/files/files.service.ts': 'export const f = 1;',
      }),
    ).toEqual(['modules-through-index']);
  });

  it('reports two modules depending on each other, however far round', async () => {
    expect(
      await broken({
        'apps/server/src/modules/items/items.service.ts': "import { f } from '../files/index.ts';\nexport const g = f;",
        'apps/server/src/modules/files/index.ts': "import { h } from '../events/index.ts';\nexport const f = h;",
        'apps/server/src/modules/events/index.ts': "import { k } from '../items/index.ts';\nexport const h = k;",
        'apps/server/src/modules/items/index.ts': 'export const k = 1;',
      }),
    ).toEqual(['no-feature-cycles']);
  });

  it('fails a cycle between files, and foundations or packages reaching up', async () => {
    expect(
      await broken({
        'apps/server/src/lib/a.ts': "import { b } from './b.ts';\nimport { s } from '../modules/items/index.ts';\nexport const a = b + s;",
        'apps/server/src/lib/b.ts': "import { a } from './a.ts';\nexport const b = () => a;",
        'apps/server/src/modules/items/index.ts': 'export const s = 1;',
        'packages/contracts/src/index.ts': "import { a } from '../../../apps/server/src/lib/a.ts';\nexport const c = a;",
      }),
    ).toEqual(['foundations-below-features', 'no-cycles', 'packages-below-apps']);
  });

  it('fails the browser app’s shared pieces reaching into a feature', async () => {
    expect(
      await broken({
        'apps/web/src/lib/changes.ts': "import { k } from '../features/items/api/use-items.ts';\nexport const c = k;",
        'apps/web/src/features/items/api/use-items.ts': 'export const k = 1;',
      }),
    ).toEqual(['web-shared-below-features']);
  });
});
