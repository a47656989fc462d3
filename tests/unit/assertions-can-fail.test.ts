import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const testsDir = join(import.meta.dirname, '..');

function testSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : testSources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * `expect(screen.getBy…(…)).toBeTruthy()` cannot fail: getBy and findBy throw when there is not exactly
 * one match, and otherwise answer an element, which is always truthy, defined and not null. The query
 * is the check and the assertion is decoration (issue 30, point 3). Say what the element must be: its
 * text, an attribute, its state, or a count from queryAllBy/findAllBy.
 */
const DECORATIVE =
  /expect\(\s*(?:await\s+)?(?:(?:[\w.]+|within\([^()]*\))\.)?(?:getBy|getAllBy|findBy|findAllBy)\w*\((?:[^()]|\([^()]*\))*\),?\s*\)\s*\.(?:toBeTruthy|toBeDefined|not\.toBeNull|not\.toBeUndefined)\(\)/g;

describe('assertions on a testing-library query can fail', () => {
  it('no test asserts that a getBy/findBy query found something (it throws otherwise)', () => {
    const offenders = testSources(testsDir)
      .filter((path) => path !== import.meta.filename) // its own samples below
      .flatMap((path) => {
        const text = readFileSync(path, 'utf8');
        return [...text.matchAll(DECORATIVE)].map(
          (match) =>
            `${relative(testsDir, path)}:${text.slice(0, match.index).split('\n').length}: ${match[0].replace(/\s+/g, ' ')}`,
        );
      });
    expect(offenders).toEqual([]);
  });

  it('the pattern finds such assertions, across lines too (it is not vacuous)', () => {
    const decorative = [
      `expect(screen.getByText('ready')).toBeTruthy()`,
      `expect(screen.getByRole('button', { name: 'Status: Alpha' })).toBeDefined()`,
      `expect(await screen.findByText(toast)).not.toBeNull()`,
      `expect(\n      within(row).getByLabelText('IBAN'),\n    ).toBeTruthy()`,
      `expect(getAllByRole('row')).toBeTruthy()`,
    ];
    for (const sample of decorative) expect(sample.match(DECORATIVE)).toHaveLength(1);
    const meaningful = [
      `expect(screen.queryAllByText('ready')).toHaveLength(1)`,
      `expect(screen.queryByText('gone')).toBeNull()`,
      `expect(screen.getByRole('button', { name: 'Enable' })).toHaveProperty('disabled', false)`,
      `expect(screen.getByRole('alert').textContent).toBe('Falhou')`,
    ];
    for (const sample of meaningful) expect(sample.match(DECORATIVE)).toBeNull();
  });

  it('every Chromium test (tests/e2e) has an expect of its own, not only waits that time out', () => {
    const e2eDir = join(testsDir, 'e2e');
    const silent = testSources(e2eDir).flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      // Each test runs from its `it(` to the next one's.
      const starts = [...text.matchAll(/^\s*it(?:\.\w+)?\(/gm)].map((match) => match.index);
      return starts.flatMap((start, index) =>
        /\bexpect[.(]/.test(text.slice(start, starts[index + 1] ?? text.length))
          ? []
          : [`${relative(testsDir, path)}:${text.slice(0, start).split('\n').length + 1}`],
      );
    });
    expect(silent).toEqual([]);
  });
});
