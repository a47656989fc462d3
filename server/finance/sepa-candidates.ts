import type { z } from 'zod';
import type {
  sepaDoctorToProcessSchema,
  sepaExclusionSchema,
  sepaToProcessSchema,
} from '../../contract/sepa';
import { missingProfessionalFields, type ProfessionalField } from '../../domain/iban';
import { type PayoutDecision, payoutDecision } from '../../domain/sepa/payout-plan';
import type { Queryable } from '../db/client';
import { decodeCursor, encodeCursor, type KeysetPosition } from '../db/list';
import {
  ACTIVE_BLOCK_COLUMNS,
  ACTIVE_BLOCK_JOIN,
  type BlockColumns,
  type PayoutBlock,
  payoutBlockOf,
} from './payout-blocks';
import { HAS_LIVE_LINK } from './settlement-status-sql';
import { PAYABLE_SQL } from './settlements';

export type SepaDoctorToProcess = z.infer<typeof sepaDoctorToProcessSchema>;
export type SepaToProcess = z.infer<typeof sepaToProcessSchema>;
export type SepaExclusion = z.infer<typeof sepaExclusionSchema>;

/** Sums come back as bigint (text or BigInt by driver); cents stay exact far beyond any real total. */
export const wholeCents = (value: number | string | bigint | null) => {
  const n = Number(value ?? 0);
  if (!Number.isSafeInteger(n)) throw new Error(`sum out of range: ${String(value)}`);
  return n;
};

/** A settlement waits for a SEPA file: shown SETTLED, i.e. stored SETTLED and in no live file. */
export const WAITING_FOR_FILE = `s.status = 'SETTLED' AND NOT ${HAS_LIVE_LINK}`;

/** A refund after payout still to recover: REFUNDED_PAID, deducted by no live transfer. */
export const RECOVERY_OUTSTANDING = `r.status = 'REFUNDED_PAID'
   AND NOT EXISTS (SELECT 1 FROM sepa_transaction_recoveries x WHERE x.settlement_id = r.id AND x.live)`;

interface CandidateRow extends BlockColumns {
  professional_id: string;
  professional_name: string;
  /** The name the kept totals sort by (the screen's page); the generation's rows have none. */
  kept_name?: string;
  full_name: string | null;
  tax_number: string | null;
  iban: string | null;
  bic_swift: string | null;
  college_number: string | null;
  settlement_count: number | string;
  owed_cents: number | string | bigint;
  recovery_cents: number | string | bigint | null;
}

/** One doctor with settlements waiting for a file in the month, and what the payout rule decides. */
export interface DoctorCandidate {
  professionalId: string;
  professionalName: string;
  /** The name the doctors are ordered by: the kept one on the screen's pages (the list's cursor). */
  sortName: string;
  fullName: string | null;
  iban: string | null;
  bic: string | null;
  settlementCount: number;
  owedCents: number;
  recoveryCents: number;
  missingFields: ProfessionalField[];
  payoutBlock: PayoutBlock | null;
  decision: PayoutDecision;
}

/**
 * Where a doctor's owed sum and count come from (`owed`'s columns either way): the settlements
 * themselves, or the kept totals — the screen's list, a page of `limit` doctors by name after `after`.
 */
export type OwedFrom = 'settlements' | { keptPage: { after: KeysetPosition | null; limit: number } };

/**
 * The doctors' SETTLED settlements of the month (`$1`) in no live file, optionally only some (`$2`):
 * summed from the settlements themselves when a file is generated — the rows it is about to claim,
 * read in its own transaction — or one page of the per-doctor-month totals that migration 0039's
 * triggers keep exact (docs/decisions/0138) for the screen, in the order of their kept name
 * (`settlement_doctor_months_page_idx`), which would otherwise sum 100,000 rows per call.
 */
function owedSql(from: OwedFrom, params: unknown[]): string {
  const onlySome = params.length > 1 ? 'AND s.professional_id = ANY($2::uuid[])' : '';
  if (from === 'settlements')
    return `SELECT s.professional_id, count(*) AS settlement_count, sum(${PAYABLE_SQL}) AS owed_cents
         FROM settlements s
        WHERE s.reference_month = $1 AND ${WAITING_FOR_FILE} ${onlySome}
        GROUP BY s.professional_id`;
  const { after, limit } = from.keptPage;
  const position = after
    ? `AND (s.professional_name, s.professional_id) > ($${params.push(after.key)}, $${params.push(after.id)}::uuid)`
    : '';
  return `SELECT s.professional_id, s.professional_name AS kept_name, s.settlements AS settlement_count,
              s.payable_cents AS owed_cents
         FROM settlement_doctor_months s
        WHERE s.stage = 'WAITING_FOR_FILE' AND s.reference_month = $1 ${onlySome} ${position}
        ORDER BY s.professional_name, s.professional_id
        LIMIT $${params.push(limit)}`;
}

/**
 * The doctors with SETTLED settlements of `referenceMonth` in no live file (optionally only some
 * doctors), each with what they are owed, what they must give back (refunds after payout, any month),
 * their missing data and payout block, and the payout rule's decision. One statement.
 */
