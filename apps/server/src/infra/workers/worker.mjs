// A worker thread of the pool: runs exported functions of the server's TypeScript modules, one
// task at a time. It loads TypeScript through tsx as bin/cabinet.mjs does, so it runs the same
// way under `npm start`, `npm run dev` and the tests.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const modules = new Map();

parentPort.on('message', async ({ module, fn, input }) => {
  try {
    if (!modules.has(module)) modules.set(module, await import(module));
    // The task's time starts now: loading the module once per worker is not the input's doing.
    parentPort.postMessage({ started: true });
    const output = await modules.get(module)[fn](input);
    parentPort.postMessage({ output });
  } catch (error) {
    // Errors cross as plain data; the pool makes them errors again on the main thread.
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort.postMessage({ error: { name: e.name, message: e.message, code: e.code, details: e.details } });
  }
});
parentPort.postMessage({ ready: true });
