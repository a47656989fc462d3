import type { Queryable } from '../db/client';

/**
 * What the demo's customers paid through the payment provider: one payment per settlement (a single
 * case's price, or a subscription payment), with the case or subscription payment it settles, the
 * customer and whether it was refunded. The provider's payouts (`provider_payouts`) and the files made
 * from the demo (`source-files.ts`: the Stripe report, the SAF-T month) are both built from this list,
 * so the three agree by construction.
 */
export interface DemoPayment {
  /** The case id, or the subscription payment id: the reference the marketplace prints on both files. */
  reference: string;
  kind: 'case' | 'subscription';
  customerId: string;
  customerName: string;
  /** The customer's NIF when the demo has one (else the invoice goes to the final consumer). */
  customerTaxId: string | null;
  /** The case's or subscription's price, cents. */
  grossCents: number;
  /** The settlement's payment day (Lisbon). */
  paidOn: string;
  /** The subscription payment's `provider_payment_id` (`pi_…`); a case's payment stores none. */
  paymentIntentId: string | null;
  refunded: boolean;
}

export async function readDemoPayments(db: Queryable): Promise<DemoPayment[]> {
  const { rows } = await db.query<{
    reference: string;
    kind: 'case' | 'subscription';
    customer_id: string;
    customer_name: string;
    tax_number: string | null;
    gross_cents: number;
    paid_on: string;
    payment_intent_id: string | null;
    refunded: boolean;
  }>(
    `SELECT coalesce(s.case_id, s.subscription_payment_id)::text AS reference,
            CASE WHEN s.case_id IS NULL THEN 'subscription' ELSE 'case' END AS kind,
            u.id::text AS customer_id, coalesce(u.full_name, u.name) AS customer_name, u.tax_number,
            coalesce(c.price_cents, sp.amount_cents)::int AS gross_cents,
            to_char(s.payment_date, 'YYYY-MM-DD') AS paid_on,
            sp.provider_payment_id AS payment_intent_id,
            s.status IN ('REFUNDED', 'REFUNDED_PAID') AS refunded
       FROM settlements s
       LEFT JOIN cases c ON c.id = s.case_id
       LEFT JOIN subscription_payments sp ON sp.id = s.subscription_payment_id
       JOIN users u ON u.id = coalesce(c.customer_id, sp.customer_id)
      ORDER BY s.payment_date, reference`,
  );
  return rows.map((r) => ({
    reference: r.reference,
    kind: r.kind,
    customerId: r.customer_id,
    customerName: r.customer_name,
    customerTaxId: r.tax_number,
    grossCents: Number(r.gross_cents),
    paidOn: r.paid_on,
    paymentIntentId: r.payment_intent_id,
    refunded: r.refunded,
  }));
}

/** Stripe's standard price for European cards: 1.5 % + €0.25 per charge, rounded to the cent. */
export const stripeFeeCents = (grossCents: number) => Math.round(grossCents * 0.015) + 25;

/** One balance transaction of a payout: a payment's charge, or its refund (Stripe keeps the fee). */
export interface DemoPayoutRow {
  payment: DemoPayment;
  kind: 'charge' | 'refund';
  grossCents: number;
  feeCents: number;
  netCents: number;
}

export interface DemoPayout {
  /** When the payout is expected in the bank. */
  date: string;
  rows: DemoPayoutRow[];
  netCents: number;
}

function rowsOf(payment: DemoPayment): DemoPayoutRow[] {
  const fee = stripeFeeCents(payment.grossCents);
  const charge: DemoPayoutRow = {
    payment,
    kind: 'charge',
    grossCents: payment.grossCents,
    feeCents: fee,
    netCents: payment.grossCents - fee,
  };
  if (!payment.refunded) return [charge];
  const refund = -payment.grossCents;
  return [charge, { payment, kind: 'refund', grossCents: refund, feeCents: 0, netCents: refund }];
}

/**
 * The weekly automatic payouts on `payoutDays` (ascending): each pays every payment made before its day
 * and not paid yet (`paidOn` < day; the first, all the balance before it), their fees taken and refunds
 * given back. A day whose rows would not add up to more than nothing pays nothing: its rows wait for the
 * next payout, as Stripe carries a balance. So any later day list that keeps the days that paid gives the
 * same payouts (`source-files.ts` rebuilds them from `provider_payouts`). Payments on or after the last
 * day are in no payout.
 */
export function weeklyPayouts(payments: readonly DemoPayment[], payoutDays: readonly string[]): DemoPayout[] {
  const payouts: DemoPayout[] = [];
  const ordered = [...payments].sort((a, b) =>
    a.paidOn === b.paidOn ? (a.reference < b.reference ? -1 : 1) : a.paidOn < b.paidOn ? -1 : 1,
  );
  let next = 0;
  let waiting: DemoPayoutRow[] = [];
  for (const day of payoutDays) {
    while (next < ordered.length && ordered[next]!.paidOn < day) waiting.push(...rowsOf(ordered[next++]!));
    const netCents = waiting.reduce((sum, row) => sum + row.netCents, 0);
    if (netCents <= 0) continue;
    payouts.push({ date: day, rows: waiting, netCents });
    waiting = [];
  }
  return payouts;
}
