import { defineConfig } from 'vitest/config';

// Where a file's module graph may be shared. Each fork imports the server (or the store) once and runs file
// after file in it: a fresh graph per file cost more than the tests themselves (about 4 s a file on this
// 2-core machine, most of `npm test`'s vitest time). Server tests start their own servers, databases and
// sockets and close them; pure unit tests hold no state. The client store's tests (tests/store) and the sync
// fuzz keep a fresh graph per file: the store, its fake IndexedDB and the client singleton live in modules.
// input-bounds times patterns by its process's CPU, which must then be its own (no heap left by others).
const ownProcess = ['tests/unit/input-bounds.test.ts'];
const shared = ['tests/unit/**/*.test.ts', 'tests/server/**/*.test.ts'];
const isolated = ['tests/store/**/*.test.ts', 'tests/sync/**/*.test.ts', ...ownProcess];

export default defineConfig({
  test: {
    environment: 'node',
    // Server tests start real servers and databases; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on this 2-core machine: server tests wait on sockets, child processes and timers
    // as much as they compute, so the second worker cuts the run from about 12 to about 8 minutes.
    maxWorkers: 2,
    setupFiles: ['tests/setup.ts'],
    // One migrated PGlite dump and one PostgreSQL template per run, copied by every test server.
    globalSetup: ['tests/database-templates.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: shared, exclude: ownProcess, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated } },
    ],
  },
});
