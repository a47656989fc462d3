import type { AuditAction } from '../../contract/statuses';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import type { Actor } from '../platform/mutation';

export interface SettlementMove {
  from: SettlementStatus;
  to: SettlementStatus;
  /** The audit action, e.g. `settlement.included-in-sepa`. */
  action: AuditAction;
  actor: Actor;
  /** Merged into each audit row's `after` (the file, the transfer, the bank's reason). */
  context: Record<string, unknown>;
}

export interface MovedSettlement {
  id: string;
  professional_id: string;
  payable_cents: number;
}

/**
 * Moves the settlements `selection` picks (an SQL predicate on `s`, with `params` as $1…) from one
 * status to the next along DESIGN §6, each with its audit row, in one statement — so 100,000 moves
 * and their history commit together with the caller's transaction, or not at all. Only rows still in
 * `from` move (re-checked under the row lock), and the moved rows are answered for the caller to
 * check against what it expected.
 */
export async function moveSettlements(
  tx: Queryable,
  selection: string,
  params: readonly unknown[],
  move: SettlementMove,
): Promise<MovedSettlement[]> {
  const n = params.length;
  const { rows } = await tx.query<MovedSettlement>(
    `WITH moved AS (
       UPDATE settlements s SET status = $${n + 2}, updated_at = $${n + 6}
        WHERE s.status = $${n + 1} AND (${selection})
       RETURNING s.id, s.professional_id, coalesce(s.adjusted_cents, s.net_cents) AS payable_cents
     ), audited AS (
       INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
       SELECT $${n + 3}::uuid, $${n + 4}, 'settlement', moved.id::text, jsonb_build_object('status', $${n + 1}::text),
              jsonb_build_object('status', $${n + 2}::text) || $${n + 5}::jsonb, $${n + 6}
         FROM moved
     )
     SELECT id, professional_id, payable_cents FROM moved`,
    [
      ...params,
      move.from,
      move.to,
      move.actor.userId,
      move.action,
      JSON.stringify(move.context),
      move.actor.at,
    ],
  );
  return rows;
}
