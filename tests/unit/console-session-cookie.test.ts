import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console never reads or writes the session token (issue 28, docs/decisions/0126): the server
 * keeps it in an HttpOnly cookie no script can read, so the only script that could misuse a stolen
 * copy has none. These checks read the console's sources as text, so a later change that goes back
 * to a script-written cookie or an Authorization header from the console fails here.
 */

const SRC = join(import.meta.dirname, '../../src');
const sources = (readdirSync(SRC, { recursive: true, encoding: 'utf8' }) as string[])
  .filter((path) => /\.(ts|tsx)$/.test(path))
  .map((path) => ({ path: relative(SRC, join(SRC, path)), text: readFileSync(join(SRC, path), 'utf8') }));
// Comments may explain the rule; code may not break it.
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe('the console and the session cookie', () => {
  it('reads the console sources (the check is not vacuous)', () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.some(({ path }) => path === join('lib', 'cookies.ts'))).toBe(true);
  });

  it('touches document.cookie only in src/lib/cookies.ts', () => {
    const touching = sources
      .filter(({ text }) => /document\s*\.\s*cookie/.test(code(text)))
      .map((s) => s.path);
    expect(touching).toEqual([join('lib', 'cookies.ts')]);
  });

  it('reads and writes only the language cookie through it', () => {
    const callers = sources.filter(({ path }) => path !== join('lib', 'cookies.ts'));
    const calls = callers.flatMap(({ path, text }) =>
      [...code(text).matchAll(/\b(readCookie|writeCookie)\(\s*([^,)]+)/g)].map(
        (m) => `${path}: ${m[1]}(${m[2]})`,
      ),
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toMatch(/\(LOCALE_COOKIE\)$/);
  });

  it('names neither the session cookie nor an Authorization header anywhere', () => {
    const naming = sources
      .filter(({ text }) => /\bauthorization\b|\bbearer\b|AUTH_COOKIE/i.test(code(text)))
      .map((s) => s.path);
    expect(naming).toEqual([]);
  });
});
