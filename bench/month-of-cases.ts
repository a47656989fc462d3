// A marketplace's month of paid cases, its payment provider's payouts and its invoicing program's SAF-T, as
// the benches of issue 31 import them (decisions 0158, 0162): `three-way-month.ts` times the matching, and
// `sources-import.ts` the imports through the server, over the same month, so that every payout row and
// every invoice bills a settlement as in a real month.
//   - 100,000 paid cases at ten repeated prices 5–30 €, 25,000 customers (four cases each on average, one in
//     five without a NIF), 1 % refunded, paid on any day of the month;
//   - Stripe's itemized report (the demo's writer) with a payout every 2–7 days, fees deducted, refunds given
//     back;
//   - the SAF-T month (the demo's writer) missing one payment in 250, a credit note per refund, a cancelled
//     document.
import type { Queryable } from '../server/db/client';
import { type DemoPayment, type DemoPayout, weeklyPayouts } from '../server/seed/demo-payments';
import { writeDemoSaft, writeDemoStripeReport } from '../server/seed/source-files';

export const MONTH = '2031-01';
/** 5–30 €, the prices a marketplace repeats. */
const PRICES = [500, 750, 1000, 1250, 1500, 1990, 2000, 2500, 2990, 3000];

/** A fixed sequence (mulberry32): the same month every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The n-th case's id: its number first, so Stripe's ids (made from the id's first 24 digits) differ too. */
const caseId = (n: number) =>
  `${n.toString(16).padStart(8, '0')}-3a7e-4b21-8c5d-${(n * 7919).toString(16).padStart(12, '0').slice(-12)}`;

export interface CaseMonth {
  customers: number;
  doctors: number;
  payments: DemoPayment[];
  /** Each payment's doctor, in the order of `payments`. */
  doctorOf: string[];
  payouts: (DemoPayout & { id: string })[];
  /** The payments the invoicing program never invoiced. */
  missing: Set<string>;
  /** Stripe's itemized payout reconciliation report, CSV. */
  stripe: Uint8Array;
  /** The SAF-T (PT) month, XML. */
  saft: Uint8Array;
  /** The rest of the month's fixed sequence (the three-way bench draws its bank statement from it). */
  rand: () => number;
}

/** Every 2–7 days from the month's third day to a week after it. */
function payoutDays(rand: () => number): string[] {
  const days: string[] = [];
  for (let day = new Date(`${MONTH}-03T00:00:00Z`); day < new Date('2031-02-08T00:00:00Z'); ) {
    days.push(day.toISOString().slice(0, 10));
    day = new Date(day.getTime() + (2 + Math.floor(rand() * 6)) * 86_400_000);
  }
  return days;
}

export function generateMonth(cases: number): CaseMonth {
  const rand = random(31);
  const customers = Math.max(10, Math.round(cases / 4));
  const doctors = Math.max(5, Math.round(cases / 200));
  const payments: DemoPayment[] = [];
  const doctorOf: string[] = [];
  for (let i = 0; i < cases; i++) {
    const customer = 1 + Math.floor(rand() * customers);
    payments.push({
      reference: caseId(i),
      kind: 'case',
      customerId: `00000000-0000-4000-8000-${String(customer).padStart(12, '0')}`,
      customerName: `Cliente ${customer}`,
      customerTaxId: customer % 5 === 0 ? null : String(200_000_000 + customer),
      grossCents: PRICES[Math.floor(rand() * PRICES.length)]!,
      paidOn: `${MONTH}-${String(1 + Math.floor(rand() * 31)).padStart(2, '0')}`,
      paymentIntentId: null,
      refunded: rand() < 0.01,
    });
    doctorOf.push(`00000000-0000-4000-9000-${String(1 + (i % doctors)).padStart(12, '0')}`);
  }
  const payouts = weeklyPayouts(payments, payoutDays(rand)).map((p, k) => ({ ...p, id: `po_threeway${k}` }));
  const missing = new Set(payments.filter((_, i) => i % 250 === 7).map((p) => p.reference));
  const invoiced = payments.filter((p) => !missing.has(p.reference));
  return {
    customers,
    doctors,
    payments,
    doctorOf,
    payouts,
    missing,
    stripe: new TextEncoder().encode(writeDemoStripeReport(payouts)),
    saft: new TextEncoder().encode(writeDemoSaft(MONTH, invoiced, '2031-02-01')),
    rand,
  };
}

/** The month's customers, doctors, cases and settlements (one per case, ready to settle). */
export async function seedMonth(db: Queryable, month: CaseMonth): Promise<void> {
  await db.query(
    `INSERT INTO users (id, role, email, name, tax_number)
     SELECT ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, 'CUSTOMER', 'cliente' || g || '@bench.test',
            'Cliente ' || g, CASE WHEN g % 5 = 0 THEN NULL ELSE (200000000 + g)::text END
       FROM generate_series(1, $1::int) g`,
    [month.customers],
  );
  await db.query(
    `INSERT INTO users (id, role, email, name)
     SELECT ('00000000-0000-4000-9000-' || lpad(g::text, 12, '0'))::uuid, 'PROFESSIONAL', 'medico' || g || '@bench.test', 'Médico ' || g
       FROM generate_series(1, $1::int) g`,
    [month.doctors],
  );
  const { payments } = month;
  await db.query(
    `INSERT INTO cases (id, customer_id, professional_id, status, type, price_cents, closed_at, created_at)
     SELECT p.id, p.customer, p.doctor, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', p.price, p.day::timestamptz, p.day::timestamptz
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::date[]) AS p(id, customer, doctor, price, day)`,
    [
      payments.map((p) => p.reference),
      payments.map((p) => p.customerId),
      month.doctorOf,
      payments.map((p) => p.grossCents),
      payments.map((p) => p.paidOn),
    ],
  );
  await db.query(
    `INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status,
                              payment_date, available_on, created_at)
     SELECT c.professional_id, c.id, $1, c.price_cents, round(c.price_cents * 0.16)::int,
            c.price_cents - round(c.price_cents * 0.16)::int, 'READY_TO_SETTLE', c.created_at::date, '2100-01-01', c.created_at
       FROM cases c WHERE c.id = ANY($2::uuid[])`,
    [MONTH, payments.map((p) => p.reference)],
  );
}
