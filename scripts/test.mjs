#!/usr/bin/env node
// `npm test`: every check in order — types, lint, unit + server + sync fuzz (vitest), then the built app
// end-to-end in Chromium (Playwright). Ends with one plain line "N passed, N failed, N skipped" so CI
// and people read one total; exits non-zero when any step fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const out = path.resolve('.tmp/test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const only = process.argv[2]; // optional: typecheck | lint | unit | contract | e2e

let failedSteps = 0;
const totals = { passed: 0, failed: 0, skipped: 0 };

function step(name, cmd, args, env = {}) {
  if (only && only !== name) return;
  console.log(`\n── ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`── ${name}: ${r.status === 0 ? 'ok' : `failed (exit ${r.status})`} in ${secs}s`);
  if (r.status !== 0) failedSteps++;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

step('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
step('lint', 'npx', ['biome', 'check', '.']);
step('unit', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${out}/vitest.json`,
]);
const vitest = readJson(`${out}/vitest.json`);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
}
// Portman's contract and variation tests from /api/openapi.json, run by Newman against a started server.
step('contract', 'npx', ['tsx', 'scripts/contract.ts']);
step('build', 'npx', ['vite', 'build']);
step('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json`,
});
const pw = readJson(`${out}/playwright.json`);
if (pw?.stats) {
  totals.passed += pw.stats.expected + pw.stats.flaky;
  totals.failed += pw.stats.unexpected;
  totals.skipped += pw.stats.skipped;
}

if (failedSteps > 0 && totals.failed === 0) totals.failed = failedSteps; // a step failed without a test result
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps > 0 ? 1 : 0);
