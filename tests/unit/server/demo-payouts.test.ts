// The demo's weekly provider payouts (server/seed/demo-payments.ts, decision 0149): what each pays, and
// the property the demo's Stripe report relies on — rebuilt from only the days that paid (what
// `provider_payouts` keeps), the payouts are the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../domain/business-days';
import { type DemoPayment, stripeFeeCents, weeklyPayouts } from '../../../server/seed/demo-payments';

const payment = (reference: string, paidOn: string, grossCents: number, refunded = false): DemoPayment => ({
  reference,
  kind: 'case',
  customerId: 'c',
  customerName: 'Cliente',
  customerTaxId: null,
  grossCents,
  paidOn,
  paymentIntentId: null,
  refunded,
});

describe('the demo payouts', () => {
  it("pay each payment before their day once, Stripe's fee taken, a refund given back without its fee", () => {
    const payouts = weeklyPayouts(
      [
        payment('a', '2026-01-02', 4500),
        payment('b', '2026-01-06', 3000, true),
        payment('c', '2026-01-08', 1500),
        payment('d', '2026-01-20', 2500),
      ],
      ['2026-01-08', '2026-01-15', '2026-01-22'],
    );
    expect(stripeFeeCents(4500)).toBe(93);
    expect(payouts.map((p) => [p.date, p.rows.map((r) => `${r.kind} ${r.netCents}`), p.netCents])).toEqual([
      ['2026-01-08', ['charge 4407', 'charge 2930', 'refund -3000'], 4337],
      ['2026-01-15', ['charge 1452'], 1452],
      ['2026-01-22', ['charge 2437'], 2437],
    ]);
  });

  it('carry a week that would pay nothing into the next payout', () => {
    const payouts = weeklyPayouts(
      [payment('a', '2026-01-02', 3000, true), payment('b', '2026-01-09', 2000)],
      ['2026-01-08', '2026-01-15'],
    );
    expect(payouts).toHaveLength(1);
    expect(payouts[0]!.rows.map((r) => r.payment.reference)).toEqual(['a', 'a', 'b']);
    expect(payouts[0]!.netCents).toBe(-stripeFeeCents(3000) + 2000 - stripeFeeCents(2000));
  });

  it('are the same rebuilt from only the days that paid', () => {
    const days = Array.from({ length: 8 }, (_, k) => addDays('2026-01-05', 7 * k));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            day: fc.integer({ min: 0, max: 60 }),
            gross: fc.integer({ min: 100, max: 20_000 }),
            refunded: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        (generated) => {
          const payments = generated.map((g, k) =>
            payment(`p${String(k).padStart(3, '0')}`, addDays('2026-01-01', g.day), g.gross, g.refunded),
          );
          const all = weeklyPayouts(payments, days);
          expect(
            weeklyPayouts(
              payments,
              all.map((p) => p.date),
            ),
          ).toEqual(all);
          for (const payout of all) expect(payout.netCents).toBeGreaterThan(0);
        },
      ),
    );
  });
});
