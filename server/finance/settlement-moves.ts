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
  /** Merged into the audit row's `after`; the file is the row's entity. */
  context: { sepaFileId: string } & Record<string, unknown>;
  /**
   * The settlements are named by the links the caller writes in the same transaction, not by
   * `audit_log_entities` rows: the SEPA claim, whose links name every settlement it moved
   * (`audit_ids_naming`, migration 0025, docs/decisions/0099).
   */
  namedByLinks?: boolean;
}

export interface MovedSettlement {
  id: string;
  professional_id: string;
  payable_cents: number;
}

/**
 * Moves the settlements `selection` picks (an SQL predicate on `s`, with `params` as $1…) from one
 * status to the next along DESIGN §6, in one statement with its audit — so 100,000 moves and their
 * history commit together with the caller's transaction, or not at all. Only rows still in `from`
 * move (re-checked under the row lock), and the moved rows are answered for the caller to check
 * against what it expected.
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
 * The claim names none (`namedByLinks`): its links already do, and 100,000 entity rows were 3.5–4.7 s
 * of that generation (docs/decisions/0099). Nothing moved, nothing audited.
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
        WHERE s.status = $${n + 1}
          AND s.id = ANY(ARRAY(SELECT s.id FROM settlements s WHERE s.status = $${n + 1} AND (${selection})))
       RETURNING s.id, s.professional_id, coalesce(s.adjusted_cents, s.net_cents) AS payable_cents
     ), audited AS (
       INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
       SELECT $${n + 3}::uuid, $${n + 4}, 'sepa_file', $${n + 7}, jsonb_build_object('status', $${n + 1}::text),
              jsonb_build_object('status', $${n + 2}::text, 'settlementCount', count(*)) || $${n + 5}::jsonb, $${n + 6}
         FROM moved HAVING count(*) > 0
       RETURNING id
     ), named AS (
       INSERT INTO audit_log_entities (entity_type, entity_id, audit_id)
       SELECT 'settlement', moved.id::text, audited.id FROM moved CROSS JOIN audited WHERE NOT $${n + 8}
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
      move.context.sepaFileId,
      move.namedByLinks === true,
    ],
  );
  return rows;
}
