import { normalizeIban } from '../../domain/iban';
import { blocksPayouts } from '../../domain/sepa/reason-codes';
import type { Queryable } from '../db/client';
import { recordAudit } from '../platform/audit';
import type { Actor } from '../platform/mutation';
import { moveSettlements } from './ledger';

export interface RejectedTransferRow {
  id: string;
  end_to_end_id: string;
  professional_id: string;
  creditor_iban: string;
}

export interface TransferReason {
  code: string | null;
  text: string | null;
}

/** Who says the transfer's money did not reach the doctor: the bank's pain.002, or a return on a statement. */
export type RejectionSource =
  | { statusReportId: string; reportMessageId: string; sepaFileId: string; msgId: string }
  | { statementLineId: string; sepaFileId: string; msgId: string };

/** What the rejection changed, so a return unmatched later can put exactly that back. */
export interface TransferRejection {
  /** Settlements moved back to SETTLED, by the status they had. */
  fromPendingTransfer: string[];
  fromPaid: string[];
  /** Settlement and recovery links that were live and no longer are. */
  liveSettlementIds: string[];
  liveRecoveryIds: string[];
  /** null: the reason says nothing against the doctor's account, so no block was made. */
  payoutBlockId: string | null;
}

/**
 * A transfer whose money did not reach the doctor — rejected by the bank's pain.002 before payment,
 * or returned on a statement, also after the file was PAID (decisions 0070, 0071, 0094): marked
 * REJECTED with its reason (an ISO code the console translates as `bankReasons.<CODE>`), its
 * settlements back to SETTLED (payable again), its recoveries owed again, and — for an account reason
 * only (`blocksPayouts`, decision 0123) — the doctor's payouts blocked for that IBAN. Inside the
 * caller's transaction, with its audit rows.
 */
export async function rejectTransfer(
  tx: Queryable,
  actor: Actor,
  transfer: RejectedTransferRow,
  reason: TransferReason,
  source: RejectionSource,
): Promise<TransferRejection> {
  const returned = 'statementLineId' in source;
  const context = { ...source, endToEndId: transfer.end_to_end_id, reasonCode: reason.code };
  const event = returned ? 'TRANSFER_RETURNED' : 'TRANSFER_REJECTED';
  const selection =
    's.id IN (SELECT l.settlement_id FROM sepa_transaction_settlements l WHERE l.sepa_transaction_id = $1 AND l.live)';
  const fromPendingTransfer = await moveSettlements(tx, event, 'PENDING_TRANSFER', selection, [transfer.id], {
    actor,
    context,
  });
  // Only a return can come after payment: a pain.002 is refused once the file is PAID.
  const fromPaid = returned
    ? await moveSettlements(tx, 'TRANSFER_RETURNED', 'PAID', selection, [transfer.id], { actor, context })
    : [];
  const { rows: links } = await tx.query<{ settlement_id: string }>(
    'UPDATE sepa_transaction_settlements SET live = false WHERE sepa_transaction_id = $1 AND live RETURNING settlement_id',
    [transfer.id],
  );
  const { rows: recoveries } = await tx.query<{ settlement_id: string }>(
    'UPDATE sepa_transaction_recoveries SET live = false WHERE sepa_transaction_id = $1 AND live RETURNING settlement_id',
    [transfer.id],
  );
  await tx.query(
    `UPDATE sepa_transactions SET status = 'REJECTED', rejection_reason_code = $2, rejection_reason_text = $3,
            rejected_at = $4, returned_by_statement_line_id = $5
      WHERE id = $1`,
    [transfer.id, reason.code, reason.text, actor.at, returned ? source.statementLineId : null],
  );
  // Rejected before payment, the transfer leaves what the bank will debit for its file (migration
  // 0036): the batch debit of the accepted total then matches exactly. A return comes after the debit.
  if (!returned)
    await tx.query(
      `UPDATE sepa_files f SET rejected_cents = f.rejected_cents + t.amount_cents
         FROM sepa_transactions t WHERE t.id = $1 AND f.id = t.sepa_file_id`,
      [transfer.id],
    );
  const payoutBlockId = blocksPayouts(reason.code)
    ? await blockPayouts(tx, actor, transfer, reason, source, context)
    : null;
  return {
    fromPendingTransfer: fromPendingTransfer.map((s) => s.id),
    fromPaid: fromPaid.map((s) => s.id),
    liveSettlementIds: links.map((l) => l.settlement_id),
    liveRecoveryIds: recoveries.map((r) => r.settlement_id),
    payoutBlockId,
  };
}

/** The doctor's payouts blocked for the IBAN the bank refused (decision 0070), audited: the block's id. */
async function blockPayouts(
  tx: Queryable,
  actor: Actor,
  transfer: RejectedTransferRow,
  reason: TransferReason,
  source: RejectionSource,
  context: Record<string, unknown>,
): Promise<string> {
  const returned = 'statementLineId' in source;
  const { rows: block } = await tx.query<{ id: string }>(
    `INSERT INTO payout_blocks (professional_id, blocked_iban, reason_code, reason_text, sepa_transaction_id,
                                sepa_status_report_id, statement_line_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      transfer.professional_id,
      normalizeIban(transfer.creditor_iban),
      reason.code,
      reason.text,
      transfer.id,
      returned ? null : source.statusReportId,
      returned ? source.statementLineId : null,
      actor.at,
    ],
  );
  await recordAudit(tx, {
    actorId: actor.userId,
    action: 'professional.payout-blocked',
    entityType: 'user',
    entityId: transfer.professional_id,
    after: { ...context, iban: transfer.creditor_iban },
    at: actor.at,
  });
  return block[0]!.id;
}
