// Where a decision moves the reconciliation table's cursor (decisions 0169, 0179).
import { describe, expect, it } from 'vitest';
import { nextOpenIndex } from '../../../src/features/statements/lines-cursor';

const row = (id: string, status: string, score?: number) => ({
  id,
  status,
  suggestion: score === undefined ? null : { score },
});

describe('the next line that needs a person', () => {
  const rows = [
    row('A', 'MATCHED'),
    row('B', 'SUGGESTED', 0.95),
    row('C', 'SUGGESTED', 0.8),
    row('D', 'IGNORED'),
    row('E', 'UNMATCHED'),
  ];

  it('is the next open line below, sure or not, when none was said again', () => {
    expect(nextOpenIndex(rows, 0, new Set())).toBe(1);
    expect(nextOpenIndex(rows, 1, new Set())).toBe(2);
    expect(nextOpenIndex(rows, 2, new Set())).toBe(4);
    expect(nextOpenIndex(rows, 4, new Set())).toBe(-1);
  });

  it('passes over a line a decision said again sure, left for the score filter; not one said again unsure', () => {
    expect(nextOpenIndex(rows, 0, new Set(['B']))).toBe(2);
    expect(nextOpenIndex(rows, 0, new Set(['C']))).toBe(1);
    expect(nextOpenIndex(rows, 1, new Set(['B', 'C']))).toBe(2);
    // Decided since (matched): no longer open, passed as any decided line.
    expect(
      nextOpenIndex(
        [row('A', 'MATCHED'), row('B', 'MATCHED', 0.95), row('E', 'UNMATCHED')],
        0,
        new Set(['B']),
      ),
    ).toBe(2);
  });
});
