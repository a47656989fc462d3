import type { z } from 'zod';
import type {
  settlementBulkDeleteResultSchema,
  settlementItemSchema,
  settlementPatchSchema,
} from '../../contract/finance';
import type { AuditAction } from '../../contract/statuses';
import { canAdjustSettlement, canDeleteSettlement } from '../../domain/settlement-status';
import type { Database, Queryable } from '../db/client';
import { type Actor, mutation } from '../platform/mutation';
import { type RefusalCode, refuse } from '../platform/refusal';
import { refundSettlementRow } from './ledger';
import {
  auditSnapshot,
  type LockedSettlement,
  lockSettlement,
  lockSettlements,
  recordSettlementAudits,
} from './settlement-rows';
import { findSettlement } from './settlements';

export type SettlementPatch = z.output<typeof settlementPatchSchema>;
export type SettlementItem = z.infer<typeof settlementItemSchema>;
export type BulkDeleteResult = z.infer<typeof settlementBulkDeleteResultSchema>;

const ENTITY = 'settlement';

/**
 * Writes the columns a management change may touch, and answers the settlement as the list shows it.
 * Not the status: a change of status is the ledger's (docs/decisions/0133), made by `change`.
 */
async function writeSettlement(tx: Queryable, row: LockedSettlement, at: Date): Promise<SettlementItem> {
  await tx.query(
    `UPDATE settlements
        SET adjusted_cents = $2, adjustment_note = $3, notes = $4, invoice_file_id = $5, updated_at = $6
      WHERE id = $1`,
    [row.id, row.adjustedCents, row.adjustmentNote, row.notes, row.invoiceFileId, at],
  );
  const item = await findSettlement(tx, row.id);
  if (!item) throw new Error(`settlement ${row.id} vanished inside its own transaction`);
  return item;
}

/**
 * A change of one settlement, locked, with its audit row (before → after) in the same transaction.
 * `change` answers the row as it becomes; a change of status it makes through the ledger first.
 */
export function changeSettlement(
  db: Database,
  actor: Actor,
  action: AuditAction,
  id: string,
  change: (row: LockedSettlement, tx: Queryable) => LockedSettlement | Promise<LockedSettlement>,
): Promise<SettlementItem> {
  return mutation(db, actor, { action, entityType: ENTITY }, async (tx) => {
    const before = await lockSettlement(tx, id);
    const after = await change(before, tx);
    return {
      entityId: id,
      before: auditSnapshot(before),
      after: auditSnapshot(after),
      result: await writeSettlement(tx, after, actor.at),
    };
  });
}

/**
 * Adjust the payout (with its note) or clear the adjustment, and/or set the notes. The amount may change
 * only before PENDING_TRANSFER (what a SEPA file already carries is not rewritten) and never above what
 * the customer paid (docs/decisions/0067); notes may change in any status.
 */
export function patchSettlement(db: Database, actor: Actor, id: string, patch: SettlementPatch) {
  return changeSettlement(db, actor, 'settlement.update', id, (row) => {
    const next = { ...row };
    if (patch.adjustedCents !== undefined) {
      if (!canAdjustSettlement(row.status)) throw refuse('SETTLEMENT_NOT_ADJUSTABLE');
      if (patch.adjustedCents !== null && patch.adjustedCents > row.grossCents)
        throw refuse('ADJUSTMENT_ABOVE_GROSS', { extra: { settlementIds: [row.id] } });
      next.adjustedCents = patch.adjustedCents;
      next.adjustmentNote = patch.adjustedCents === null ? null : (patch.adjustmentNote ?? null);
    }
    if (patch.notes !== undefined) next.notes = patch.notes === '' ? null : patch.notes;
    return next;
  });
}

/**
 * The customer was refunded (DESIGN §6): READY_TO_SETTLE|AVAILABLE|SETTLED → REFUNDED; PAID →
 * REFUNDED_PAID, whose payable amount is then to recover from the doctor (deducted by the next SEPA
 * transfer). Refused in PENDING_TRANSFER (the money is with the bank) and once refunded.
 */
export function refundSettlement(db: Database, actor: Actor, id: string, note: string | undefined) {
  return changeSettlement(db, actor, 'settlement.refund', id, async (row, tx) => {
    const status = await refundSettlementRow(tx, row, actor.at);
    const notes = note === undefined ? row.notes : [row.notes, note].filter(Boolean).join('\n');
    return { ...row, status, notes };
  });
}

/** Why this settlement cannot be deleted, or null (DESIGN §6: before PENDING_TRANSFER only). */
async function deletionRefusal(tx: Queryable, row: LockedSettlement): Promise<RefusalCode | null> {
  if (!canDeleteSettlement(row.status)) return 'SETTLEMENT_NOT_DELETABLE';
  // A SETTLED settlement may come back from a file the bank refused: that file's history keeps it.
  const { rows } = await tx.query(
    'SELECT 1 FROM sepa_transaction_settlements WHERE settlement_id = $1 LIMIT 1',
    [row.id],
  );
  return rows.length > 0 ? 'SETTLEMENT_HAS_PAYOUT_HISTORY' : null;
}

async function deleteRows(tx: Queryable, rows: readonly LockedSettlement[]): Promise<void> {
  await tx.query('DELETE FROM settlements WHERE id = ANY($1::uuid[])', [rows.map((row) => row.id)]);
}

export function deleteSettlement(db: Database, actor: Actor, id: string): Promise<void> {
  return mutation(db, actor, { action: 'settlement.delete', entityType: ENTITY }, async (tx) => {
    const row = await lockSettlement(tx, id);
    const refusal = await deletionRefusal(tx, row);
    if (refusal) throw refuse(refusal);
    await deleteRows(tx, [row]);
    return { entityId: id, before: { ...auditSnapshot(row), ...row }, result: undefined };
  });
}

/**
 * Deletes a selection in one transaction, row by row on its own merits (docs/decisions/0067): the
 * deletable ones go, each with its audit row; the others stay and are answered with the reason. Ids
 * that do not exist are answered SETTLEMENT_NOT_FOUND. The selection's own audit row lists both.
 */
export function bulkDeleteSettlements(
  db: Database,
  actor: Actor,
  ids: readonly string[],
): Promise<BulkDeleteResult> {
  return mutation(db, actor, { action: 'settlement.bulk-delete', entityType: ENTITY }, async (tx) => {
    const rows = await lockSettlements(tx, ids);
    const found = new Set(rows.map((row) => row.id));
    const refused: BulkDeleteResult['refused'] = ids
      .filter((id) => !found.has(id))
      .map((settlementId) => ({ settlementId, code: 'SETTLEMENT_NOT_FOUND' }));
    const deletable: LockedSettlement[] = [];
    for (const row of rows) {
      const code = await deletionRefusal(tx, row);
      if (code) refused.push({ settlementId: row.id, code });
      else deletable.push(row);
    }
    await deleteRows(tx, deletable);
    await recordSettlementAudits(
      tx,
      actor,
      'settlement.delete',
      deletable.map((row) => ({ id: row.id, before: { ...row }, after: null })),
    );
    const deleted = deletable.map((row) => row.id);
    return { entityId: 'selection', after: { deleted, refused }, result: { deleted, refused } };
  });
}
