// Stripe's itemized payout reconciliation report (made here from the documented columns, see
// tests/fixtures/sources/SOURCES.md): payouts rebuilt from their rows, amounts exact, refusals, and
// properties over generated reports (amounts round-trip, row order, files cut short).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatScaled, minorUnits } from '../../../domain/sources/decimal-text';
import type { SourceRead } from '../../../domain/sources/refusal';
import {
  currencyExponent,
  readStripePayoutReport,
  STRIPE_REQUIRED_COLUMNS,
  type StripePayoutReport,
} from '../../../domain/sources/stripe-payouts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/sources/', import.meta.url));
const SAMPLE = readFileSync(`${FIXTURES}made-here-stripe-payout-reconciliation-itemized-5.csv`, 'utf8');

function read(result: SourceRead<StripePayoutReport>): StripePayoutReport {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.value;
}

const refusalOf = (text: string, payoutAmounts?: ReadonlyMap<string, number>) => {
  const result = readStripePayoutReport(text, { payoutAmounts });
  return result.ok ? null : result.refusal;
};

function edited(from: string | RegExp, to: string, text = SAMPLE): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`edit not applied: ${from}`);
  return out;
}

describe("Stripe's itemized payout reconciliation report", () => {
  const report = read(readStripePayoutReport(SAMPLE));

  it('rebuilds each payout from its rows: the sum of their net, with gross and fees', () => {
    expect(report.incomplete).toBe(false);
    expect(report.rowCount).toBe(8);
    expect(
      report.payouts.map(({ id, effectiveDate, currency, grossCents, feeCents, netCents }) => ({
        id,
        effectiveDate,
        currency,
        grossCents,
        feeCents,
        netCents,
      })),
    ).toEqual([
      {
        id: 'po_1QaAmarketplace01',
        effectiveDate: '2026-10-05',
        currency: 'EUR',
        grossCents: 12000,
        feeCents: 1901,
        netCents: 10099,
      },
      {
        id: 'po_1QbBmarketplace02',
        effectiveDate: '2026-10-06',
        currency: 'EUR',
        grossCents: 7800,
        feeCents: -1422,
        netCents: 9222,
      },
    ]);
  });

  it('keeps refunds, disputes and fees as such', () => {
    expect(report.payouts[0]!.byKind).toEqual({
      charge: { count: 3, netCents: 22099 },
      refund: { count: 1, netCents: -6000 },
      dispute: { count: 1, netCents: -6000 },
    });
    expect(report.payouts[1]!.byKind).toEqual({
      charge: { count: 1, netCents: 3422 },
      fee: { count: 1, netCents: -200 },
      dispute: { count: 1, netCents: 6000 },
    });
    expect(report.payouts[1]!.rows.map((r) => r.category)).toEqual(['charge', 'fee', 'dispute_reversal']);
  });

  it('gives each row the ids it links by: balance transaction, charge, payment intent', () => {
    expect(report.payouts[0]!.rows[2]).toEqual({
      balanceTransactionId: 'txn_1QaA0003',
      payoutId: 'po_1QaAmarketplace01',
      category: 'refund',
      kind: 'refund',
      currency: 'EUR',
      grossCents: -6000,
      feeCents: 0,
      netCents: -6000,
      createdAt: '2026-09-29 09:01:10',
      availableOn: '2026-10-05 00:00:00',
      sourceId: 're_1QaA0003',
      chargeId: 'ch_1QaA0001',
      paymentIntentId: 'pi_1QaA0001',
      description: 'REFUND FOR CHARGE (Consulta C-2026-0041)',
      customerFacingAmountCents: 6000,
      customerFacingCurrency: 'EUR',
      line: 4,
    });
    expect(report.payouts[0]!.rows[4]!.description).toBe('Consulta — caso "C-2026-0042", Dr. Silva');
    expect(report.payouts[1]!.rows[1]).toMatchObject({ chargeId: null, customerFacingAmountCents: null });
  });

  it('checks a payout amount known elsewhere, and refuses one its rows do not add up to', () => {
    const known = new Map([['po_1QaAmarketplace01', 10099]]);
    const checked = read(readStripePayoutReport(SAMPLE, { payoutAmounts: known }));
    expect(checked.payouts.map((p) => p.amountChecked)).toEqual([true, false]);
    expect(refusalOf(SAMPLE, new Map([['po_1QbBmarketplace02', 9322]]))).toEqual({
      code: 'STRIPE_PAYOUT_SUM_MISMATCH',
      line: 7,
      extra: { payoutId: 'po_1QbBmarketplace02', payoutCents: 9322, rowsNetCents: 9222 },
    });
  });

  it("reads a payout's own balance transaction as its amount, not as one of its rows", () => {
    const payoutRow =
      'po_1QbBmarketplace02,2026-10-06 00:00:00,txn_1QbB0009,2026-10-06 00:00:00,2026-10-06 00:00:00,' +
      '2026-10-06 00:00:00,2026-10-06 00:00:00,eur,-92.22,0.00,-92.22,payout,po_1QbBmarketplace02,STRIPE PAYOUT,,,,,\n';
    const withPayout = read(readStripePayoutReport(SAMPLE + payoutRow));
    expect(withPayout.payouts[1]).toMatchObject({ netCents: 9222, amountChecked: true });
    expect(withPayout.payouts[1]!.rows).toHaveLength(3);
    const wrong = payoutRow.replaceAll('-92.22', '-92.20');
    expect(refusalOf(SAMPLE + wrong)).toMatchObject({
      code: 'STRIPE_PAYOUT_SUM_MISMATCH',
      extra: { payoutCents: 9220, rowsNetCents: 9222 },
    });
  });

  it('finds columns by name in any order, with the UTC variants of the dates', () => {
    const lines = SAMPLE.trimEnd().split('\n');
    const reordered = lines
      .map((line) => line.replace(/^([^,]*),([^,]*),([^,]*)/, '$3,$1,$2'))
      .join('\n')
      .replace('automatic_payout_effective_at,', 'automatic_payout_effective_at_utc,');
    const read2 = read(readStripePayoutReport(`${reordered}\n`));
    expect(read2.payouts.map((p) => [p.id, p.netCents])).toEqual(
      report.payouts.map((p) => [p.id, p.netCents]),
    );
  });

  it('refuses a report without the required columns, naming every one missing', () => {
    const header = SAMPLE.slice(0, SAMPLE.indexOf('\n'));
    const without = header.replace('automatic_payout_id,', 'payout,').replace(',net,', ',net_amount,');
    expect(refusalOf(edited(header, without))).toEqual({
      code: 'STRIPE_REPORT_COLUMNS_MISSING',
      line: 1,
      extra: { missing: ['automatic_payout_id', 'net'] },
    });
    expect(STRIPE_REQUIRED_COLUMNS).toContain('reporting_category');
  });

  it.each([
    ['an amount with a third decimal', '60.00,1.15,58.85', '60.001,1.15,58.851', 'gross', 'NOT_AN_AMOUNT'],
    [
      'a net that is not gross minus fee',
      '60.00,1.15,58.85',
      '60.00,1.15,58.86',
      'net',
      'NET_NOT_GROSS_MINUS_FEE',
    ],
    [
      'a balance transaction given twice',
      'txn_1QaA0002',
      'txn_1QaA0001',
      'balance_transaction_id',
      'DUPLICATE',
    ],
    [
      'a payout without its id',
      'po_1QbBmarketplace02,2026-10-06 00:00:00,txn_1QbB0001',
      ',2026-10-06 00:00:00,txn_1QbB0001',
      'automatic_payout_id',
      'EMPTY',
    ],
  ])('refuses %s, naming the line and column', (_, from, to, column, reason) => {
    expect(refusalOf(edited(from, to))).toMatchObject({
      code: 'STRIPE_REPORT_ROW_INVALID',
      line: expect.any(Number),
      extra: { column, reason },
    });
  });

  it('refuses rows of one payout with different currencies', () => {
    const mixed = edited('eur,45.00,0.93,44.07', 'usd,45.00,0.93,44.07');
    expect(refusalOf(mixed)).toEqual({
      code: 'STRIPE_REPORT_ROW_INVALID',
      line: 3,
      extra: { column: 'currency', reason: 'DIFFERS_WITHIN_PAYOUT' },
    });
  });

  it('refuses a report with only its header, and text that is no CSV report', () => {
    expect(refusalOf(SAMPLE.slice(0, SAMPLE.indexOf('\n') + 1))?.code).toBe('STRIPE_REPORT_EMPTY');
    expect(refusalOf('')?.code).toBe('STRIPE_REPORT_UNREADABLE');
    expect(refusalOf('<?xml version="1.0"?><Document/>\n')?.code).toBe('STRIPE_REPORT_COLUMNS_MISSING');
  });

  it('refuses a quote that never closes inside the file', () => {
    const open = edited('"Consulta — caso ""C-2026-0042"", Dr. Silva"', '"Consulta — caso');
    expect(refusalOf(open)).toMatchObject({ code: 'STRIPE_REPORT_UNREADABLE', line: 6 });
  });
});

