import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/**
 * In its own process, as `npm start` runs: the test runner's own handlers would otherwise hide
 * whether Node exits on a stray rejection or exception.
 */
describe('a server process meeting a stray failure', () => {
  it('logs an unhandled rejection and an uncaught exception without their data, and keeps running', async () => {
    const script = `
      import { keepServingAfterStrayErrors } from ${JSON.stringify(join(root, 'server/http/process-guard.ts'))};
      keepServingAfterStrayErrors();
      const failure = Object.assign(new Error('bad date'), { parameters: ['joana.private@example.pt'] });
      Promise.reject(failure);
      setTimeout(() => { throw new TypeError('thrown in a callback'); }, 10);
      setTimeout(() => console.log('still running'), 100);
    `;
    const { stdout, stderr } = await promisify(execFile)(
      join(root, 'node_modules/.bin/tsx'),
      ['--input-type=module', '-e', script],
      { cwd: root },
    );
    expect(stdout).toContain('still running');
    expect(stderr).toContain('Unhandled promise rejection (still serving): Error: bad date');
    expect(stderr).toContain('Uncaught exception (still serving): TypeError: thrown in a callback');
    expect(stderr).not.toContain('joana.private');
  });
});
