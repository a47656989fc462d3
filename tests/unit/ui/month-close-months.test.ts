import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MONTH_CLOSE_SOURCES } from '../../../contract/statuses';
import { shiftMonth, unmatchedListHref } from '../../../src/features/finance/MonthCloseScreen';

const monthArb = fc
  .record({ year: fc.integer({ min: 1990, max: 2200 }), month: fc.integer({ min: 1, max: 12 }) })
  .map(({ year, month }) => `${year}-${String(month).padStart(2, '0')}`);

describe('the month close moves between months and opens its lists (decision 0155)', () => {
  it('walks across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2025-12', 1)).toBe('2026-01');
    expect(shiftMonth('2026-03', -15)).toBe('2024-12');
  });

  it('a step there and back is no step, and a month is always YYYY-MM', () => {
    fc.assert(
      fc.property(monthArb, fc.integer({ min: -600, max: 600 }), (month, delta) => {
        const moved = shiftMonth(month, delta);
        expect(moved).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
        expect(shiftMonth(moved, -delta)).toBe(month);
      }),
    );
  });

  it("opens the bank lines of the month's days, its last day included, that are left", () => {
    expect(unmatchedListHref('BANK_LINES', '2028-02')).toBe(
      '/statements?from=2028-02-01&to=2028-02-29&status=UNMATCHED&status=SUGGESTED&status=DISCREPANCY',
    );
    expect(unmatchedListHref('BANK_LINES', '2026-02')).toContain('to=2026-02-28&');
    expect(unmatchedListHref('BANK_LINES', '2026-12')).toContain('to=2026-12-31&');
  });

  it('opens each other list filtered to the month and to what is left', () => {
    expect(MONTH_CLOSE_SOURCES.map((source) => unmatchedListHref(source, '2026-04'))).toEqual([
      '/statements?from=2026-04-01&to=2026-04-30&status=UNMATCHED&status=SUGGESTED&status=DISCREPANCY',
      '/provider-documents?kind=PAYOUT&month=2026-04&matched=false',
      '/provider-documents?kind=INVOICE&month=2026-04&matched=false',
      '/settlement?tab=manage&referenceMonth=2026-04&customerInvoiced=false',
      '/sepa?tab=history&referenceMonth=2026-04&status=GENERATED&status=AVAILABLE&status=UNAVAILABLE',
    ]);
  });
});
