#!/usr/bin/env node
/**
 * `npm run mutations [-- --only id,id] [-- --jobs N]`: applies each mutation of scripts/mutations.mjs,
 * one at a time, to a scratch copy of the tree (never the tree itself), runs only the test files named
 * to kill it, and fails if one survives or its original text is not found exactly once
 * (docs/decisions/0129). Before any mutation the same test files run once on the unchanged copy: a kill
 * by tests that fail anyway would prove nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MUTATIONS } from './mutations.mjs';

const root = resolve(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: { only: { type: 'string' }, jobs: { type: 'string', default: process.env.MUTATION_JOBS ?? '2' } },
});
const only = options.only?.split(',');
const mutations = only ? MUTATIONS.filter((m) => only.includes(m.id)) : MUTATIONS;
const jobs = Math.max(1, Number(options.jobs) || 1);

const occurrences = (text, part) => text.split(part).length - 1;
const stale = mutations.flatMap((m) => {
  const found = occurrences(readFileSync(join(root, m.file), 'utf8'), m.original);
  return found === 1 ? [] : [`${m.id}: its original text occurs ${found} times in ${m.file}`];
});
if (only && mutations.length !== only.length) stale.push(`unknown mutation in --only ${options.only}`);
if (!process.env.TEST_DATABASE_URL && mutations.some((m) => m.postgres))
  stale.push('TEST_DATABASE_URL is not set: the PostgreSQL-only killers would be skipped, not run');
if (stale.length > 0) {
  console.error(`mutation list does not fit the tree:\n  ${stale.join('\n  ')}`);
  process.exit(1);
}

/** A copy of the tree's files (tracked and untracked, not ignored) with node_modules linked in. */
function scratchCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'mutations-'));
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      cpSync(join(root, file), join(dir, file));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error; // deleted in the work tree, not yet in git
    }
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Runs the test files in `dir`; resolves with whether they all passed, and the output's tail. */
function runTests(dir, files) {
  return new Promise((done) => {
    // No retry: a mutation is killed by the first failure (CI's retry is for flaky suites, decision 0137).
    const child = spawn('npx', ['vitest', 'run', '--reporter=dot', '--retry=0', ...files], {
      cwd: dir,
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => done({ passed: code === 0, tail: output.split('\n').slice(-40).join('\n') }));
  });
}

const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)}s`;
const copies = Array.from({ length: Math.min(jobs, mutations.length) }, scratchCopy);
const results = [];
try {
  const killers = [...new Set(mutations.flatMap((m) => m.killers))];
  const baseline = await runTests(copies[0], killers);
  if (!baseline.passed) {
    console.error(`the killers fail without any mutation (${seconds()}):\n${baseline.tail}`);
    process.exitCode = 1;
  } else {
    console.log(`baseline: ${killers.length} test files pass unchanged (${seconds()})`);
    const queue = [...mutations];
    await Promise.all(
      copies.map(async (dir) => {
        for (let m = queue.shift(); m; m = queue.shift()) {
          const path = join(dir, m.file);
          const original = readFileSync(path, 'utf8');
          writeFileSync(path, original.replace(m.original, m.replacement));
          const { passed, tail } = await runTests(dir, m.killers);
          writeFileSync(path, original);
          results.push({ ...m, survived: passed });
          console.log(`${passed ? 'SURVIVED' : 'killed  '} ${m.id} (${seconds()})`);
          if (passed) console.log(tail);
        }
      }),
    );
    const survivors = results.filter((r) => r.survived);
    console.log(`${results.length - survivors.length} of ${results.length} mutations killed in ${seconds()}`);
    for (const s of survivors)
      console.log(`  survived: ${s.id} — ${s.rule} (${s.file}; ${s.killers.join(', ')})`);
    if (survivors.length > 0) process.exitCode = 1;
  }
} finally {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
}
