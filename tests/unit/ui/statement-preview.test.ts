import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KNOWN_LINES_MAX_KEYS as CONTRACT_MAX } from '../../../contract/statement-import';
import type { StatementEntry } from '../../../domain/statements/types';
import { knownOutcome } from '../../../src/features/statements/import-actors';
import { KNOWN_LINES_MAX_KEYS } from '../../../src/features/statements/limits';
import type { PreviewMessage } from '../../../src/features/statements/preview-protocol';
import { sendRows } from '../../../src/features/statements/preview-rows-sender';
import { headerKey } from '../../../src/kernel/column-mappings';
import { PreviewRows } from '../../../src/kernel/preview-rows';

const line = (key: string, statementFileId: string, fileName: string) => ({
  key,
  statementFileId,
  fileName,
  importedAt: '2026-05-08T06:00:00.000Z',
  reason: 'SAME_CONTENT' as const,
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

describe('rows from the preview worker to the page (decision 0103)', () => {
  const entry = (n: number): StatementEntry => ({
    bookingDate: '2026-05-05',
    valueDate: null,
    amountCents: n,
    currency: 'EUR',
    description: `linha ${n}`,
    counterpartyName: null,
    counterpartyIban: null,
    bankReference: null,
    endToEndId: null,
    batchId: null,
    kind: 'other',
    returnReason: null,
    lineNumber: n + 1,
  });

  /** What the page holds after the worker's messages, read back row by row. */
  const received = (messages: PreviewMessage[]) => {
    const rows = new PreviewRows<StatementEntry>();
    for (const message of messages) {
      if (message.type === 'rows') rows.addChunk(message.count, message.json);
      else if (message.type === 'reset') rows.clear();
    }
    return Array.from({ length: rows.count }, (_, i) => rows.entry(i));
  };

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => setTimeout(callback, 0));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('ends with exactly the result, whether it was streamed, streamed then changed, or not streamed (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_500 }), { maxLength: 5 }),
        fc.constantFrom('final', 'changed', 'cut', 'none'),
        (batches, how) => {
          const streamed = batches.flatMap((size, b) =>
            Array.from({ length: size }, (_, i) => entry(b * 10_000 + i)),
          );
          const result =
            how === 'final' || how === 'none'
              ? streamed
              : how === 'cut'
                ? []
                : [...streamed.slice(1), entry(-1)];
          const messages: PreviewMessage[] = [];
          sendRows(
            (onEntries) => {
              if (how !== 'none') {
                let start = 0;
                for (const size of batches) {
                  onEntries(streamed.slice(start, start + size));
                  start += size;
                }
              }
              return { entries: result };
            },
            (message) => messages.push(message),
          );
          expect(received(messages)).toEqual(result);
          // Streamed and final: every row sent once, in chunks of at most a few batches, and no reset.
          if (how === 'final') {
            expect(messages.some((m) => m.type === 'reset')).toBe(false);
            expect(messages.reduce((n, m) => n + (m.type === 'rows' ? m.count : 0), 0)).toBe(result.length);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('decodes only the chunks whose rows are read, and tells listeners once per burst', () => {
    const rows = new PreviewRows<StatementEntry>();
    const heard = vi.fn();
    rows.subscribe(heard);
    rows.addChunk(2, JSON.stringify([entry(0), entry(1)]));
    rows.addChunk(1, 'not JSON: never decoded unless row 2 is read');
    rows.addChunk(3, JSON.stringify([entry(3), entry(4), entry(5)]));
    expect(rows.count).toBe(6);
    expect(rows.entry(1)?.amountCents).toBe(1);
    expect(rows.entry(5)?.amountCents).toBe(5);
    expect(rows.entry(6)).toBeUndefined();
    vi.runAllTimers();
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
