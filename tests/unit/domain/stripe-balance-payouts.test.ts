// Stripe's Balance report, "Itemized payouts" (made here from the documented columns, see
// tests/fixtures/sources/SOURCES.md): each payout's stated amount, arrival date and status, amounts exact,
// refusals, and properties over generated reports (amounts round-trip, column and row order, files cut short).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatScaled } from '../../../domain/sources/decimal-text';
import type { SourceRead } from '../../../domain/sources/refusal';
import { sourceEntries } from '../../../domain/sources/source-ids';
import {
  isPayoutWithdrawn,
  readStripeBalancePayouts,
  STRIPE_BALANCE_PAYOUT_REQUIRED_COLUMNS,
  STRIPE_PAYOUT_STATUSES,
  type StripeBalancePayoutReport,
} from '../../../domain/sources/stripe-balance-payouts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/sources/', import.meta.url));
const SAMPLE = readFileSync(`${FIXTURES}made-here-stripe-balance-payouts-itemized-5.csv`, 'utf8');

function read(result: SourceRead<StripeBalancePayoutReport>): StripeBalancePayoutReport {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.value;
}

const refusalOf = (text: string) => {
  const result = readStripeBalancePayouts(text);
  return result.ok ? null : result.refusal;
};

function edited(from: string | RegExp, to: string, text = SAMPLE): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`edit not applied: ${from}`);
  return out;
}

describe("Stripe's Balance report, itemized payouts", () => {
  const report = read(readStripeBalancePayouts(SAMPLE));

  it("states each payout's amount (minus its balance transaction's net), arrival date and status", () => {
    expect(report.incomplete).toBe(false);
    expect(
      report.payouts.map(
        ({ id, effectiveDate, expectedArrivalDate, status, amountCents, currency, type }) => ({
          id,
          effectiveDate,
          expectedArrivalDate,
          status,
          amountCents,
          currency,
          type,
        }),
      ),
    ).toEqual([
      {
        id: 'po_1QaAmarketplace01',
        effectiveDate: '2026-10-05',
        expectedArrivalDate: '2026-10-07',
        status: 'paid',
        amountCents: 10099,
        currency: 'EUR',
        type: 'bank_account',
      },
      {
        id: 'po_1QbBmarketplace02',
        effectiveDate: '2026-10-06',
        expectedArrivalDate: '2026-10-08',
        status: 'in_transit',
        amountCents: 9222,
        currency: 'EUR',
        type: 'bank_account',
      },
      {
        id: 'po_1QcCmarketplace03',
        effectiveDate: '2026-10-07',
        expectedArrivalDate: '2026-10-09',
        status: 'failed',
        amountCents: 4150,
        currency: 'EUR',
        type: 'bank_account',
      },
    ]);
  });

  it("keeps a failed payout's reversal out of the amounts, counted apart; a failed payout owes no bank credit", () => {
    expect(report.otherRows).toBe(1);
    expect(report.payouts[2]!.reversedAt).toBe('2026-10-10 08:15:00');
    expect(STRIPE_PAYOUT_STATUSES.filter(isPayoutWithdrawn)).toEqual(['canceled', 'failed']);
  });

  it('is counted by the preview and the import as its payouts, by payout id, totalling the amounts', () => {
    expect(sourceEntries('STRIPE_BALANCE_PAYOUTS', report)).toEqual({
      ids: ['po_1QaAmarketplace01', 'po_1QbBmarketplace02', 'po_1QcCmarketplace03'],
      rows: 3,
      totalCents: 10099 + 9222 + 4150,
    });
  });

  it('reads the UTC columns and any column order', () => {
    const lines = SAMPLE.trimEnd()
      .split('\n')
      .map((line) => line.split(','));
    const reversed = lines.map((cells) => [...cells].reverse().join(',')).join('\n');
    const utc = edited('effective_at,', 'effective_at_utc,', `${reversed}\n`);
    expect(read(readStripeBalancePayouts(utc)).payouts).toEqual(report.payouts);
  });

  it('refuses a header without the required columns, naming every one missing', () => {
    expect(refusalOf('payout_id,net,currency\npo_1,-1.00,eur\n')).toEqual({
      code: 'STRIPE_REPORT_COLUMNS_MISSING',
      line: 1,
      extra: {
        missing: STRIPE_BALANCE_PAYOUT_REQUIRED_COLUMNS.filter(
          (c) => !['payout_id', 'net', 'currency'].includes(c),
        ),
      },
    });
    // The itemized reconciliation report is not this one: its columns are named otherwise.
    const itemized = readFileSync(`${FIXTURES}made-here-stripe-payout-reconciliation-itemized-5.csv`, 'utf8');
    expect(refusalOf(itemized)).toMatchObject({
      code: 'STRIPE_REPORT_COLUMNS_MISSING',
      extra: { missing: expect.arrayContaining(['payout_id', 'payout_status', 'effective_at']) },
    });
  });

  it.each([
    ['an unknown status', ',paid,payout,', ',sent,payout,', 'payout_status', 'NOT_A_STATUS'],
    ['an amount with a third decimal', '-100.99,-100.99', '-100.999,-100.999', 'gross', 'NOT_AN_AMOUNT'],
    [
      'a net that is not gross minus fee',
      '0.00,-100.99,-100.99',
      '0.00,-100.99,-100.98',
      'net',
      'NET_NOT_GROSS_MINUS_FEE',
    ],
    ['no arrival date', '2026-10-07,po_1QaA', ',po_1QaA', 'payout_expected_arrival_date', 'NOT_A_DATE'],
    [
      'a currency that is not one',
      ',eur,STRIPE PAYOUT,2026-10-05',
      ',euro,STRIPE PAYOUT,2026-10-05',
      'currency',
      'NOT_A_CURRENCY',
    ],
  ])('refuses %s, naming its line and column', (_name, from, to, column, reason) => {
    expect(refusalOf(edited(from, to))).toEqual({
      code: 'STRIPE_REPORT_ROW_INVALID',
      line: 2,
      extra: { column, reason },
    });
  });

  it('refuses a payout stated twice and a balance transaction twice', () => {
    const twice = edited('po_1QbBmarketplace02,in_transit', 'po_1QaAmarketplace01,in_transit');
    expect(refusalOf(twice)).toEqual({
      code: 'STRIPE_REPORT_ROW_INVALID',
      line: 3,
      extra: { column: 'payout_id', reason: 'DUPLICATE' },
    });
    expect(refusalOf(edited('txn_1QbBPayout02', 'txn_1QaAPayout01'))).toMatchObject({
      line: 3,
      extra: { column: 'balance_transaction_id', reason: 'DUPLICATE' },
    });
  });

  it('refuses a file that states no payout', () => {
    const header = SAMPLE.split('\n')[0]!;
    expect(refusalOf(`${header}\n`)?.code).toBe('STRIPE_REPORT_EMPTY');
    expect(refusalOf(`${header}\n${SAMPLE.trimEnd().split('\n')[4]}\n`)?.code).toBe('STRIPE_REPORT_EMPTY');
  });
});

