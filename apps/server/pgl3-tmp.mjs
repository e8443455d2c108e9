import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const mode = process.argv[2];
let wasmModule;
if (mode === 'shared') {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const c0 = cpu();
  wasmModule = await WebAssembly.compile(readFileSync(path.join(dir, 'pglite.wasm')));
  console.log('compile cpu', (cpu() - c0).toFixed(0));
}
for (let i = 0; i < 4; i++) {
  const c0 = cpu(); const t = performance.now();
  const db = new PGlite({ extensions: { pg_trgm, btree_gin }, ...(wasmModule ? { wasmModule } : {}) });
  await db.waitReady;
  await db.exec('create extension if not exists pg_trgm; create extension if not exists btree_gin;');
  console.log(i, 'wall', (performance.now() - t).toFixed(0), 'cpu(main+bg)', (cpu() - c0).toFixed(0));
  await db.close();
}
