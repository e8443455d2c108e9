// `npm run bench [-- <name>]`: runs the benchmarks (TypeScript, through tsx), each printing
// `bench: <name> value=… baseline=… ratio=…` against a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const here = path.dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${all.join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length ? wanted : all) {
  const mod = await import(path.join(here, `${name}.bench.ts`));
  await mod.default();
}
process.exit(0);
