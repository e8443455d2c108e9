import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, namedModules, rewriteAddresses } from '../build.mjs';

const src = path.resolve(import.meta.dirname);

describe("the server's build (ADR 0073)", () => {
  it('finds every module a worker runs, each under a name of its own', () => {
    const named = namedModules();
    const byName = new Map([...named].map(([file, name]) => [name, path.relative(src, file)]));
    expect(Object.fromEntries(byName)).toMatchObject({
      worker: 'infra/workers/worker.mjs',
      'document-import': 'modules/documents/document-import.ts',
      'document-export': 'modules/documents/document-export.ts',
      'preview-task': 'modules/previews/preview-task.ts',
      'extract-task': 'modules/search/extract/extract-task.ts',
      'restore-item-reader': 'modules/backups/restore-item-reader.ts',
      document: 'modules/conversions/convert/document.ts',
      sheets: 'modules/conversions/convert/sheets.ts',
    });
  });

  it("names a worker's module by its entry in dist/, and any other address by the source file's", () => {
    const file = path.join(src, 'modules/previews/previews.service.ts');
    const named = new Map([[path.join(src, 'modules/previews/preview-task.ts'), 'preview-task']]);
    const source = [
      "const TASK = new URL('./preview-task.ts', import.meta.url);",
      "const dir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));",
      'const here = path.dirname(fileURLToPath(import.meta.url));',
    ].join('\n');
    const fromDist = JSON.stringify(path.relative(DIST, file));
    expect(rewriteAddresses(source, file, named).split('\n')).toEqual([
      "const TASK = new URL('./preview-task.mjs', import.meta.url);",
      `const dir = path.dirname(createRequire(new URL(${fromDist}, import.meta.url).href).resolve('pdfjs-dist/package.json'));`,
      `const here = path.dirname(fileURLToPath(new URL(${fromDist}, import.meta.url).href));`,
    ]);
    expect(fromDist).toBe('"../src/modules/previews/previews.service.ts"');
  });

  it('refuses a module named for a worker that the scan did not find', () => {
    const file = path.join(src, 'modules/previews/previews.service.ts');
    expect(() => rewriteAddresses("new URL('./elsewhere.ts', import.meta.url)", file, new Map())).toThrow(/names \.\/elsewhere\.ts/);
  });
});
