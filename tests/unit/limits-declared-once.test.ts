// The specification's 40 MB file limit is written in one place (contract/limits.ts) and imported
// everywhere else; a second copy could drift from it unseen. Migrations are the one exception: SQL
// cannot import it (migration 0001's CHECK on stored_files.size_bytes).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../contract/limits';

function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return codeFiles(path);
    return /\.(ts|tsx|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

/** 40 MB as it may be written: 41_943_040, 41943040, 40 * 1024 * 1024. */
const FORTY_MB = /\b41_?943_?040\b|\b40\s*\*\s*1024\s*\*\s*1024\b/;

describe('the 40 MB file limit', () => {
  it('is 40 MiB', () => {
    expect(MAX_FILE_BYTES).toBe(40 * 1024 * 1024);
  });

  it('is written only in contract/limits.ts', () => {
    const copies = ['server', 'src', 'contract', 'domain', 'machines']
      .flatMap(codeFiles)
      .filter((path) => path !== join('contract', 'limits.ts'))
      .filter((path) => FORTY_MB.test(readFileSync(path, 'utf8')));
    expect(copies).toEqual([]);
  });
});
