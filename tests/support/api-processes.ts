import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { terminate } from './server-process';

export interface ApiProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const SCRIPT = join(import.meta.dirname, 'api-process.ts');

/** Starts a separate server process on `databaseUrl`; resolves once it listens. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`api process exited with ${code} before listening`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return {
    url,
    pid: child.pid!,
    stop: () => terminate(child),
  };
}
