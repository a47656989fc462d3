import type { z } from 'zod';
import type { professionalSettlementSchema, professionalSettlementsSchema } from '../../contract/finance';
import { missingProfessionalFields } from '../../domain/iban';
import type { Queryable } from '../db/client';
import {
  type CursorBound,
  decodeCursor,
  encodeCursor,
  invalidCursor,
  SqlParams,
  whereClause,
} from '../db/list';

export type ProfessionalSettlement = z.infer<typeof professionalSettlementSchema>;
export type ProfessionalSettlements = z.infer<typeof professionalSettlementsSchema>;

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

type Sums = Record<
  'settlement_count' | 'case_count' | 'gross_cents' | 'fee_cents' | 'net_cents' | 'payable_cents',
  number | string | bigint | null
>;

/** Sums come back as bigint (text or BigInt by driver); cents stay exact far beyond any real total. */
const whole = (value: number | string | bigint | null) => {
  const n = Number(value ?? 0);
  if (!Number.isSafeInteger(n)) throw new Error(`sum out of range: ${String(value)}`);
  return n;
};

const amountsOf = (row: Sums) => ({
  settlementCount: whole(row.settlement_count),
  caseCount: whole(row.case_count),
  grossCents: whole(row.gross_cents),
  feeCents: whole(row.fee_cents),
  netCents: whole(row.net_cents),
  payableCents: whole(row.payable_cents),
});

/** A kept doctor-month's sums (migration 0039), named as `Sums` reads them. */
const SUMS = `s.settlements AS settlement_count, s.cases AS case_count, s.gross_cents, s.fee_cents, s.net_cents,
  s.payable_cents`;

/**
 * A page's position: the last doctor-month's month and the doctor's name, and the doctor's id.
 * The cursor's `key` is the month (always `YYYY-MM`, 7 characters) followed by the name.
 */
function positionOf(cursor: string | undefined, bound: CursorBound) {
  if (!cursor) return null;
  const { key, id } = decodeCursor(cursor, bound, 'text');
  const month = key.slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw invalidCursor();
  return { month, name: key.slice(7), id };
}

export interface ProfessionalSettlementsQuery {
  referenceMonth?: string | undefined;
  professionalId?: string | undefined;
  /** Part of the doctor's name or full name. */
  q?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/**
 * "Cases to process", a page at a time (docs/decisions/0088): per doctor and reference month, the
 * settlements waiting to be settled (READY_TO_SETTLE or AVAILABLE), optionally for one month, one
 * doctor and/or doctors whose name or full name contains `q` — counts and amounts in integer cents, and what the doctor lacks to be paid (the same
 * `missingProfessionalFields` rule as the user view). Newest month first, then by name; `total` and
 * `totals` cover every doctor-month of the filters, exactly, on every request.
 *
 * Both statements read the per-doctor-month totals that migration 0039's triggers keep exact in the
 * same transaction as the settlements (docs/decisions/0138): the totals a row per doctor-month of the
 * filters, the page its own rows, instead of the 100,000 settlements of a month summed per call.
 */
export async function professionalSettlements(
  db: Queryable,
  query: ProfessionalSettlementsQuery,
): Promise<ProfessionalSettlements> {
  const params = new SqlParams();
  const where = [`s.stage = 'TO_PROCESS'`];
  if (query.referenceMonth) where.push(`s.reference_month = ${params.add(query.referenceMonth)}`);
  if (query.professionalId) where.push(`s.professional_id = ${params.add(query.professionalId)}::uuid`);
  const q = query.q?.trim() ?? '';
  if (q) {
    const pattern = params.add(`%${q.replace(/[\\%_]/g, '\\$&')}%`);
    where.push(
      `s.professional_id IN (SELECT u.id FROM users u WHERE u.name ILIKE ${pattern} OR u.full_name ILIKE ${pattern})`,
    );
  }
  // A cursor belongs to its filters and search: another list's is refused, not misread.
  const bound = { month: query.referenceMonth ?? '', doctor: query.professionalId ?? '', q };
  const position = positionOf(query.cursor, bound);

  const totalsStatement = db.query<Sums & { doctor_months: number | string }>(
    `SELECT count(*) AS doctor_months, sum(s.settlements) AS settlement_count, sum(s.cases) AS case_count,
            sum(s.gross_cents) AS gross_cents, sum(s.fee_cents) AS fee_cents, sum(s.net_cents) AS net_cents,
            sum(s.payable_cents) AS payable_cents
       FROM settlement_doctor_months s WHERE ${where.join(' AND ')}`,
    params.values,
  );
  const pageParams = new SqlParams();
  pageParams.values.push(...params.values);
  if (position)
    where.push(
      `(s.reference_month < ${pageParams.add(position.month)} OR (s.reference_month = $${pageParams.values.length}
         AND (s.professional_name, s.professional_id) > (${pageParams.add(position.name)}, ${pageParams.add(position.id)}::uuid)))`,
    );
  // The page in the kept order (month, then the doctor's name kept beside the totals): read from
  // `settlement_doctor_months_page_idx`, then only its doctors looked up for what they lack to be paid.
  const pageStatement = db.query<GroupRow>(
    `SELECT s.professional_id, s.professional_name, p.full_name, p.tax_number, p.iban, p.college_number,
            s.reference_month, ${SUMS}
       FROM (SELECT s.* FROM settlement_doctor_months s
              ${whereClause(where)}
              ORDER BY s.reference_month DESC, s.professional_name, s.professional_id
              LIMIT ${pageParams.add(query.limit + 1)}) s
       JOIN users p ON p.id = s.professional_id
      ORDER BY s.reference_month DESC, s.professional_name, s.professional_id`,
    pageParams.values,
  );
  const [{ rows: totalRows }, { rows }] = await Promise.all([totalsStatement, pageStatement]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const items: ProfessionalSettlement[] = page.map((row) => ({
    professionalId: row.professional_id,
    professionalName: row.professional_name,
    fullName: row.full_name,
    referenceMonth: row.reference_month,
    ...amountsOf(row),
    currency: 'EUR',
    missingFields: missingProfessionalFields({
      fullName: row.full_name,
      taxNumber: row.tax_number,
      iban: row.iban,
      collegeNumber: row.college_number,
    }),
  }));
  const totals = { ...amountsOf(totalRows[0]!), currency: 'EUR' as const };
  // Σ checked: gross = fee + net holds per row (a table constraint), so it must hold for every sum.
  for (const sum of [...items, totals])
    if (sum.grossCents !== sum.feeCents + sum.netCents)
      throw new Error('settlement sums do not add up: gross ≠ fee + net');
  return {
    items,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(bound, {
            key: `${last.reference_month}${last.professional_name}`,
            id: last.professional_id,
          })
        : null,
    total: whole(totalRows[0]!.doctor_months),
    totals,
  };
}
