import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

/**
 * The arguments `npm start` gives node (its flags, the tsx loader, the entry), read from package.json so
 * the processes the tests and benches start are the product as it is started, flags included.
 */
export function startArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = scripts.start.split(/\s+/);
  if (command !== 'node') throw new Error(`the start script does not run node directly: ${scripts.start}`);
  return args;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** Everything the process printed so far (for a failing test's message). */
  output(): string;
  /** `kill -9`: no shutdown handler runs, open sockets and transactions are simply cut. */
  killHard(): Promise<void>;
  /** SIGTERM, as an orchestrator stops an instance; removes its DATA_DIR. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** How long a server has to shut down on SIGTERM before it is killed. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * SIGTERM, then SIGKILL if the process is still there after the grace period: a server stuck on a lock
 * (in a test that timed out) would otherwise finish its shutdown never, and outlive the test run.
 */
export async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const killer = setTimeout(() => child.kill('SIGKILL'), SHUTDOWN_GRACE_MS);
  child.kill('SIGTERM');
  await exited(child);
  clearTimeout(killer);
}

/**
 * `npm start` in a process of its own (node with the tsx loader, no wrapper process, so a signal
 * reaches the server itself), on a free port, with its own DATA_DIR; resolves once it prints its URL.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'server-process-'));
  const child = spawn(process.execPath, startArguments(), {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', SKIP_BUILD: '1', PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data: Buffer) => {
    output += data.toString();
  });
  child.stderr!.on('data', (data: Buffer) => {
    output += data.toString();
  });
  const cleanUp = async () => {
    await exited(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolve, reject) => {
    const seen = () => {
      const match = /is running at (http:\/\/[^\s/]+)\//.exec(output);
      if (match) {
        child.stdout!.off('data', seen);
        child.off('exit', failed);
        resolve(match[1]!);
      }
    };
    const failed = () => reject(new Error(`the server process exited before serving:\n${output}`));
    child.stdout!.on('data', seen);
    child.once('exit', failed);
  }).catch(async (error: unknown) => {
    await cleanUp();
    throw error;
  });
  return {
    url,
    pid: child.pid!,
    output: () => output,
    async killHard() {
      child.kill('SIGKILL');
      await cleanUp();
    },
    async stop() {
      await terminate(child);
      await cleanUp();
    },
  };
}
