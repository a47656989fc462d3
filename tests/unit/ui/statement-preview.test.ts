import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_LINES_MAX_KEYS as CONTRACT_MAX } from '../../../contract/statement-import';
import { knownOutcome } from '../../../src/features/statements/import-actors';
import { KNOWN_LINES_MAX_KEYS } from '../../../src/features/statements/limits';
import { headerKey } from '../../../src/features/statements/preview-protocol';

const line = (key: string, statementFileId: string, fileName: string) => ({
  key,
  statementFileId,
  fileName,
  importedAt: '2026-05-08T06:00:00.000Z',
});

describe('the statement preview, in the console', () => {
  it('asks the server in the chunk size its contract accepts', () => {
    expect(KNOWN_LINES_MAX_KEYS).toBe(CONTRACT_MAX);
  });

  it('counts new and known lines and names the earlier files, most lines first', () => {
    const known = new Map([
      ['k2', line('k2', 'f1', 'abril.xml')],
      ['k3', line('k3', 'f2', 'maio.xml')],
      ['k4', line('k4', 'f2', 'maio.xml')],
    ]);
    expect(knownOutcome(['k1', 'k2', 'k3', 'k4', 'k5'], known)).toEqual({
      newLines: 2,
      knownLines: 3,
      files: [
        { statementFileId: 'f2', fileName: 'maio.xml', lines: 2 },
        { statementFileId: 'f1', fileName: 'abril.xml', lines: 1 },
      ],
    });
  });

  it('new + known is every line, and the files hold exactly the known ones (any answer)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 })),
        fc.array(fc.integer({ min: 0, max: 30 })),
        (keys, held) => {
          const known = new Map(held.map((k) => [`k${k}`, line(`k${k}`, `f${k % 3}`, `file${k % 3}`)]));
          const outcome = knownOutcome(
            keys.map((k) => `k${k}`),
            known,
          );
          expect(outcome.newLines + outcome.knownLines).toBe(keys.length);
          expect(outcome.files.reduce((sum, f) => sum + f.lines, 0)).toBe(outcome.knownLines);
        },
      ),
    );
  });

  it('remembers a mapping by the header as written, whatever its case and padding', () => {
    expect(headerKey([' Data Mov. ', 'DESCRIÇÃO'])).toBe(headerKey(['data mov.', 'descrição']));
    expect(headerKey(['Data', 'Montante'])).not.toBe(headerKey(['Montante', 'Data']));
  });
});
