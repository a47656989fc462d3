// docs/architecture.md says every mutation commits with its audit row through mutation() (or
// idempotentMutation()), and names the few modules that open a transaction and write the audit row by
// hand, each with its reason. This keeps that list true: a new module doing so fails here until it goes
// through mutation() or is named there, with its reason, and below.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function serverFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return serverFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The modules docs/architecture.md names, and mutation() itself. */
const NAMED_EXCEPTIONS = [
  'server/platform/mutation.ts',
  // a replayed Idempotency-Key answers after the generation lock and writes no audit row
  'server/finance/sepa-generate.ts',
  // a report already applied, or undetermined, changes nothing and writes no audit row
  'server/finance/sepa-status-reports.ts',
  // a download changes nothing; its audit row is written in the transaction that reads the file
  'server/finance/sepa-downloads.ts',
];

describe('audit rows written by hand in a transaction of their own', () => {
  it('only in the modules docs/architecture.md names', () => {
    const byHand = serverFiles('server').filter((path) => {
      const text = readFileSync(path, 'utf8');
      return /\.transaction\(/.test(text) && /\brecordAudit\(/.test(text);
    });
    expect(byHand.sort()).toEqual([...NAMED_EXCEPTIONS].sort());
  });

  it('each named module is in docs/architecture.md', () => {
    const page = readFileSync('docs/architecture.md', 'utf8');
    for (const path of NAMED_EXCEPTIONS.slice(1))
      expect(page).toContain(path.replace(/^server\/finance\//, ''));
  });
});
