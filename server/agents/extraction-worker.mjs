// Entry of the extraction worker thread: Node starts workers as plain JavaScript, so this registers tsx
// (as `tsx server/main.ts` does for the main thread, and whether or not the parent runs under tsx or
// vitest) and then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./extraction-worker.ts');
