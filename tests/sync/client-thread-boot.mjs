// Starts a fuzz client thread: vitest's loader does not reach worker threads, so tsx compiles the
// client's TypeScript (workerData.entry) here.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