describe('Stripe amounts', () => {
  it('read exactly: major units to minor units and back, any sign, any exponent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(10 ** 15), max: 10 ** 15 }),
        fc.constantFrom(0, 2, 3),
        fc.nat({ max: 4 }),
        fc.boolean(),
        (units, exponent, padding, comma) => {
          let text = formatScaled(BigInt(units), exponent);
          // Trailing zeros and the decimal comma of `decimal_separator` do not change the amount.
          if (padding > 0) text += text.includes('.') ? '0'.repeat(padding) : `.${'0'.repeat(padding)}`;
          if (comma) text = text.replace('.', ',');
          expect(minorUnits(text, exponent)).toBe(units);
        },
      ),
    );
  });

  it('refuse what is not exact: a significant digit beyond the exponent, grouping, floats', () => {
    expect(minorUnits('1.005', 2)).toBeNull();
    expect(minorUnits('1,234.50', 2)).toBeNull();
    expect(minorUnits('1e3', 2)).toBeNull();
    expect(minorUnits('1.5', 0)).toBeNull();
    expect(minorUnits('0.1', 2)).toBe(10);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('EUR')).toBe(2);
  });
});

const HEADER =
  'automatic_payout_id,automatic_payout_effective_at,balance_transaction_id,currency,gross,fee,net,reporting_category,description';

