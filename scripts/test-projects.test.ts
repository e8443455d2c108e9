import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { BOTH_DATABASES, LONGEST_FIRST, ONE_DATABASE, testProjects } from '../vitest.config.ts';

const root = path.resolve(import.meta.dirname, '..');
const everyTestFile = globSync(['**/*.test.ts', '**/*.spec.ts'], { cwd: root, ignore: ['**/node_modules/**', '**/dist/**'] });

/** The files each Vitest project runs with every service at hand, matched as Vitest matches them. */
function filesByProject() {
  return testProjects({ postgres: true, redis: true }).map(({ test }) => ({
    name: test.name,
    files: globSync(test.include, { cwd: root, ignore: 'exclude' in test ? test.exclude : [] }),
  }));
}

describe('every test runs somewhere', () => {
  it('puts each Vitest file in a project, and each Playwright spec under the end-to-end tests', () => {
    const projects = filesByProject();
    const inVitest = new Set(projects.flatMap((p) => p.files));
    const playwrightDir = /testDir: '\.\/(\w+)'/.exec(readFileSync(path.join(root, 'e2e/playwright.config.ts'), 'utf8'))?.[1];
    expect(playwrightDir).toBe('tests');
    const orphans = everyTestFile.filter((f) => (f.endsWith('.spec.ts') ? !f.startsWith('e2e/tests/') : !inVitest.has(f)));
    expect(orphans).toEqual([]);
  });

  it('runs integration and system files on PGlite, and those named in BOTH_DATABASES on PostgreSQL too', () => {
    const projects = Object.fromEntries(filesByProject().map((p) => [p.name, new Set(p.files)]));
    const onPostgres = [...projects['integration:postgres']!, ...projects['system:postgres']!];
    for (const pattern of BOTH_DATABASES) {
      const matched = globSync([`${pattern}.int.test.ts`, `${pattern}.system.test.ts`], { cwd: root });
      expect(matched, `${pattern} names no test file`).not.toEqual([]);
      // A file named for the embedded database (*.pglite.*) runs on it alone, wherever it is.
      for (const file of matched) if (!file.includes('.pglite.')) expect(onPostgres).toContain(file);
    }
    const once = ONE_DATABASE.map((p) => `${p}.system.test.ts`);
    for (const file of everyTestFile.filter((f) => /\.(int|system)\.test\.ts$/.test(f))) {
      const pgOnly = file.includes('.pg.') || once.includes(file);
      const kind = file.endsWith('.int.test.ts') ? 'integration' : 'system';
      expect(projects[`${kind}:pglite`]!.has(file), file).toBe(!pgOnly);
      if (pgOnly) expect(projects[`${kind}:postgres`]!.has(file), file).toBe(true);
      if (file.includes('.pglite.')) expect(projects[`${kind}:postgres`]!.has(file), file).toBe(false);
    }
  });

  it('runs the files in ONE_DATABASE once: on PostgreSQL when there is one, else on PGlite', () => {
    const without = Object.fromEntries(
      testProjects({ postgres: false, redis: true }).map(({ test }) => [
        test.name,
        new Set(globSync(test.include, { cwd: root, ignore: 'exclude' in test ? test.exclude : [] })),
      ]),
    );
    for (const pattern of ONE_DATABASE) {
      const file = `${pattern}.system.test.ts`;
      expect(everyTestFile).toContain(file);
      expect(without['system:pglite']!.has(file), file).toBe(true);
    }
  });

  it('names in LONGEST_FIRST only system files that exist', () => {
    const system = everyTestFile.filter((f) => f.endsWith('.system.test.ts'));
    for (const name of LONGEST_FIRST)
      expect(
        system.filter((f) => f.includes(`/src/${name}.`)),
        name,
      ).not.toEqual([]);
  });
});
