import type { AuditAction } from '../../contract/statuses';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import type { Actor } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { shownStatus } from './settlement-status-sql';

/** A settlement as the management services read it, locked for the rest of their transaction. */
export interface LockedSettlement {
  id: string;
  professionalId: string;
  referenceMonth: string;
  status: SettlementStatus;
  grossCents: number;
  netCents: number;
  adjustedCents: number | null;
  adjustmentNote: string | null;
  notes: string | null;
  invoiceFileId: string | null;
}

/** What the audit records of a settlement, before and after a change. */
export const auditSnapshot = (row: LockedSettlement) => ({
  status: row.status,
  adjustedCents: row.adjustedCents,
  adjustmentNote: row.adjustmentNote,
  notes: row.notes,
  invoiceFileId: row.invoiceFileId,
});

/** What is paid out for it: the admin's amount when set, else the net. */
export const payableCents = (row: Pick<LockedSettlement, 'adjustedCents' | 'netCents'>): number =>
  row.adjustedCents ?? row.netCents;

/**
 * Locks the settlements with these ids, always in id order so two requests over overlapping
 * selections wait for each other instead of deadlocking. Ids that do not exist are simply absent.
 *
 * Their status is the shown one (PENDING_TRANSFER while SETTLED with a live SEPA link, decision 0119),
 * read by a second statement: its snapshot is taken after the lock was granted, so a claim that
 * committed while this transaction waited for the rows is seen (in the locking statement's own
 * snapshot it would not be).
 */
export async function lockSettlements(tx: Queryable, ids: readonly string[]): Promise<LockedSettlement[]> {
  const { rows } = await tx.query<LockedSettlement>(
    `SELECT id, professional_id AS "professionalId", reference_month AS "referenceMonth", status,
            gross_cents AS "grossCents", net_cents AS "netCents", adjusted_cents AS "adjustedCents",
            adjustment_note AS "adjustmentNote", notes, invoice_file_id AS "invoiceFileId"
       FROM settlements WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  const settled = rows.filter((row) => row.status === 'SETTLED').map((row) => row.id);
  if (settled.length === 0) return rows;
  const { rows: linked } = await tx.query<{ settlement_id: string }>(
    `SELECT settlement_id FROM sepa_transaction_settlements
      WHERE settlement_id = ANY($1::uuid[]) AND (CASE WHEN live THEN true END) = true`,
    [settled],
  );
  const live = new Set(linked.map((link) => link.settlement_id));
  return rows.map((row) => ({ ...row, status: shownStatus(row.status, live.has(row.id)) }));
}

/** One settlement, locked; SETTLEMENT_NOT_FOUND when there is none. */
export async function lockSettlement(tx: Queryable, id: string): Promise<LockedSettlement> {
  const [row] = await lockSettlements(tx, [id]);
  if (!row) throw refuse('SETTLEMENT_NOT_FOUND');
  return row;
}

export interface SettlementAudit {
  id: string;
  before: unknown;
  after: unknown;
}

/**
 * One audit row per settlement, in one statement, inside the caller's transaction: a settlement's
 * history then holds every change made to it, including those made to many at once (docs/decisions/0066).
 */
export async function recordSettlementAudits(
  tx: Queryable,
  actor: Actor,
  action: AuditAction,
  entries: readonly SettlementAudit[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    `INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
     SELECT $1, $2, 'settlement', entry->>'id', entry->'before', entry->'after', $3
       FROM jsonb_array_elements($4::jsonb) AS entry`,
    [actor.userId, action, actor.at, JSON.stringify(entries)],
  );
}
