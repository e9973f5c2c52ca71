#!/usr/bin/env node
// `npm test`: every check in order — types, lint, unit + server + sync fuzz (vitest), then the built app
// end-to-end in Chromium (Playwright). Ends with one plain line "N passed, N failed, N skipped" so CI
// and people read one total; exits non-zero when any step fails.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const out = path.resolve('.tmp/test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const only = process.argv[2]; // optional: typecheck | lint | unit | contract | e2e

// What else the machine was doing: the load average every 20 s, summed up per step at the end, so a slow
// run can be told from a slow change (CI shows only the end of the output).
const loadLog = `${out}/load.log`;
const sampler = spawn(
  'sh',
  ['-c', 'while :; do echo "$(date +%s) $(cut -d" " -f1 /proc/loadavg)"; sleep 20; done'],
  {
    stdio: ['ignore', openSync(loadLog, 'w'), 'ignore'],
  },
);
process.on('exit', () => sampler.kill());
const stepTimes = [];

let failedSteps = 0;
const totals = { passed: 0, failed: 0, skipped: 0 };

function step(name, cmd, args, env = {}) {
  if (only && only !== name) return;
  console.log(`\n── ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`── ${name}: ${r.status === 0 ? 'ok' : `failed (exit ${r.status})`} in ${secs}s`);
  stepTimes.push({ name, from: started / 1000, to: Date.now() / 1000, secs });
  if (r.status !== 0) failedSteps++;
}

/** Every test in a Playwright JSON report, with its file, title and outcome. */
function playwrightTests(suites, file) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      (spec.tests ?? []).map((t) => ({
        file: spec.file ?? file,
        title: spec.title,
        status: t.status,
        results: t.results,
      })),
    ),
    ...playwrightTests(suite.suites ?? [], suite.file ?? file),
  ]);
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
// The client and the server ahead of time (`npm run build`): the contract's and the e2e's servers run
// what `npm start` runs.
step('build', 'npm', ['run', 'build']);
// Portman's contract and variation tests from /api/openapi.json, run by Newman against a started server.
step('contract', 'npx', ['tsx', 'scripts/contract.ts']);
step('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json`,
});
const pw = readJson(`${out}/playwright.json`);
if (pw?.stats) {
  totals.passed += pw.stats.expected + pw.stats.flaky;
  totals.failed += pw.stats.unexpected;
  totals.skipped += pw.stats.skipped;
}

sampler.kill();
const samples = (() => {
  try {
    return readFileSync(loadLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' ').map(Number));
  } catch {
    return [];
  }
})();
console.log(
  `\nmachine: ${(await import('node:os')).cpus().length} cores; load average (1 min) during each step:`,
);
for (const { name, from, to, secs } of stepTimes) {
  const loads = samples.filter(([t]) => t >= from && t <= to).map(([, l]) => l);
  const range = loads.length
    ? `${Math.min(...loads)}–${Math.max(...loads)}, median ${loads.sort((a, b) => a - b)[loads.length >> 1]}`
    : 'no sample';
  console.log(`  ${name} (${secs}s): ${range}`);
}
const busiest = spawnSync('ps', ['-eo', 'time,etimes,comm', '--sort=-time', '--no-headers'], {
  encoding: 'utf8',
});
console.log(
  `processes with the most CPU time (cpu, seconds alive, name):\n${busiest.stdout?.split('\n').slice(0, 8).join('\n')}`,
);

// The failed tests by name, again at the end: CI keeps only the tail of the output, where vitest's and
// Playwright's own reports of them have scrolled away.
const failures = [
  ...(vitest?.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((t) => t.status === 'failed')
      .map((t) => ({
        name: `${path.relative(process.cwd(), file.name)} › ${t.fullName}`,
        message: t.failureMessages?.[0],
      })),
  ),
  ...playwrightTests(pw?.suites ?? [])
    .filter((t) => t.status === 'unexpected' || t.status === 'flaky')
    .map((t) => {
      const failed = t.results?.find((r) => r.error);
      // What e2e/support/test.ts kept of the failure's pages and servers.
      const report = failed?.attachments?.find((a) => a.name === 'pages and servers at the failure')?.body;
      return {
        name: `${t.status === 'flaky' ? '(flaky, passed on retry) ' : ''}${t.file} › ${t.title}`,
        message: failed?.error?.message,
        report: report ? Buffer.from(report, 'base64').toString('utf8') : undefined,
      };
    }),
];
if (failures.length > 0) {
  console.log('\nfailed (and flaky) tests:');
  for (const { name, message, report } of failures) {
    console.log(`  ✗ ${name}`);
    // The first lines of the error, without colour codes: enough to know where to look.
    const lines = stripVTControlCharacters(message ?? '')
      .split('\n')
      .slice(0, 6);
    for (const line of lines) if (line.trim()) console.log(`      ${line}`);
    if (report) {
      console.log('      pages and servers at the failure:');
      for (const line of report.split('\n').slice(0, 60)) console.log(`        ${line}`);
    }
  }
}

if (failedSteps > 0 && totals.failed === 0) totals.failed = failedSteps; // a step failed without a test result
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps > 0 ? 1 : 0);
