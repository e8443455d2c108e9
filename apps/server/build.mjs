// The server's build: its TypeScript (and the provider's, and the shared packages') bundled by esbuild into plain
// JavaScript modules in dist/, which `cabinet` runs (bin/cabinet.mjs). Dependencies stay in node_modules, loaded as
// they are. Every file lands in dist/ itself (no folders), so a module's own address says where each other one is:
// - `new URL('./task.ts', import.meta.url)`, how a module names the file a worker thread runs, becomes the address of
//   that file's own entry in dist/ (each such file is an entry point, found before the build);
// - any other `import.meta.url` becomes the address of the source file it was written in (a migration folder, the
//   browser app's build, a package resolved from there), reached from dist/ by a path relative to it.
// ADR 0073.
// `cabinet` (bin/cabinet.mjs) builds dist/ first whenever a source changed since (`ensureBuilt`); `npm run build`
// builds it always. Each file is written whole under another name and then renamed into place, so processes building
// at once, or one starting while another builds, never read half a file.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.join(here, 'dist');
/** The file the build writes last: the sources it read (each with its time of change as the build began) and the files it wrote. */
const BUILT = path.join(DIST, 'built.json');
/** How long a file of an earlier build is kept, for a server started from it that has yet to load it (a chunk loaded on first use). */
const KEPT_MS = 24 * 60 * 60 * 1000;
const ROOT = path.resolve(here, '../..');
/** The sources bundled: the server's, the provider's and the shared packages'; everything else is a dependency. */
const OWN = ['apps/server/src', 'apps/idp/src', 'packages/contracts/src', 'packages/doc-schema/src'].map((p) => path.join(ROOT, p));
const isOwn = (file) => OWN.some((dir) => file.startsWith(dir + path.sep));

/** `new URL('./file.ts', import.meta.url)`: a module named by its address, for a worker thread to load. */
const NAMED = /new URL\(\s*'(\.{1,2}\/[^']+\.(?:ts|mjs))'\s*,\s*import\.meta\.url\s*\)/g;

function ownFiles(dir, found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) ownFiles(file, found);
    else if (/\.(ts|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !file.includes(`${path.sep}testing${path.sep}`)) found.push(file);
  }
  return found;
}

/** Every own source file a bundle may take (tests and test helpers aside). */
const ownSources = () => OWN.flatMap((dir) => ownFiles(dir));

/** This script, which the build's record counts among its sources. */
const SELF = fileURLToPath(import.meta.url);

/** The name of a module's entry in dist/: its file's, without the extension. */
const entryName = (file) => path.basename(file).replace(/\.(ts|mjs)$/, '');

/**
 * The entry in dist/ of a module a worker runs, named by its source (`href`, a TypeScript file's address, as the tests,
 * which run the sources, name it), made first when a source changed since the build began.
 */
export async function builtModule(href) {
  await ensureBuilt();
  const entry = `${entryName(fileURLToPath(href))}.mjs`;
  if (!readBuilt()?.outputs.includes(entry))
    throw new Error(`${href} is no module the build makes for workers: a source names one as new URL('./file.ts', import.meta.url)`);
  return pathToFileURL(path.join(DIST, entry)).href;
}

/** Every file a module names by its address, by its path, with the name of its entry in dist/ (its own, unique). */
export function namedModules(files = ownSources()) {
  const named = new Map();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(NAMED)) {
      const target = path.resolve(path.dirname(file), match[1]);
      named.set(target, entryName(target));
    }
  }
  const names = [...named.values()];
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`two modules run by workers are both named ${twice}: rename one (dist/ has no folders)`);
  return named;
}

