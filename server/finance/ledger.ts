import type { AuditAction } from '../../contract/statuses';
import { todayInLisbon } from '../../domain/business-days';
import {
  nextSettlementStatus,
  refundedSettlementStatus,
  type SettlementEvent,
  type SettlementStatus,
} from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { auditSnapshot, type LockedSettlement, recordSettlementAudits } from './settlement-rows';
import { HAS_LIVE_LINK, storedStatus } from './settlement-status-sql';
import { PAYABLE_SQL } from './settlements';

/*
 * The ledger: the one server module that writes a settlement's stored status (docs/decisions/0133). Every
 * move is named by its event in `domain/settlement-status.ts`, which says where it leads; each
 * function here makes one kind of move with its audit row in the caller's transaction.
 * `tests/unit/server/ledger.test.ts` fails on SQL writing the column anywhere else in server/ (the
 * seed and the migrations' history excepted).
 *
 * PENDING_TRANSFER is not stored (decision 0119): entering or leaving it is the SEPA link's change,
 * which its owner writes (the claim in sepa-generate.ts, a rejection in transfer-rejection.ts, a
 * return's undo in statements/effects.ts); the ledger audits those moves and writes the moves that
 * change the stored status.
 */

/** The events a SEPA file, transfer or statement line causes for the settlements in it, by audit action. */
const FILE_EVENT_ACTIONS = {
  SEPA_PAID: 'settlement.paid',
  SEPA_UNAVAILABLE: 'settlement.sepa-unavailable',
  SEPA_DELETED: 'settlement.sepa-deleted',
  TRANSFER_REJECTED: 'settlement.transfer-rejected',
  TRANSFER_RETURNED: 'settlement.transfer-returned',
  RETURN_UNDONE: 'settlement.return-undone',
  RETURN_UNDONE_IN_PAID_FILE: 'settlement.return-undone',
  SEPA_PAID_UNDONE: 'settlement.paid-undone',
} as const satisfies Partial<Record<SettlementEvent, AuditAction>>;
export type FileEvent = keyof typeof FILE_EVENT_ACTIONS;

export interface FileMove {
  actor: Actor;
  /** Merged into the audit row's `after`; the file is the row's entity. */
  context: { sepaFileId: string } & Record<string, unknown>;
}

export interface MovedSettlement {
  id: string;
  professional_id: string;
  payable_cents: number;
}

/** Where `event` takes a settlement in `from`; a move the domain table does not list is a bug, not a refusal. */
function destination(from: SettlementStatus, event: SettlementEvent): SettlementStatus {
  const to = nextSettlementStatus(from, event);
  if (to === null)
    throw new Error(`settlement move ${event} from ${from} is not in domain/settlement-status.ts`);
  return to;
}

/**
 * Moves the settlements `selection` picks (an SQL predicate on `s`, with `params` as $1…) in `from` by
 * a file's `event` along DESIGN §6, in one statement with its audit — so 100,000 moves and their
 * history commit together with the caller's transaction, or not at all. Only rows still in `from`
 * move (re-checked under the row lock), and the moved rows are answered for the caller to check
 * against what it expected.
 *
 * `from` and the destination are statuses as shown. PENDING_TRANSFER is not stored (decision 0119): it
 * is a SETTLED row with a live SEPA link. So a row leaves PENDING_TRANSFER only while it still has its
 * live link, and a move between PENDING_TRANSFER and SETTLED writes no settlement row at all — the
 * caller's link change is the move, and this only audits the rows that have a live link when it is
 * called (before the link ends; after it begins).
 *
 * The rows are picked first and updated through the primary key with `= ANY(ARRAY(…))`, which a
 * B-tree scan walks in sorted order: rows are locked in id order (decision 0066) and each index gets
 * its new entries in key order instead of at random — at a million settlements, a tenth of the pages
 * read and written (docs/decisions/0080).
 *
 * The audit is one row on the SEPA file (`before`/`after` status, the count moved, the context) and
 * one `audit_log_entities` row per moved settlement naming it, which is how a settlement's history
 * finds the move (migration 0021, docs/decisions/0080): a row per settlement in the log itself costs
 * six index entries and a foreign-key check each, most of a 100,000-settlement file's generation.
 * Nothing moved, nothing audited.
 */
