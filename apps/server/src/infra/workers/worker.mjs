// A worker thread of the pool: runs exported functions of the server's modules, one task at a time, always from the
// server's build (ADR 0073). A server run by `cabinet` names the build's modules; the tests, which run the server's
// sources, name its TypeScript files, for which the worker runs their entries in the build (made first if a source is
// newer), so that no worker loads TypeScript.
import { parentPort } from 'node:worker_threads';

// Errors' stacks name the sources' lines, as on the main thread (bin/cabinet.mjs).
process.setSourceMapsEnabled(true);

/** Each module's loading, once per worker (a task may come while a warm-up still loads it). */
const modules = new Map();
const load = (module) => {
  if (!modules.has(module))
    modules.set(
      module,
      built(module).then((href) => import(href)),
    );
  return modules.get(module);
};

/** The server's build script, beside its sources (not a module a worker runs: named apart from `new URL`). */
const BUILD = '../../../build.mjs';

/** The build's module for `module`: itself, or a source's entry in the build. */
async function built(module) {
  if (!module.endsWith('.ts')) return module;
  const { builtModule } = await import(new URL(BUILD, import.meta.url).href);
  return builtModule(module);
}

parentPort.on('message', async ({ module, fn, input, preload }) => {
  if (preload) {
    // Loaded ahead of the first task; one that fails is loaded again by the task, which says why.
    for (const m of preload) load(m).catch(() => modules.delete(m));
    return;
  }
  try {
    const loaded = await load(module);
    // The task's time starts now: loading the module once per worker is not the input's doing.
    parentPort.postMessage({ started: true });
    const output = await loaded[fn](input);
    parentPort.postMessage({ output });
  } catch (error) {
    // Errors cross as plain data; the pool makes them errors again on the main thread.
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort.postMessage({ error: { name: e.name, message: e.message, code: e.code, details: e.details } });
  }
});
parentPort.postMessage({ ready: true });