/** Rewrites each own source's addresses as the comment above says. */
const addresses = (named) => ({
  name: 'addresses',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => {
      if (!isOwn(args.path)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      // The forms the rewrite does not know would keep the address of dist/ where the source's is meant.
      const unknown = /import\.meta\.(dirname|filename|resolve)|new URL\(\s*`[^`]*`\s*,\s*import\.meta\.url/.exec(source);
      if (unknown) throw new Error(`${args.path} uses ${unknown[0]}: name a file by new URL('./file', import.meta.url) (build.mjs)`);
      if (!source.includes('import.meta.url')) return undefined;
      return { contents: rewriteAddresses(source, args.path, named), loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
});

/**
 * `source` (the file `file`) as dist/ runs it: the modules it names for workers by their entries' addresses in dist/
 * (`named`: each named file's path to its entry's name), every other `import.meta.url` by the source file's own.
 */
export function rewriteAddresses(source, file, named) {
  return source
    .replace(NAMED, (_, relative) => {
      const entry = named.get(path.resolve(path.dirname(file), relative));
      if (!entry) throw new Error(`${file} names ${relative}, which the build did not find`);
      return `new URL('./${entry}.mjs', ${DIST_ADDRESS})`;
    })
    .replaceAll('import.meta.url', sourceAddress(file))
    .replaceAll(DIST_ADDRESS, 'import.meta.url');
}

/** Stands for a dist/ module's own address while the others are rewritten. */
const DIST_ADDRESS = '__cabinet_dist_address__';

/** The address of a source file, as dist/'s modules reach it. */
const sourceAddress = (file) => `new URL(${JSON.stringify(path.relative(DIST, file).split(path.sep).join('/'))}, import.meta.url).href`;

export async function buildServer() {
  // Each source's time of change as the build begins: a source changed while it builds makes the build stale at once.
  const sources = ownSources();
  const changed = Object.fromEntries([SELF, ...sources].map((f) => [path.relative(ROOT, f), mtimeOf(f)]));
  const named = namedModules(sources);
  // Loaded only to build: a process whose build is up to date runs without it.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [{ in: path.join(here, 'src/cli/index.ts'), out: 'cabinet' }, ...[...named].map(([file, name]) => ({ in: file, out: name }))],
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [{ name: 'dependencies', setup: external }, addresses(named)],
  });
  mkdirSync(DIST, { recursive: true });
  // Chunks before the entries that import them, and the record of sources last: it says the build is whole.
  const entries = new Set(['cabinet', ...named.values()].map((n) => path.join(DIST, `${n}.mjs`)));
  const files = [...result.outputFiles].sort((a, b) => Number(entries.has(a.path)) - Number(entries.has(b.path)));
  for (const file of files) writeWhole(file.path, file.contents);
  const used = new Set([path.relative(ROOT, SELF), ...Object.keys(result.metafile.inputs)]);
  const inputs = Object.fromEntries(Object.entries(changed).filter(([file]) => used.has(file)));
  const outputs = files.map((f) => path.basename(f.path));
  const before = readBuilt()?.outputs ?? [];
  writeWhole(BUILT, JSON.stringify({ inputs, outputs }));
  // This build's files and the last one's stay, and any written within a day (a server started from an earlier build
  // may still load a chunk of it); older ones go, and the scraps of builds that were stopped.
  const kept = new Set([...outputs, ...before, path.basename(BUILT)]);
  for (const name of readdirSync(DIST)) {
    const file = path.join(DIST, name);
    if (!kept.has(name) && Date.now() - mtimeOf(file) > KEPT_MS) rmSync(file, { force: true });
  }
}

/** A file's time of change, or 0 when it is gone. */
const mtimeOf = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** What the last build recorded: the sources it read and the files it wrote. */
function readBuilt() {
  try {
    return JSON.parse(readFileSync(BUILT, 'utf8'));
  } catch {
    return undefined;
  }
}

function writeWhole(file, contents) {
  // Named by process, thread and chance: workers of one process may build at once.
  const temporary = `${file}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** Marks every import that is not one of the workspace's own sources as external. */
function external(build) {
  build.onResolve({ filter: /^[^./]/ }, (args) => {
    if (args.path.startsWith('@cabinet/')) return undefined;
    return { path: args.path, external: true };
  });
}

/**
 * Whether dist/ is missing, or one of the sources it was made from (or this script) changed since the build began: its
 * time of change is not the one recorded (newer, or older as a copy that keeps times may make it), or it is gone.
 */
export function isStale() {
  const inputs = readBuilt()?.inputs;
  if (!inputs || Array.isArray(inputs)) return true;
  return Object.entries(inputs).some(([file, time]) => mtimeOf(path.join(ROOT, file)) !== time);
}

/**
 * Builds dist/ when it is stale. Where it cannot be written (an installation read-only to the user it runs as) and a
 * build is there, that build runs, with a warning saying how to make it again.
 */
export async function ensureBuilt() {
  if (!isStale()) return;
  try {
    await buildServer();
  } catch (error) {
    if (!readBuilt()) throw error;
    const why = error instanceof Error ? error.message : String(error);
    process.emitWarning(`The server's build in ${DIST} is older than its sources and could not be made again (${why}): it runs as it is.`);
    process.emitWarning("Run `npm run build` as the installation's owner.");
  }
}

/** Whether this file is the script node was asked to run (`node build.mjs`, `npm run build`), through any link. */
function invokedAsScript() {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === SELF;
  } catch {
    return false;
  }
}

if (invokedAsScript()) await buildServer();
