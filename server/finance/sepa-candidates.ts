import type { z } from 'zod';
import type {
  sepaDoctorToProcessSchema,
  sepaExclusionSchema,
  sepaToProcessSchema,
} from '../../contract/sepa';
import { missingProfessionalFields, type ProfessionalField } from '../../domain/iban';
import { type PayoutDecision, payoutDecision } from '../../domain/sepa/payout-plan';
import type { Queryable } from '../db/client';
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

/** Where a doctor's owed sum and count come from (`owed`'s columns either way). */
export type OwedFrom = 'settlements' | 'kept totals';

/**
 * The doctors' SETTLED settlements of the month (`$1`) in no live file, optionally only some (`$2`):
 * summed from the settlements themselves when a file is generated — the rows it is about to claim,
 * read in its own transaction — or read from the per-doctor-month totals that migration 0039's
 * triggers keep exact (docs/decisions/0138) for the screen, which would otherwise sum 100,000 rows per call.
 */
function owedSql(from: OwedFrom, onlySome: boolean): string {
  if (from === 'kept totals')
    return `SELECT s.professional_id, s.settlements AS settlement_count, s.payable_cents AS owed_cents
         FROM settlement_doctor_months s
        WHERE s.stage = 'WAITING_FOR_FILE' AND s.reference_month = $1
              ${onlySome ? 'AND s.professional_id = ANY($2::uuid[])' : ''}`;
  return `SELECT s.professional_id, count(*) AS settlement_count, sum(${PAYABLE_SQL}) AS owed_cents
         FROM settlements s
        WHERE s.reference_month = $1 AND ${WAITING_FOR_FILE}
              ${onlySome ? 'AND s.professional_id = ANY($2::uuid[])' : ''}
        GROUP BY s.professional_id`;
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
       ${owedSql(owedFrom, professionalIds !== undefined)}
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
      ORDER BY p.name, o.professional_id`,
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
    reason,
    missingFields: candidate.missingFields,
    payoutBlock: candidate.payoutBlock,
    owedCents: candidate.owedCents,
    recoveryCents: candidate.recoveryCents,
  };
}

/**
 * "Settlements to process" on /sepa: per doctor for one month, with the months that have any — both
 * read from the kept per-doctor-month totals (a row per doctor-month, never an empty one).
 */
export async function sepaToProcess(db: Queryable, referenceMonth: string): Promise<SepaToProcess> {
  const candidates = await doctorCandidates(db, referenceMonth, undefined, 'kept totals');
  const items: SepaDoctorToProcess[] = candidates.map((c) => ({
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
  const totals = {
    doctorCount: items.length,
    selectableCount: 0,
    settlementCount: 0,
    owedCents: 0,
    recoveryCents: 0,
    transferCents: 0,
    currency: 'EUR' as const,
  };
  for (const item of items) {
    totals.settlementCount += item.settlementCount;
    totals.owedCents += item.owedCents;
    if (!item.selectable) continue;
    totals.selectableCount++;
    totals.recoveryCents += item.recoveryCents;
    totals.transferCents += item.transferCents;
  }
  const { rows } = await db.query<{
    reference_month: string;
    doctor_count: string;
    settlement_count: string;
  }>(
    `SELECT reference_month, count(*) AS doctor_count, sum(settlements) AS settlement_count
       FROM settlement_doctor_months WHERE stage = 'WAITING_FOR_FILE'
      GROUP BY reference_month ORDER BY reference_month DESC`,
  );
  const months = rows.map((row) => ({
    referenceMonth: row.reference_month,
    doctorCount: wholeCents(row.doctor_count),
    settlementCount: wholeCents(row.settlement_count),
  }));
  return { referenceMonth, items, totals, months };
}
