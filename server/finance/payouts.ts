import type { z } from 'zod';
import type { professionalPayoutsSchema } from '../../contract/sepa';
import type { SepaStatus } from '../../domain/sepa-status';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import { refuse } from '../platform/refusal';
import { ACTIVE_BLOCK_COLUMNS, ACTIVE_BLOCK_JOIN, type BlockColumns, payoutBlockOf } from './payout-blocks';
import { RECOVERY_OUTSTANDING, wholeCents } from './sepa-candidates';
import { LIVE_LINK_JOIN, SHOWN_STATUS } from './settlement-status-sql';
import { PAYABLE_SQL } from './settlements';

export type ProfessionalPayouts = z.infer<typeof professionalPayoutsSchema>;

/**
 * The doctor's page (issue 11 item 9): settlements per status, every transfer they were in (newest
 * first, with the file's status and any rejection), the payout block that still holds, and the
 * refunds after payout still to recover.
 */
export async function professionalPayouts(
  db: Queryable,
  professionalId: string,
): Promise<ProfessionalPayouts> {
  const { rows: people } = await db.query<BlockColumns & { role: string }>(
    `SELECT p.role, ${ACTIVE_BLOCK_COLUMNS} FROM users p ${ACTIVE_BLOCK_JOIN} WHERE p.id = $1`,
    [professionalId],
  );
  const person = people[0];
  if (!person) throw refuse('USER_NOT_FOUND');
  if (person.role !== 'PROFESSIONAL') throw refuse('NOT_A_PROFESSIONAL');
  const [statuses, transfers, recoveries] = await Promise.all([
    db.query<{ status: SettlementStatus; n: string; payable: string }>(
      `SELECT ${SHOWN_STATUS} AS status, count(*) AS n, sum(${PAYABLE_SQL}) AS payable
         FROM settlements s ${LIVE_LINK_JOIN} WHERE s.professional_id = $1 GROUP BY 1 ORDER BY 1`,
      [professionalId],
    ),
    db.query<{
      sepa_file_id: string;
      msg_id: string;
      file_status: SepaStatus;
      reference_month: string;
      execution_date: string;
      end_to_end_id: string;
      amount_cents: string | number;
      settlement_count: string;
      status: 'INCLUDED' | 'REJECTED';
      rejection_reason_code: string | null;
      rejection_reason_text: string | null;
      created_at: Date;
    }>(
      `SELECT f.id AS sepa_file_id, f.msg_id, f.status AS file_status, f.reference_month,
              f.execution_date::text AS execution_date, t.end_to_end_id, t.amount_cents, t.status,
              t.rejection_reason_code, t.rejection_reason_text, f.created_at,
              (SELECT count(*) FROM sepa_transaction_settlements l WHERE l.sepa_transaction_id = t.id) AS settlement_count
         FROM sepa_transactions t JOIN sepa_files f ON f.id = t.sepa_file_id
        WHERE t.professional_id = $1
        ORDER BY f.created_at DESC, f.id`,
      [professionalId],
    ),
    db.query<{ id: string; case_id: string | null; amount_cents: number }>(
      `SELECT r.id, r.case_id, coalesce(r.adjusted_cents, r.net_cents) AS amount_cents
         FROM settlements r WHERE r.professional_id = $1 AND ${RECOVERY_OUTSTANDING}
        ORDER BY r.created_at, r.id`,
      [professionalId],
    ),
  ]);
  return {
    professionalId,
    settlements: statuses.rows.map((row) => ({
      status: row.status,
      count: wholeCents(row.n),
      payableCents: wholeCents(row.payable),
    })),
    transfers: transfers.rows.map((row) => ({
      sepaFileId: row.sepa_file_id,
      msgId: row.msg_id,
      fileStatus: row.file_status,
      referenceMonth: row.reference_month,
      executionDate: row.execution_date,
      endToEndId: row.end_to_end_id,
      amountCents: wholeCents(row.amount_cents),
      settlementCount: wholeCents(row.settlement_count),
      status: row.status,
      rejection:
        row.status === 'REJECTED'
          ? { reasonCode: row.rejection_reason_code, reasonText: row.rejection_reason_text }
          : null,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    payoutBlock: payoutBlockOf(person),
    recovery: {
      amountCents: recoveries.rows.reduce((sum, row) => sum + row.amount_cents, 0),
      settlements: recoveries.rows.map((row) => ({
        id: row.id,
        caseId: row.case_id,
        amountCents: row.amount_cents,
      })),
    },
    currency: 'EUR',
  };
}
