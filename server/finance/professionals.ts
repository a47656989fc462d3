import type { z } from 'zod';
import type { professionalSettlementSchema, professionalSettlementsSchema } from '../../contract/finance';
import { missingProfessionalFields } from '../../domain/iban';
import { CONFIRMABLE_SETTLEMENT_STATUSES } from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import { SqlParams } from '../db/list';
import { PAYABLE_SQL } from './settlements';

export type ProfessionalSettlement = z.infer<typeof professionalSettlementSchema>;
export type ProfessionalSettlements = z.infer<typeof professionalSettlementsSchema>;

/** The statuses of settlements still to be confirmed: "cases to process". */
export const TO_PROCESS = CONFIRMABLE_SETTLEMENT_STATUSES;

interface GroupRow {
  professional_id: string;
  professional_name: string;
  full_name: string | null;
  tax_number: string | null;
  iban: string | null;
  college_number: string | null;
  reference_month: string;
  settlement_count: number | string;
  case_count: number | string;
  gross_cents: number | string | bigint;
  fee_cents: number | string | bigint;
  net_cents: number | string | bigint;
  payable_cents: number | string | bigint;
}

/** Sums come back as bigint (text or BigInt by driver); cents stay exact far beyond any real total. */
const whole = (value: number | string | bigint) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`sum out of range: ${String(value)}`);
  return n;
};

/**
 * Per doctor and reference month, the settlements waiting to be settled (READY_TO_SETTLE or AVAILABLE),
 * optionally for one month and/or one doctor: counts and amounts in integer cents, and what the doctor lacks to be paid
 * (the same `missingProfessionalFields` rule as the user view). `totals` is the sum of the items.
 */
export async function professionalSettlements(
  db: Queryable,
  filters: { referenceMonth?: string | undefined; professionalId?: string | undefined } = {},
): Promise<ProfessionalSettlements> {
  const params = new SqlParams();
  // The statuses written out, not a parameter: the planner must see that they imply the predicate of
  // the covering index `settlements_to_process_idx` (migration 0021), which answers this from the index alone.
  const where = [`s.status IN (${TO_PROCESS.map((status) => `'${status}'`).join(', ')})`];
  if (filters.referenceMonth) where.push(`s.reference_month = ${params.add(filters.referenceMonth)}`);
  if (filters.professionalId) where.push(`s.professional_id = ${params.add(filters.professionalId)}::uuid`);
  // Grouped before the join: a month of 10,000 doctors joins 10,000 users, not 100,000 settlements' worth.
  const { rows } = await db.query<GroupRow>(
    `SELECT g.professional_id, p.name AS professional_name, p.full_name, p.tax_number, p.iban, p.college_number,
            g.reference_month, g.settlement_count, g.case_count, g.gross_cents, g.fee_cents, g.net_cents,
            g.payable_cents
       FROM (SELECT s.professional_id, s.reference_month, count(*) AS settlement_count, count(s.case_id) AS case_count,
                    sum(s.gross_cents) AS gross_cents, sum(s.fee_cents) AS fee_cents, sum(s.net_cents) AS net_cents,
                    sum(${PAYABLE_SQL}) AS payable_cents
               FROM settlements s
              WHERE ${where.join(' AND ')}
              GROUP BY s.professional_id, s.reference_month) g
       JOIN users p ON p.id = g.professional_id
      ORDER BY g.reference_month DESC, p.name, g.professional_id`,
    params.values,
  );
  const items: ProfessionalSettlement[] = rows.map((row) => ({
    professionalId: row.professional_id,
    professionalName: row.professional_name,
    fullName: row.full_name,
    referenceMonth: row.reference_month,
    settlementCount: whole(row.settlement_count),
    caseCount: whole(row.case_count),
    grossCents: whole(row.gross_cents),
    feeCents: whole(row.fee_cents),
    netCents: whole(row.net_cents),
    payableCents: whole(row.payable_cents),
    currency: 'EUR',
    missingFields: missingProfessionalFields({
      fullName: row.full_name,
      taxNumber: row.tax_number,
      iban: row.iban,
      collegeNumber: row.college_number,
    }),
  }));
  const totals = {
    settlementCount: 0,
    caseCount: 0,
    grossCents: 0,
    feeCents: 0,
    netCents: 0,
    payableCents: 0,
    currency: 'EUR' as const,
  };
  for (const item of items) {
    totals.settlementCount += item.settlementCount;
    totals.caseCount += item.caseCount;
    totals.grossCents += item.grossCents;
    totals.feeCents += item.feeCents;
    totals.netCents += item.netCents;
    totals.payableCents += item.payableCents;
  }
  // Σ checked: gross = fee + net holds per row (a table constraint), so it must hold for every sum.
  for (const sum of [...items, totals])
    if (sum.grossCents !== sum.feeCents + sum.netCents)
      throw new Error('settlement sums do not add up: gross ≠ fee + net');
  return { items, totals };
}
