import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newPGlite } from './pglite.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('a new embedded database (ADR 0074)', () => {
  it('starts in a new folder from the empty cluster kept, and a folder holding one is opened as it is', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cabinet-pglite-'));
    dirs.push(dir);
    const first = await newPGlite(path.join(dir, 'db'));
    await first.exec("CREATE TABLE kept (name text); INSERT INTO kept VALUES ('still here')");
    expect((await first.query<{ extname: string }>('SELECT extname FROM pg_extension')).rows.map((r) => r.extname)).toEqual(['plpgsql']);
    await first.close();

    const cache = path.resolve('node_modules/.cache/cabinet');
    const kept = readdirSync(cache).filter((f) => f.startsWith('pglite-empty-cluster-') && f.endsWith('.tar.gz'));
    expect(kept.length).toBeGreaterThan(0);
    for (const file of kept) {
      const hash = createHash('sha256')
        .update(readFileSync(path.join(cache, file)))
        .digest('hex')
        .slice(0, 16);
      expect(file).toMatch(new RegExp(`-${hash}\\.tar\\.gz$`));
    }

    const again = await newPGlite(path.join(dir, 'db'));
    expect((await again.query<{ name: string }>('SELECT name FROM kept')).rows).toEqual([{ name: 'still here' }]);
    await again.close();
  });

  it('in memory, each is a cluster of its own', async () => {
    const [a, b] = await Promise.all([newPGlite(), newPGlite()]);
    await a.exec('CREATE TABLE only_in_a (n int)');
    await expect(b.query('SELECT * FROM only_in_a')).rejects.toThrow(/does not exist/);
    expect((await b.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    await Promise.all([a.close(), b.close()]);
  });
});
