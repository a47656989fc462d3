import type { SepaStatus } from '../../domain/sepa-status';
import type { Queryable } from '../db/client';
import { moveSettlements } from '../finance/ledger';
import { applySepaEvent, LIVE_IN_FILE, lockSepaFile } from '../finance/sepa-files';
import { excludeSepaGenerations } from '../finance/sepa-generate';
import { HAS_LIVE_LINK, isSecondLiveLink } from '../finance/settlement-status-sql';
import { rejectTransfer, type TransferRejection } from '../finance/transfer-rejection';
import { recordAudit } from '../platform/audit';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import type { Written } from './line-state';

/**
 * What a line's match means beyond the line (DESIGN §6, decision 0094), recomputed from the links
 * after every change, so matching, accepting, unmatching and undoing share one rule and unmatching
 * reverses exactly what a match did (recorded in statement_effects):
 *   - a SEPA file is PAID by the statement when its batch debit is MATCHED, or every transfer still
 *     in it is; its settlements go PAID with it. No longer so → back to the file's status before,
 *     its settlements to PENDING_TRANSFER.
 *   - a transfer is returned when a MATCHED line returns it (also after PAID): marked REJECTED with
 *     the bank's return reason, settlements back to SETTLED, the doctor blocked — the pain.002 code.
 *     No longer so → all of it put back, unless its settlements have gone into another file since.
 * Returns first: a returned transfer is no longer in its file, so it does not hold the file's payment.
 */
export async function reviewEffects(tx: Queryable, actor: Actor, touched: Written): Promise<void> {
  if (touched.transferIds.length > 0) await reviewReturns(tx, actor, touched.transferIds);
  if (touched.sepaFileIds.length > 0) await reviewPaidFiles(tx, actor, touched.sepaFileIds);
}

/** A link that counts: MATCHED, on a MATCHED line. */
const COUNTED = `m.state = 'MATCHED' AND EXISTS (SELECT 1 FROM statement_lines l WHERE l.id = m.statement_line_id AND l.status = 'MATCHED')`;

interface ReturnRow {
  id: string;
  end_to_end_id: string;
  professional_id: string;
  creditor_iban: string;
  status: 'INCLUDED' | 'REJECTED';
  sepa_file_id: string;
  msg_id: string;
  return_line_id: string | null;
  return_reason: string | null;
  effect_id: string | null;
  effect_before: TransferRejection | string | null;
}

async function reviewReturns(tx: Queryable, actor: Actor, transferIds: string[]): Promise<void> {
  const { rows } = await tx.query<ReturnRow>(
    `SELECT t.id, t.end_to_end_id, t.professional_id, t.creditor_iban, t.status, t.sepa_file_id, f.msg_id,
            r.statement_line_id AS return_line_id, r.return_reason, e.id AS effect_id, e.before AS effect_before
       FROM sepa_transactions t
       JOIN sepa_files f ON f.id = t.sepa_file_id
       LEFT JOIN LATERAL (
         SELECT m.statement_line_id, l.return_reason FROM statement_line_matches m
           JOIN statement_lines l ON l.id = m.statement_line_id
          WHERE m.sepa_transaction_id = t.id AND m.role = 'RETURN' AND ${COUNTED}
          LIMIT 1) r ON true
       LEFT JOIN statement_effects e ON e.sepa_transaction_id = t.id AND e.kind = 'TRANSFER_RETURNED' AND e.undone_at IS NULL
      WHERE t.id = ANY($1::uuid[]) ORDER BY t.id`,
    [transferIds],
  );
  for (const row of rows) {
    if (row.return_line_id && !row.effect_id && row.status === 'INCLUDED') {
      // The file is locked first, as every change of a file's settlements does.
      await lockSepaFile(tx, row.sepa_file_id);
      const rejection = await rejectTransfer(
        tx,
        actor,
        row,
        { code: row.return_reason, text: null },
        { statementLineId: row.return_line_id, sepaFileId: row.sepa_file_id, msgId: row.msg_id },
      );
      await tx.query(
        `INSERT INTO statement_effects (kind, statement_line_id, sepa_file_id, sepa_transaction_id, before, created_at)
         VALUES ('TRANSFER_RETURNED', $1, $2, $3, $4, $5)`,
        [row.return_line_id, row.sepa_file_id, row.id, JSON.stringify(rejection), actor.at],
      );
    } else if (!row.return_line_id && row.effect_id) {
      const file = await lockSepaFile(tx, row.sepa_file_id);
      const before =
        typeof row.effect_before === 'string'
          ? (JSON.parse(row.effect_before) as TransferRejection)
          : (row.effect_before as TransferRejection);
      await undoReturn(tx, actor, row, before, file.status);
      await tx.query('UPDATE statement_effects SET undone_at = $2 WHERE id = $1', [row.effect_id, actor.at]);
    }
  }
}

