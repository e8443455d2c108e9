import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types as pgliteTypes, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * How every embedded database is opened: bigints as numbers, and the extensions search's indexes
 * use (ADR 0036), which PGlite loads only when asked here.
 */
export function pgliteOptions(extra: PGliteOptions = {}): PGliteOptions {
  return { parsers: { [pgliteTypes.INT8]: (v: string) => Number(v) }, extensions: { pg_trgm, btree_gin }, ...extra };
}

/**
 * An embedded database in `dir` (made when missing) or in memory, ready. A new one (no cluster in `dir` yet) starts as a
 * copy of an empty cluster kept in node_modules/.cache/cabinet (ADR 0074): 1–1.5 s of CPU, where initdb takes 4.5–6.
 * The first process that needs a new one makes the copy, from an initdb of its own; one that cannot write it goes on
 * with initdb each time.
 */
export async function newPGlite(dir?: string, extra: PGliteOptions = {}): Promise<PGlite> {
  const isNew = !dir || !existsSync(path.join(dir, 'PG_VERSION'));
  const empty = isNew && !extra.loadDataDir ? await emptyCluster() : undefined;
  const options = pgliteOptions(empty ? { ...extra, loadDataDir: empty } : extra);
  const pglite = dir ? new PGlite(dir, options) : new PGlite(options);
  await pglite.waitReady;
  return pglite;
}

/** Where the empty cluster is kept: named by PGlite's version, and by its content's hash, read back before it is used. */
const CACHE = fileURLToPath(new URL('../../../../node_modules/.cache/cabinet/', import.meta.url));
const PREFIX = 'pglite-empty-cluster-';

let empty: Promise<Blob | undefined> | undefined;

/** This process's copy of the empty cluster (a gzipped tar of its data folder), or none when it could not be had. */
function emptyCluster(): Promise<Blob | undefined> {
  return (empty ??= (async () => {
    // The package's own file (its exports do not name it), beside the entry it resolves to.
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const version = await readFile(path.join(path.dirname(entry), '../package.json'), 'utf8').then((t) => (JSON.parse(t) as { version: string }).version);
    const name = `${PREFIX}${version}-`;
    const kept = (await readdir(CACHE).catch(() => [] as string[])).filter((f) => f.startsWith(name) && f.endsWith('.tar.gz'));
    for (const file of kept) {
      const bytes = await readFile(path.join(CACHE, file)).catch(() => undefined);
      if (bytes && `${name}${sha256(bytes)}.tar.gz` === file) return new Blob([bytes]);
    }
    const made = await madeAnew().catch(() => undefined);
    if (!made) return undefined;
    // Kept for the next processes; where it cannot be written, this one still starts its next clusters from it.
    await keep(made, `${name}${sha256(made)}.tar.gz`).catch(() => {});
    return new Blob([made]);
  })().catch(() => undefined));
}

/** An empty cluster made by initdb in memory, as a gzipped tar of its data folder. */
async function madeAnew(): Promise<Buffer> {
  const made = new PGlite();
  try {
    await made.waitReady;
    return Buffer.from(await (await made.dumpDataDir('gzip')).arrayBuffer());
  } finally {
    await made.close().catch(() => {});
  }
}

/** Written under a temporary name and renamed, so it is never read half-written; other versions' copies, and damaged ones, go. */
async function keep(bytes: Buffer, name: string): Promise<void> {
  await mkdir(CACHE, { recursive: true });
  const file = path.join(CACHE, name);
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, file);
  for (const other of await readdir(CACHE)) {
    if (other.startsWith(PREFIX) && other !== name && !other.endsWith('.tmp')) await rm(path.join(CACHE, other), { force: true });
  }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
