import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function machine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  return (
    `${cpus.length} cores (${cpus[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ` +
    `Node ${process.version}, ${os.platform()} ${os.release()}; load average when written ${load} ` +
    '(other work shared the machine: figures above 2 on 2 cores mean the timings are inflated)'
  );
}

/**
 * This machine's own speed now: the milliseconds one fixed loop of integer work takes. On the shared VM it
 * moved from 479 to 857 ms within one quiet hour (2026-11-27), as much as the load figures ever explained,
 * so benches print it beside their runs: compare runs only at similar values.
 */
export function cpuLoopMs(): number {
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < 300_000_000; i++) sink += i % 7;
  if (sink < 0) throw new Error('unreachable: keeps the loop from being optimised away');
  return Math.round(Number(process.hrtime.bigint() - start) / 1e6);
}

/**
 * Wall-clock and CPU milliseconds of `fn` (CPU time is the steadier figure on a shared machine): the
 * process's, which counts the garbage collector's concurrent threads, and the calling thread's alone
 * (what the caller waits for on an idle machine).
 */
export function timeMs(fn: () => void): { ms: number; cpuMs: number; threadCpuMs: number } {
  const cpu = process.cpuUsage();
  const thread = process.threadCpuUsage();
  const t = performance.now();
  fn();
  const used = process.cpuUsage(cpu);
  const usedHere = process.threadCpuUsage(thread);
  return {
    ms: performance.now() - t,
    cpuMs: (used.user + used.system) / 1000,
    threadCpuMs: (usedHere.user + usedHere.system) / 1000,
  };
}

/** The p-th percentile of `sorted` (ascending), nearest rank; NaN for no samples. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Runs `script case` in a fresh process (so peak RSS belongs to that case alone) and returns its JSON line. */
export function runIsolated<T>(script: string, name: string): T {
  const r = spawnSync(process.execPath, [...process.execArgv, script, name], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as T;
}

export function writeResult(name: string, command: string, body: string): void {
  const dir = path.resolve(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const text = `# ${name}\n\nCommand: \`${command}\`\n\nMachine: ${machine()}\n\nDate: ${new Date().toISOString().slice(0, 10)}\n\n${body}\n`;
  writeFileSync(path.join(dir, `${name}.md`), text);
  process.stdout.write(text);
}