export async function doctorCandidates(
  db: Queryable,
  referenceMonth: string,
  professionalIds?: readonly string[],
  owedFrom: OwedFrom = 'settlements',
): Promise<DoctorCandidate[]> {
  const params: unknown[] = [referenceMonth];
  if (professionalIds) params.push(professionalIds);
  const { rows } = await db.query<CandidateRow>(
    `WITH owed AS (
       ${owedSql(owedFrom, params)}
     ), recovery AS (
       SELECT r.professional_id, sum(coalesce(r.adjusted_cents, r.net_cents)) AS recovery_cents
         FROM settlements r
        WHERE r.professional_id IN (SELECT professional_id FROM owed) AND ${RECOVERY_OUTSTANDING}
        GROUP BY r.professional_id
     )
     SELECT o.professional_id, p.name AS professional_name, p.full_name, p.tax_number, p.iban, p.bic_swift,
            p.college_number, o.settlement_count, o.owed_cents, rc.recovery_cents, ${ACTIVE_BLOCK_COLUMNS}
       FROM owed o
       JOIN users p ON p.id = o.professional_id
       LEFT JOIN recovery rc ON rc.professional_id = o.professional_id
       ${ACTIVE_BLOCK_JOIN}
      ORDER BY ${owedFrom === 'settlements' ? 'p.name' : 'o.kept_name'}, o.professional_id`,
    params,
  );
  return rows.map((row) => {
    const missingFields = missingProfessionalFields({
      fullName: row.full_name,
      taxNumber: row.tax_number,
      iban: row.iban,
      collegeNumber: row.college_number,
    });
    const payoutBlock = payoutBlockOf(row);
    const owedCents = wholeCents(row.owed_cents);
    const recoveryCents = wholeCents(row.recovery_cents);
    return {
      professionalId: row.professional_id,
      professionalName: row.professional_name,
      sortName: row.kept_name ?? row.professional_name,
      fullName: row.full_name,
      iban: row.iban,
      bic: row.bic_swift,
      settlementCount: wholeCents(row.settlement_count),
      owedCents,
      recoveryCents,
      missingFields,
      payoutBlock,
      decision: payoutDecision({ owedCents, recoveryCents, missingFields, blocked: payoutBlock !== null }),
    };
  });
}

export function exclusionOf(candidate: DoctorCandidate, reason: SepaExclusion['reason']): SepaExclusion {
  return {
    professionalId: candidate.professionalId,
    professionalName: candidate.professionalName,
    fullName: candidate.fullName,
    reason,
    missingFields: candidate.missingFields,
    payoutBlock: candidate.payoutBlock,
    owedCents: candidate.owedCents,
    recoveryCents: candidate.recoveryCents,
  };
}

/** The months list's row, and the month's totals: one row of the same kept statement. */
interface MonthRow {
  reference_month: string;
  doctor_count: number | string;
  settlement_count: number | string | bigint;
  owed_cents: number | string | bigint;
}

/**
 * "Settlements to process" on /sepa, a page at a time (docs/decisions/0145): `limit` doctors of the
 * month by name after the cursor's, each with what the payout rule decides — only the page's doctors
 * are looked up —, and on every page the month's totals and the months that have any, both from the
 * kept per-doctor-month totals (a row per doctor-month, never an empty one).
 */
export async function sepaToProcess(
  db: Queryable,
  query: { referenceMonth: string; limit: number; cursor?: string | undefined },
): Promise<SepaToProcess> {
  const { referenceMonth, limit } = query;
  // A cursor belongs to its month: another month's is refused, not misread.
  const bound = { month: referenceMonth };
  const after = query.cursor ? decodeCursor(query.cursor, bound, 'text') : null;
  const [candidates, { rows: monthRows }] = await Promise.all([
    doctorCandidates(db, referenceMonth, undefined, { keptPage: { after, limit: limit + 1 } }),
    db.query<MonthRow>(
      `SELECT reference_month, count(*) AS doctor_count, sum(settlements) AS settlement_count,
              sum(payable_cents) AS owed_cents
         FROM settlement_doctor_months WHERE stage = 'WAITING_FOR_FILE'
        GROUP BY reference_month ORDER BY reference_month DESC`,
    ),
  ]);
  const page = candidates.slice(0, limit);
  const items: SepaDoctorToProcess[] = page.map((c) => ({
    professionalId: c.professionalId,
    professionalName: c.professionalName,
    fullName: c.fullName,
    referenceMonth,
    settlementCount: c.settlementCount,
    owedCents: c.owedCents,
    recoveryCents: c.recoveryCents,
    transferCents: c.decision.pay ? c.decision.transferCents : 0,
    currency: 'EUR',
    selectable: c.decision.pay,
    excludedBecause: c.decision.pay ? null : c.decision.reason,
    missingFields: c.missingFields,
    payoutBlock: c.payoutBlock,
  }));
  const month = monthRows.find((row) => row.reference_month === referenceMonth);
  const last = page.at(-1);
  return {
    referenceMonth,
    items,
    nextCursor:
      candidates.length > limit && last
        ? encodeCursor(bound, { key: last.sortName, id: last.professionalId })
        : null,
    total: wholeCents(month?.doctor_count ?? 0),
    totals: {
      doctorCount: wholeCents(month?.doctor_count ?? 0),
      settlementCount: wholeCents(month?.settlement_count ?? 0),
      owedCents: wholeCents(month?.owed_cents ?? 0),
      currency: 'EUR',
    },
    months: monthRows.map((row) => ({
      referenceMonth: row.reference_month,
      doctorCount: wholeCents(row.doctor_count),
      settlementCount: wholeCents(row.settlement_count),
    })),
  };
}
