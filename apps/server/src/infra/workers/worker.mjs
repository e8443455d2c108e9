// A worker thread of the pool: runs exported functions of the server's TypeScript modules, one
// task at a time. It loads TypeScript through tsx as bin/cabinet.mjs does, so it runs the same
// way under `npm start`, `npm run dev` and the tests.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
/** Each module's loading, once per worker (a task may come while a warm-up still loads it). */
const modules = new Map();
const load = (module) => {
  if (!modules.has(module)) modules.set(module, import(module));
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
