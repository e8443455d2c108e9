import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const ext = { extensions: { pg_trgm, btree_gin } };
const t0 = new PGlite(ext); await t0.waitReady;
await t0.exec('create extension if not exists pg_trgm; create extension if not exists btree_gin; create table x(a int);');
const blob = await t0.dumpDataDir(process.argv[2] || 'gzip'); await t0.close();
console.log('blob', blob.size);
for (let i = 0; i < 4; i++) {
  const c0 = cpu(); const t = performance.now();
  const db = new PGlite({ ...ext, loadDataDir: blob });
  await db.waitReady;
  await db.query('select 1');
  console.log(i, 'wall', (performance.now() - t).toFixed(0), 'cpu', (cpu() - c0).toFixed(0));
  const c1 = cpu();
  await db.close();
  console.log('  close cpu', (cpu() - c1).toFixed(0));
}
