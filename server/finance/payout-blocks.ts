import type { z } from 'zod';
import type { blockedDoctorPageSchema, payoutBlockSchema } from '../../contract/sepa';
import type { Queryable } from '../db/client';

export type PayoutBlock = z.infer<typeof payoutBlockSchema>;
export type BlockedDoctorPage = z.infer<typeof blockedDoctorPageSchema>;

/**
 * A doctor's payouts are blocked while their IBAN is still the one the bank rejected (decision 0070):
 * the check is made when reading, against the IBAN the doctor has now (electronic form, as
 * normalizeIban writes it), so whichever code changes an IBAN lifts the block without knowing of it.
 * `p` is the doctor's users row; the newest block that still holds, as columns prefixed `block_`.
 */
export const ACTIVE_BLOCK_JOIN = `
  LEFT JOIN LATERAL (
    SELECT b.id AS block_id, b.reason_code AS block_reason_code, b.reason_text AS block_reason_text,
           b.blocked_iban AS block_iban, b.created_at AS block_created_at,
           t.sepa_file_id AS block_sepa_file_id, f.msg_id AS block_msg_id, t.end_to_end_id AS block_end_to_end_id,
           b.statement_line_id AS block_statement_line_id
      FROM payout_blocks b
      LEFT JOIN sepa_transactions t ON t.id = b.sepa_transaction_id
      LEFT JOIN sepa_files f ON f.id = t.sepa_file_id
     WHERE b.professional_id = p.id
       AND b.blocked_iban = upper(regexp_replace(coalesce(p.iban, ''), '[- ]', '', 'g'))
     ORDER BY b.created_at DESC, b.id
     LIMIT 1
  ) blk ON true`;

export const ACTIVE_BLOCK_COLUMNS =
  'blk.block_id, blk.block_reason_code, blk.block_reason_text, blk.block_iban, blk.block_created_at, blk.block_sepa_file_id, blk.block_msg_id, blk.block_end_to_end_id';

export interface BlockColumns {
  block_id: string | null;
  block_reason_code: string | null;
  block_reason_text: string | null;
  block_iban: string | null;
  block_created_at: Date | string | null;
  block_sepa_file_id: string | null;
  block_msg_id: string | null;
  block_end_to_end_id: string | null;
}

export function payoutBlockOf(row: BlockColumns): PayoutBlock | null {
  if (!row.block_id) return null;
  return {
    id: row.block_id,
    reasonCode: row.block_reason_code,
    reasonText: row.block_reason_text,
    blockedIban: row.block_iban!,
    sepaFileId: row.block_sepa_file_id,
    msgId: row.block_msg_id,
    endToEndId: row.block_end_to_end_id,
    blockedAt: new Date(row.block_created_at!).toISOString(),
  };
}

/**
 * `GET /v2/admin/professionals/payout-blocked`: every doctor whose payouts are blocked now, each once
 * with their newest block that holds, newest first (decision 0143). Read from the blocks' doctors, not
 * from every doctor: few have ever had a transfer rejected. One page: their number is the home card's.
 */
export async function listBlockedDoctors(db: Queryable): Promise<BlockedDoctorPage> {
  const { rows } = await db.query<
    BlockColumns & { id: string; name: string; email: string; block_statement_line_id: string | null }
  >(
    `SELECT p.id, p.name, p.email, ${ACTIVE_BLOCK_COLUMNS}, blk.block_statement_line_id
       FROM users p ${ACTIVE_BLOCK_JOIN}
      WHERE p.id IN (SELECT professional_id FROM payout_blocks) AND blk.block_id IS NOT NULL
      ORDER BY blk.block_created_at DESC, p.id`,
  );
  return {
    items: rows.map((row) => ({
      professionalId: row.id,
      name: row.name,
      email: row.email,
      blockedBy: row.block_statement_line_id ? 'RETURN' : 'STATUS_REPORT',
      block: payoutBlockOf(row)!,
    })),
    nextCursor: null,
    total: rows.length,
  };
}