interface GeneratedRow {
  payout: number;
  gross: number;
  fee: number;
  category: string;
  description: string;
}

const generatedRow = fc.record({
  payout: fc.integer({ min: 0, max: 3 }),
  gross: fc.integer({ min: -500_000, max: 500_000 }),
  fee: fc.integer({ min: -5_000, max: 5_000 }),
  category: fc.constantFrom('charge', 'refund', 'dispute', 'dispute_reversal', 'fee', 'other_adjustment'),
  description: fc.string({ maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ' ')),
});

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** A report of `rows`: balance transaction `i` is the i-th row; payout p is effective on day p + 1. */
function reportText(rows: readonly GeneratedRow[], order: readonly number[]): string {
  const lines = order.map((i) => {
    const r = rows[i]!;
    const amount = (cents: number) => formatScaled(BigInt(cents), 2);
    return [
      `po_${r.payout}`,
      `2026-10-0${r.payout + 1} 00:00:00`,
      `txn_${String(i).padStart(4, '0')}`,
      'eur',
      amount(r.gross),
      amount(r.fee),
      amount(r.gross - r.fee),
      r.category,
      csvCell(r.description),
    ].join(',');
  });
  return `${HEADER}\n${lines.join('\n')}\n`;
}

const withoutLines = (report: StripePayoutReport) =>
  report.payouts.map((p) => ({ ...p, rows: p.rows.map(({ line, ...row }) => row) }));

describe('Stripe reports, generated', () => {
  it('any order of the rows gives the same payouts', () => {
    fc.assert(
      fc.property(
        fc
          .array(generatedRow, { minLength: 1, maxLength: 25 })
          .chain((rows) =>
            fc.tuple(fc.constant(rows), fc.shuffledSubarray([...rows.keys()], { minLength: rows.length })),
          ),
        ([rows, shuffled]) => {
          const inOrder = read(readStripePayoutReport(reportText(rows, [...rows.keys()])));
          const reordered = read(readStripePayoutReport(reportText(rows, shuffled)));
          expect(withoutLines(reordered)).toEqual(withoutLines(inOrder));
          for (const payout of inOrder.payouts) {
            const mine = rows.filter((r) => `po_${r.payout}` === payout.id);
            expect(payout.netCents).toBe(mine.reduce((s, r) => s + r.gross - r.fee, 0));
          }
        },
      ),
    );
  });

  it('a file cut anywhere is refused, or reads the rows before the cut, flagged incomplete', () => {
    fc.assert(
      fc.property(
        fc.array(generatedRow, { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (rows, where) => {
          const full = reportText(rows, [...rows.keys()]);
          const cut = Math.floor(where * full.length);
          const result = readStripePayoutReport(full.slice(0, cut));
          if (!result.ok) return;
          const ids = result.value.payouts.flatMap((p) => p.rows.map((r) => r.balanceTransactionId)).sort();
          const prefix = [...rows.keys()]
            .slice(0, ids.length)
            .map((i) => `txn_${String(i).padStart(4, '0')}`);
          expect(ids).toEqual(prefix);
          const endsMidLine = !/\n$/.test(full.slice(0, cut));
          expect(result.value.incomplete).toBe(endsMidLine);
          if (endsMidLine) expect(ids.length).toBeLessThan(rows.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
