// Reads Vitest's JSON report and fails the run when anything was not executed: a skipped or todo
// test, a database suite that ran on PGlite but not on the PostgreSQL server, a Chromium suite with
// no passing test. Prints, per test file, how many tests ran on PGlite, on PostgreSQL, in Chromium;
// then every test that failed, and every test that passed only on its retry (docs/decisions/0137).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const problems = [];
const totals = { pglite: 0, postgres: 0, chromium: 0, other: 0 };
const rows = [];
const failures = [];
const flaky = [];
/** The first lines of a failure: enough to name the assertion and where it failed. */
const firstLines = (message) =>
  message
    .split('\n')
    .filter((line) => !line.includes('node_modules'))
    .slice(0, 6)
    .join('\n    ');

for (const file of report.testResults) {
  const name = relative(process.cwd(), file.name);
  const counts = { pglite: 0, postgres: 0, chromium: 0, other: 0 };
  for (const test of file.assertionResults) {
    if (test.status !== 'passed' && test.status !== 'failed') {
      problems.push(`${name}: "${test.fullName}" was ${test.status}`);
      continue;
    }
    const title = test.fullName;
    if (test.status === 'failed')
      failures.push(`${name} > ${title}\n    ${firstLines(test.failureMessages.at(-1) ?? '')}`);
    // A test that passed on its retry keeps the failure of its first attempt (vite.config.ts `retry`).
    else if (test.failureMessages.length > 0)
      flaky.push(`${name} > ${title}\n    ${firstLines(test.failureMessages[0])}`);
    const kind = name.startsWith('tests/e2e/')
      ? 'chromium'
      : /\bpostgres\b/.test(title)
        ? 'postgres'
        : /\bpglite\b/.test(title)
          ? 'pglite'
          : 'other';
    counts[kind] += 1;
    totals[kind] += 1;
  }
  if (counts.pglite > 0 && counts.postgres === 0)
    problems.push(`${name}: ran on PGlite but not on PostgreSQL`);
  if (name.startsWith('tests/e2e/') && counts.chromium === 0)
    problems.push(`${name}: no test ran in Chromium`);
  if (file.assertionResults.length === 0) problems.push(`${name}: no test ran (${file.message ?? 'empty'})`);
  rows.push(
    `${name.padEnd(52)} pglite ${String(counts.pglite).padStart(4)}  postgres ${String(counts.postgres).padStart(4)}  chromium ${String(counts.chromium).padStart(4)}  other ${String(counts.other).padStart(4)}`,
  );
}

console.log(rows.join('\n'));
console.log(
  `Totals: PGlite ${totals.pglite}, PostgreSQL ${totals.postgres}, Chromium ${totals.chromium}, other ${totals.other}`,
);
if (totals.postgres === 0) problems.push('no test ran on PostgreSQL');
if (totals.chromium === 0) problems.push('no test ran in Chromium');
for (const problem of problems) console.log(`NOT RUN: ${problem}`);
// Printed last: a CI log is often read from its end, and these are what someone must act on.
for (const test of flaky) console.log(`FLAKY (failed, then passed on its retry): ${test}`);
for (const test of failures) console.log(`FAILED: ${test}`);
console.log(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`,
);
process.exit(problems.length > 0 || report.numFailedTests > 0 || !report.success ? 1 : 0);
