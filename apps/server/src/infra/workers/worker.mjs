// A worker thread of the pool: runs exported functions of the server's modules, one task at a time. A server run by
// `cabinet` names the modules of its build (plain JavaScript, ADR 0073); the tests, which run the server's sources,
// name its TypeScript files, which this worker then loads through tsx.
import { parentPort } from 'node:worker_threads';

/** tsx's loader, registered the first time a TypeScript module is asked for. */
let tsx;
/** Each module's loading, once per worker (a task may come while a warm-up still loads it). */
const modules = new Map();
const load = (module) => {
  if (!modules.has(module)) {
    if (module.endsWith('.ts')) tsx ??= import('tsx/esm/api').then(({ register }) => register());
    modules.set(
      module,
      Promise.resolve(tsx).then(() => import(module)),
    );
  }
  return modules.get(module);
};

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