export async function moveSettlements(
  tx: Queryable,
  event: FileEvent,
  fromStatus: SettlementStatus,
  selection: string,
  params: readonly unknown[],
  move: FileMove,
): Promise<MovedSettlement[]> {
  const toStatus = destination(fromStatus, event);
  const values = [...params];
  const add = (value: unknown) => `$${values.push(value)}`;
  const from = add(storedStatus(fromStatus));
  const linkOnly = storedStatus(fromStatus) === storedStatus(toStatus);
  const withLiveLink = linkOnly || fromStatus === 'PENDING_TRANSFER';
  const picked = `SELECT s.id FROM settlements s WHERE s.status = ${from} AND (${selection})${withLiveLink ? ` AND ${HAS_LIVE_LINK}` : ''}`;
  const at = add(move.actor.at);
  const moved = linkOnly
    ? `SELECT s.id, s.professional_id, ${PAYABLE_SQL} AS payable_cents FROM settlements s WHERE s.id = ANY(ARRAY(${picked}))`
    : `UPDATE settlements s SET status = ${add(storedStatus(toStatus))}, updated_at = ${at}
        WHERE s.status = ${from} AND s.id = ANY(ARRAY(${picked}))
       RETURNING s.id, s.professional_id, ${PAYABLE_SQL} AS payable_cents`;
  const fileId = add(move.context.sepaFileId);
  const { rows } = await tx.query<MovedSettlement>(
    `WITH moved AS (${moved}
     ), audited AS (
       INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
       SELECT ${add(move.actor.userId)}::uuid, ${add(FILE_EVENT_ACTIONS[event])}, 'sepa_file', ${fileId},
              jsonb_build_object('status', ${add(fromStatus)}::text),
              jsonb_build_object('status', ${add(toStatus)}::text, 'settlementCount', count(*)) || ${add(JSON.stringify(move.context))}::jsonb,
              ${at}
         FROM moved HAVING count(*) > 0
       RETURNING id
     ), named AS (
       INSERT INTO audit_log_entities (entity_type, entity_id, audit_id)
       SELECT 'settlement', moved.id::text, audited.id FROM moved CROSS JOIN audited
     )
     SELECT id, professional_id, payable_cents FROM moved`,
    values,
  );
  return rows;
}

/** A settlement confirmed with the admin's amount (null: the net) and its note. */
export interface Confirmation {
  row: LockedSettlement;
  adjustedCents: number | null;
  adjustmentNote: string | null;
}

/**
 * CONFIRM (DESIGN §6 READY_TO_SETTLE|AVAILABLE → SETTLED) of rows the caller locked and checked, with
 * their adjustments, in one statement, and one audit row per settlement (`settlement.settle`).
 */
export async function confirmSettlementRows(
  tx: Queryable,
  actor: Actor,
  confirmations: readonly Confirmation[],
): Promise<void> {
  const settled = confirmations.map(({ row, adjustedCents, adjustmentNote }) => ({
    before: row,
    after: { ...row, status: destination(row.status, 'CONFIRM'), adjustedCents, adjustmentNote },
  }));
  await tx.query(
    `UPDATE settlements s
        SET status = change.status, adjusted_cents = change.adjusted_cents, adjustment_note = change.adjustment_note,
            updated_at = $2
       FROM jsonb_to_recordset($1::jsonb) AS change(id uuid, status text, adjusted_cents integer, adjustment_note text)
      WHERE s.id = change.id`,
    [
      JSON.stringify(
        settled.map(({ after }) => ({
          id: after.id,
          status: after.status,
          adjusted_cents: after.adjustedCents,
          adjustment_note: after.adjustmentNote,
        })),
      ),
      actor.at,
    ],
  );
  await recordSettlementAudits(
    tx,
    actor,
    'settlement.settle',
    settled.map(({ before, after }) => ({
      id: before.id,
      before: auditSnapshot(before),
      after: auditSnapshot(after),
    })),
  );
}

/**
 * CUSTOMER_REFUNDED of one settlement the caller locked: REFUNDED before payout, REFUNDED_PAID after;
 * SETTLEMENT_TRANSITION_NOT_ALLOWED otherwise (PENDING_TRANSFER, already refunded), before any write.
 * Answers the new status; the caller's `mutation()` audits the change (before → after).
 */
export async function refundSettlementRow(
  tx: Queryable,
  row: LockedSettlement,
  at: Date,
): Promise<SettlementStatus> {
  const status = refundedSettlementStatus(row.status);
  if (!status) throw refuse('SETTLEMENT_TRANSITION_NOT_ALLOWED');
  await tx.query('UPDATE settlements SET status = $2, updated_at = $3 WHERE id = $1', [
    row.id,
    storedStatus(status),
    at,
  ]);
  return status;
}

/**
 * FUNDS_RELEASED (DESIGN §6): every READY_TO_SETTLE settlement whose available-on date (Europe/Lisbon)
 * has come becomes AVAILABLE, each with an audit row by the system (actor null), in one statement
 * (migration 0017's `release_due_settlements`, called from here only). Idempotent and safe to run
 * concurrently. The settlement reads call it first, so it starts with a read of the partial index of
 * waiting rows (the first due one, or none): the write statement — its snapshot, locks and audit CTE —
 * runs only when something is due (docs/decisions/0080). Answers how many settlements moved.
 */
export async function releaseDueSettlements(db: Queryable, now: Date): Promise<number> {
  const today = todayInLisbon(now);
  const { rows: due } = await db.query<{ due: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM settlements WHERE status = 'READY_TO_SETTLE' AND available_on <= $1::date) AS due`,
    [today],
  );
  if (!due[0]!.due) return 0;
  const { rows } = await db.query<{ moved: number }>(
    'SELECT release_due_settlements($1::date, $2::timestamptz) AS moved',
    [today, now.toISOString()],
  );
  return Number(rows[0]!.moved);
}
