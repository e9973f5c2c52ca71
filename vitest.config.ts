import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    // Server tests start real servers and databases; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on this 2-core machine: server tests wait on sockets, child processes and timers
    // as much as they compute, so the second worker cuts the run from about 12 to about 8 minutes.
    maxWorkers: 2,
    setupFiles: ['tests/setup.ts'],
  },
});
