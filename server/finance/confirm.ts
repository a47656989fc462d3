import type { z } from 'zod';
import type { settlementConfirmResultSchema, settlementConfirmSchema } from '../../contract/finance';
import { missingProfessionalFields } from '../../domain/iban';
import { sumCents } from '../../domain/money';
import { CONFIRMABLE_SETTLEMENT_STATUSES } from '../../domain/settlement-status';
import type { Database, Queryable } from '../db/client';
import { type IdempotentRequest, idempotentMutation } from '../platform/idempotency';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { confirmSettlementRows } from './ledger';
import { lockSettlements, payableCents } from './settlement-rows';

export type SettlementConfirmRequest = z.output<typeof settlementConfirmSchema>;
export type SettlementConfirmResult = z.infer<typeof settlementConfirmResultSchema>;

/** The specification's strings, answered as `message` beside the code. */
export const SELECT_ONE_DOCTOR_MESSAGE = 'Select one Doctor ID';
export const MISSING_DATA_MESSAGE =
  'The missing professional information cannot allow the conclusion of the settlement process';

/** The doctor's month as the "settle a doctor" screen would show it now: what is still to settle. */
async function monthToSettle(tx: Queryable, professionalId: string, referenceMonth: string) {
  const { rows } = await tx.query<{ count: number; total: number | null }>(
    `SELECT count(*)::int AS count, sum(coalesce(adjusted_cents, net_cents))::bigint AS total
       FROM settlements
      WHERE professional_id = $1 AND reference_month = $2 AND status = ANY($3::text[])`,
    [professionalId, referenceMonth, CONFIRMABLE_SETTLEMENT_STATUSES],
  );
  return { currentCount: rows[0]!.count, currentTotalCents: Number(rows[0]!.total ?? 0) };
}

async function requireSettleableProfessional(tx: Queryable, professionalId: string): Promise<void> {
  // FOR SHARE: the payment data cannot change between this check and the commit.
  const { rows } = await tx.query<{
    role: string;
    full_name: string | null;
    tax_number: string | null;
    iban: string | null;
    college_number: string | null;
  }>('SELECT role, full_name, tax_number, iban, college_number FROM users WHERE id = $1 FOR SHARE', [
    professionalId,
  ]);
  const professional = rows[0];
  if (!professional) throw refuse('USER_NOT_FOUND');
  if (professional.role !== 'PROFESSIONAL') throw refuse('NOT_A_PROFESSIONAL');
  const missingFields = missingProfessionalFields({
    fullName: professional.full_name,
    taxNumber: professional.tax_number,
    iban: professional.iban,
    collegeNumber: professional.college_number,
  });
  if (missingFields.length > 0)
    throw refuse('PROFESSIONAL_MISSING_DATA', { extra: { message: MISSING_DATA_MESSAGE, missingFields } });
}

/**
 * "Confirm the value" of a doctor's month (DESIGN §6 READY_TO_SETTLE|AVAILABLE → SETTLED): in one
 * transaction the included settlements are locked (id order), checked against what the admin saw
 * (count and total after their adjustments), adjusted and settled, each with its audit row, plus one
 * row for the confirmation itself. Any refusal leaves everything as it was (docs/decisions/0066).
 */
export async function confirmSettlements(
  db: Database,
  actor: Actor,
  request: SettlementConfirmRequest,
  idempotency: IdempotentRequest | null = null,
): Promise<SettlementConfirmResult> {
  const professionalId = request.professionalId;
  if (!professionalId) throw refuse('SELECT_ONE_DOCTOR', { extra: { message: SELECT_ONE_DOCTOR_MESSAGE } });
  const { referenceMonth, settlementIds } = request;
  const audit = { action: 'settlement.confirm', entityType: 'professional' } as const;
  return idempotentMutation(db, actor, audit, idempotency, async (tx) => {
    await requireSettleableProfessional(tx, professionalId);
    const rows = await lockSettlements(tx, settlementIds);

    const foreign = rows.filter(
      (row) => row.professionalId !== professionalId || row.referenceMonth !== referenceMonth,
    );
    if (foreign.length > 0)
      throw refuse('SETTLEMENT_NOT_IN_SELECTION', { extra: { settlementIds: foreign.map((row) => row.id) } });

    const settleable = rows.filter((row) => CONFIRMABLE_SETTLEMENT_STATUSES.includes(row.status));
    if (settleable.length !== settlementIds.length) {
      const found = new Set(settleable.map((row) => row.id));
      throw refuse('SETTLEMENT_NOT_SETTLEABLE', {
        extra: {
          settlementIds: settlementIds.filter((id) => !found.has(id)),
          ...(await monthToSettle(tx, professionalId, referenceMonth)),
        },
      });
    }

    const adjustments = new Map(request.adjustments.map((a) => [a.settlementId, a]));
    const aboveGross = rows.filter((row) => (adjustments.get(row.id)?.adjustedCents ?? 0) > row.grossCents);
    if (aboveGross.length > 0)
      throw refuse('ADJUSTMENT_ABOVE_GROSS', { extra: { settlementIds: aboveGross.map((row) => row.id) } });

    const confirmations = rows.map((row) => {
      const adjustment = adjustments.get(row.id);
      return {
        row,
        adjustedCents: adjustment ? adjustment.adjustedCents : row.adjustedCents,
        adjustmentNote: adjustment ? adjustment.note : row.adjustmentNote,
      };
    });
    const totalCents = sumCents(
      confirmations.map(({ row, adjustedCents }) => payableCents({ netCents: row.netCents, adjustedCents })),
    );
    if (totalCents !== request.expectedTotalCents)
      throw refuse('SETTLEMENT_TOTAL_CHANGED', {
        extra: await monthToSettle(tx, professionalId, referenceMonth),
      });

    await confirmSettlementRows(tx, actor, confirmations);
    const ids = rows.map((row) => row.id);
    return {
      entityId: professionalId,
      after: { referenceMonth, settlementIds: ids, totalCents, adjustments: request.adjustments },
      result: {
        professionalId,
        referenceMonth,
        settledCount: ids.length,
        totalCents,
        currency: 'EUR',
        settlementIds: ids,
      },
    };
  });
}
