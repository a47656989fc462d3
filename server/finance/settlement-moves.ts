import type { AuditAction } from '../../contract/statuses';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import type { Actor } from '../platform/mutation';
import { HAS_LIVE_LINK, storedStatus } from './settlement-status-sql';
import { PAYABLE_SQL } from './settlements';

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
 * `from` and `to` are statuses as shown. PENDING_TRANSFER is not stored (decision 0119): it is a
 * SETTLED row with a live SEPA link. So a row leaves PENDING_TRANSFER only while it still has its live
 * link, and a move between PENDING_TRANSFER and SETTLED writes no settlement row at all — the caller's
 * link change is the move, and this only audits the rows that have a live link when it is called
 * (before the link ends; after it begins).
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
  const values = [...params];
  const add = (value: unknown) => `$${values.push(value)}`;
  const from = add(storedStatus(move.from));
  const linkOnly = storedStatus(move.from) === storedStatus(move.to);
  const withLiveLink = linkOnly || move.from === 'PENDING_TRANSFER';
  const picked = `SELECT s.id FROM settlements s WHERE s.status = ${from} AND (${selection})${withLiveLink ? ` AND ${HAS_LIVE_LINK}` : ''}`;
  const at = add(move.actor.at);
  const moved = linkOnly
    ? `SELECT s.id, s.professional_id, ${PAYABLE_SQL} AS payable_cents FROM settlements s WHERE s.id = ANY(ARRAY(${picked}))`
    : `UPDATE settlements s SET status = ${add(storedStatus(move.to))}, updated_at = ${at}
        WHERE s.status = ${from} AND s.id = ANY(ARRAY(${picked}))
       RETURNING s.id, s.professional_id, ${PAYABLE_SQL} AS payable_cents`;
  const fileId = add(move.context.sepaFileId);
  const { rows } = await tx.query<MovedSettlement>(
    `WITH moved AS (${moved}
     ), audited AS (
       INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
       SELECT ${add(move.actor.userId)}::uuid, ${add(move.action)}, 'sepa_file', ${fileId},
              jsonb_build_object('status', ${add(move.from)}::text),
              jsonb_build_object('status', ${add(move.to)}::text, 'settlementCount', count(*)) || ${add(JSON.stringify(move.context))}::jsonb,
              ${at}
         FROM moved HAVING count(*) > 0
       RETURNING id
     ), named AS (
       INSERT INTO audit_log_entities (entity_type, entity_id, audit_id)
       SELECT 'settlement', moved.id::text, audited.id FROM moved CROSS JOIN audited WHERE NOT ${add(move.namedByLinks === true)}
     )
     SELECT id, professional_id, payable_cents FROM moved`,
    values,
  );
  return rows;
}