const HEADER =
  'balance_transaction_id,currency,description,effective_at,fee,gross,net,payout_expected_arrival_date,payout_id,payout_status,reporting_category';

const generatedPayout = fc.record({
  amount: fc.integer({ min: -(10 ** 12), max: 10 ** 12 }),
  day: fc.integer({ min: 1, max: 28 }),
  status: fc.constantFrom(...STRIPE_PAYOUT_STATUSES),
  exponent: fc.constantFrom(['EUR', 2] as const, ['JPY', 0] as const, ['KWD', 3] as const),
});

type GeneratedPayout = typeof generatedPayout extends fc.Arbitrary<infer T> ? T : never;

/** Payout i of `payouts` is `po_i`, its balance transaction `txn_i`; rows in `order`. */
function reportText(payouts: readonly GeneratedPayout[], order: readonly number[]): string {
  const lines = order.map((i) => {
    const p = payouts[i]!;
    const [currency, exponent] = p.exponent;
    const net = formatScaled(BigInt(-p.amount), exponent);
    const day = `2026-10-${String(p.day).padStart(2, '0')}`;
    return [
      `txn_${i}`,
      currency.toLowerCase(),
      'STRIPE PAYOUT',
      day,
      '0',
      net,
      net,
      day,
      `po_${i}`,
      p.status,
      'payout',
    ].join(',');
  });
  return `${HEADER}\n${lines.join('\n')}\n`;
}

const withoutLines = (report: StripeBalancePayoutReport) =>
  report.payouts.map(({ line, ...payout }) => payout);

describe('Stripe Balance reports, generated', () => {
  it('states each amount exactly, in its currency minor units, whatever the order of the rows', () => {
    fc.assert(
      fc.property(
        fc
          .array(generatedPayout, { minLength: 1, maxLength: 20 })
          .chain((payouts) =>
            fc.tuple(
              fc.constant(payouts),
              fc.shuffledSubarray([...payouts.keys()], { minLength: payouts.length }),
            ),
          ),
        ([payouts, shuffled]) => {
          const inOrder = read(readStripeBalancePayouts(reportText(payouts, [...payouts.keys()])));
          const reordered = read(readStripeBalancePayouts(reportText(payouts, shuffled)));
          expect(withoutLines(reordered)).toEqual(withoutLines(inOrder));
          for (const payout of inOrder.payouts) {
            const made = payouts[Number(payout.id.slice(3))]!;
            expect(payout.amountCents).toBe(made.amount);
            expect(payout.status).toBe(made.status);
            expect(payout.currency).toBe(made.exponent[0]);
          }
        },
      ),
    );
  });

  it('a file cut anywhere is refused, or reads the payouts before the cut, flagged incomplete', () => {
    fc.assert(
      fc.property(
        fc.array(generatedPayout, { minLength: 1, maxLength: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (payouts, where) => {
          const full = reportText(payouts, [...payouts.keys()]);
          const cut = Math.floor(where * full.length);
          const result = readStripeBalancePayouts(full.slice(0, cut));
          if (!result.ok) return;
          const ids = result.value.payouts.map((p) => Number(p.id.slice(3))).sort((a, b) => a - b);
          expect(ids).toEqual([...payouts.keys()].slice(0, ids.length));
          const endsMidLine = !/\n$/.test(full.slice(0, cut));
          expect(result.value.incomplete).toBe(endsMidLine);
          if (endsMidLine) expect(ids.length).toBeLessThan(payouts.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