/**
 * The return unmatched: the transfer back in its file, its settlements as the file now is (PAID if it
 * was paid meanwhile, else PENDING_TRANSFER), unless they moved on — or the file did: an UNAVAILABLE
 * file pays nobody, so the return stays.
 */
async function undoReturn(
  tx: Queryable,
  actor: Actor,
  transfer: ReturnRow,
  before: TransferRejection,
  fileStatus: SepaStatus,
): Promise<void> {
  if (fileStatus === 'UNAVAILABLE') throw refuse('STATEMENT_UNMATCH_BLOCKED');
  const moved = [...before.fromPendingTransfer, ...before.fromPaid];
  // No generation claims or deducts them while this puts them back: both lock them FOR KEY SHARE,
  // which they share, so each would miss the other's uncommitted links.
  await excludeSepaGenerations(tx);
  // Locked before they are checked, in id order: a refund, adjustment or delete holding one is waited
  // for and then seen below; one coming after waits for this transaction and then finds the settlement
  // in its file again (PENDING_TRANSFER is the live link, decision 0119).
  await tx.query('SELECT 1 FROM settlements WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE', [
    [...moved, ...before.liveRecoveryIds],
  ]);
  const { rows: elsewhere } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM settlements s
      WHERE (s.id = ANY($1::uuid[])
             AND (s.status <> 'SETTLED'
                  OR ${HAS_LIVE_LINK}))
         OR (s.id = ANY($2::uuid[])
             AND (s.status <> 'REFUNDED_PAID'
                  OR EXISTS (SELECT 1 FROM sepa_transaction_recoveries x WHERE x.settlement_id = s.id AND x.live)))`,
    [moved, before.liveRecoveryIds],
  );
  if (elsewhere[0]!.n > 0) throw refuse('STATEMENT_UNMATCH_BLOCKED');
  // Whatever else put one in a file after the check above (generations are kept out): the unique key
  // refuses the second live link, and so does this.
  const unlessTakenMeanwhile = (error: unknown) => {
    throw isSecondLiveLink(error) ? refuse('STATEMENT_UNMATCH_BLOCKED') : error;
  };
  await tx
    .query(
      'UPDATE sepa_transaction_settlements SET live = true WHERE sepa_transaction_id = $1 AND settlement_id = ANY($2::uuid[])',
      [transfer.id, before.liveSettlementIds],
    )
    .catch(unlessTakenMeanwhile);
  await tx
    .query(
      'UPDATE sepa_transaction_recoveries SET live = true WHERE sepa_transaction_id = $1 AND settlement_id = ANY($2::uuid[])',
      [transfer.id, before.liveRecoveryIds],
    )
    .catch(unlessTakenMeanwhile);
  const context = {
    sepaFileId: transfer.sepa_file_id,
    msgId: transfer.msg_id,
    endToEndId: transfer.end_to_end_id,
  };
  if (moved.length > 0)
    await moveSettlements(
      tx,
      fileStatus === 'PAID' ? 'RETURN_UNDONE_IN_PAID_FILE' : 'RETURN_UNDONE',
      'SETTLED',
      's.id = ANY($1::uuid[])',
      [moved],
      { actor, context },
    );
  await tx.query(
    `UPDATE sepa_transactions SET status = 'INCLUDED', rejection_reason_code = NULL, rejection_reason_text = NULL,
            rejected_at = NULL, returned_by_statement_line_id = NULL
      WHERE id = $1`,
    [transfer.id],
  );
  if (before.payoutBlockId) await tx.query('DELETE FROM payout_blocks WHERE id = $1', [before.payoutBlockId]);
}

interface FileRow {
  id: string;
  status: SepaStatus;
  paid_on_statement: boolean;
  effect_id: string | null;
  effect_before: { status: SepaStatus } | string | null;
}

async function reviewPaidFiles(tx: Queryable, actor: Actor, fileIds: string[]): Promise<void> {
  const { rows } = await tx.query<FileRow>(
    `SELECT f.id, f.status, e.id AS effect_id, e.before AS effect_before,
            (EXISTS (SELECT 1 FROM statement_line_matches m WHERE m.sepa_file_id = f.id AND ${COUNTED})
             OR (EXISTS (SELECT 1 FROM sepa_transactions t WHERE t.sepa_file_id = f.id AND t.status = 'INCLUDED')
                 AND NOT EXISTS (
                   SELECT 1 FROM sepa_transactions t WHERE t.sepa_file_id = f.id AND t.status = 'INCLUDED'
                      AND NOT EXISTS (SELECT 1 FROM statement_line_matches m
                                       WHERE m.sepa_transaction_id = t.id AND m.role = 'PAYMENT' AND ${COUNTED})))
            ) AS paid_on_statement
       FROM sepa_files f
       LEFT JOIN statement_effects e ON e.sepa_file_id = f.id AND e.kind = 'SEPA_FILE_PAID' AND e.undone_at IS NULL
      WHERE f.id = ANY($1::uuid[]) ORDER BY f.id`,
    [fileIds],
  );
  for (const row of rows) {
    if (
      row.paid_on_statement &&
      !row.effect_id &&
      (row.status === 'GENERATED' || row.status === 'AVAILABLE')
    ) {
      const file = await lockSepaFile(tx, row.id);
      const status = await applySepaEvent(tx, actor, file, 'PAID', { paidBy: 'statement' });
      await tx.query(
        `INSERT INTO statement_effects (kind, sepa_file_id, before, created_at) VALUES ('SEPA_FILE_PAID', $1, $2, $3)`,
        [row.id, JSON.stringify({ status: file.status }), actor.at],
      );
      await recordAudit(tx, {
        actorId: actor.userId,
        action: 'sepa.paid-by-statement',
        entityType: 'sepa_file',
        entityId: row.id,
        before: { status: file.status },
        after: { status },
        at: actor.at,
      });
    } else if (!row.paid_on_statement && row.effect_id) {
      const file = await lockSepaFile(tx, row.id);
      const before =
        typeof row.effect_before === 'string'
          ? (JSON.parse(row.effect_before) as { status: SepaStatus })
          : row.effect_before!;
      await moveSettlements(tx, 'SEPA_PAID_UNDONE', 'PAID', LIVE_IN_FILE, [row.id], {
        actor,
        context: { sepaFileId: row.id, msgId: file.msg_id },
      });
      await tx.query('UPDATE sepa_files SET status = $2, updated_at = $3 WHERE id = $1', [
        row.id,
        before.status,
        actor.at,
      ]);
      await tx.query('UPDATE statement_effects SET undone_at = $2 WHERE id = $1', [row.effect_id, actor.at]);
      await recordAudit(tx, {
        actorId: actor.userId,
        action: 'sepa.paid-by-statement-undone',
        entityType: 'sepa_file',
        entityId: row.id,
        before: { status: file.status },
        after: { status: before.status },
        at: actor.at,
      });
    }
  }
}
