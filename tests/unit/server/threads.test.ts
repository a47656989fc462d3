import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startArguments } from '../../support/server-process';

const root = join(import.meta.dirname, '../../..');
const MiB = 1_048_576;

/** The API thread's and a thread's new spaces in a process started as `npm start` starts the server. */
function newSpaces(youngMb: number): { api: number; thread: number } {
  const flags = startArguments().slice(0, -1);
  const output = execFileSync(
    process.execPath,
    [...flags, join(root, 'tests/support/thread-new-spaces.ts'), String(youngMb)],
    { cwd: root, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').at(-1)!) as { api: number; thread: number };
}

// Decision 0168: `--max-semi-space-size` is process-wide and V8 lets it win over a worker's own
// `maxYoungGenerationSizeMb`, so the reading and schema threads' 48 MiB were 4 MiB semi-spaces under
// `npm start`. A new space is two semi-spaces, a young generation three.
describe('worker threads under npm start', () => {
  it('runs with npm start capping the semi-spaces at 4 MiB', () => {
    expect(startArguments()).toContain('--max-semi-space-size=4');
  });

  it('get the young generation they ask for, while the API thread keeps its 4 MiB semi-spaces', () => {
    const asked48 = newSpaces(48);
    expect(asked48.thread).toBe(32 * MiB);
    expect(asked48.api).toBeLessThanOrEqual(8 * MiB);
    // Asked smaller, it is smaller: the size is the thread's own, not V8's default for a worker.
    const asked12 = newSpaces(12);
    expect(asked12.thread).toBe(8 * MiB);
    expect(asked12.api).toBeLessThanOrEqual(8 * MiB);
  }, 60_000);

  it('are all started through startThread, which frees their young generation from the flag', () => {
    const started = (dir: string): string[] =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .filter((file) => /new Worker\(/.test(readFileSync(join(root, dir, file), 'utf8')))
        .map((file) => join(dir, file));
    expect(started('server')).toEqual(['server/platform/threads.ts']);
  });
});
