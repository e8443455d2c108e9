// A worker thread running a TypeScript module (`workerData.module`, a file URL) through tsx, as run.mjs runs the
// benchmarks; the module reads what it was given from `workerData.data`.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
