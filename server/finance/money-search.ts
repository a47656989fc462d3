import type { FinanceSearch, MoneySearchQuery } from '../../contract/money-search';
import type { SepaStatus } from '../../domain/sepa-status';
import type { Queryable } from '../db/client';

/** `LIKE` text with its wildcards taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * The palette's finance search (decision 0131): SEPA files by MsgId and transfers by EndToEndId (the
 * exact identifier first, then the newest starting with the text, case aside), and the doctors with
 * settlements whose name or full name has a word starting with the text. Read-only; three small queries.
 */
export async function searchFinance(db: Queryable, { q, limit }: MoneySearchQuery): Promise<FinanceSearch> {
  const exact = q.toUpperCase();
  const prefix = `${literal(exact)}%`;
  const [files, transfers, doctors] = await Promise.all([
    db.query<{
      id: string;
      msg_id: string;
      status: SepaStatus;
      amount_cents: string | number;
      reference_month: string;
    }>(
      `SELECT id, msg_id, status, amount_cents, reference_month FROM sepa_files
        WHERE upper(msg_id) LIKE $1
        ORDER BY upper(msg_id) = $2 DESC, created_at DESC, id
        LIMIT $3`,
      [prefix, exact, limit],
    ),
    db.query<{
      id: string;
      end_to_end_id: string;
      sepa_file_id: string;
      msg_id: string;
      professional_name: string;
      amount_cents: string | number;
    }>(
      `SELECT t.id, t.end_to_end_id, t.sepa_file_id, f.msg_id, p.name AS professional_name, t.amount_cents
         FROM sepa_transactions t
         JOIN sepa_files f ON f.id = t.sepa_file_id
         JOIN users p ON p.id = t.professional_id
        WHERE upper(t.end_to_end_id) LIKE $1
        ORDER BY upper(t.end_to_end_id) = $2 DESC, f.created_at DESC, t.end_to_end_id
        LIMIT $3`,
      [prefix, exact, limit],
    ),
    db.query<{ id: string; name: string; settlement_count: string | number }>(
      `SELECT u.id, u.name, (SELECT count(*) FROM settlements s WHERE s.professional_id = u.id) AS settlement_count
         FROM users u
        WHERE u.role = 'PROFESSIONAL'
          AND (u.name ILIKE $1 OR u.name ILIKE $2 OR u.full_name ILIKE $1 OR u.full_name ILIKE $2)
          AND EXISTS (SELECT 1 FROM settlements s WHERE s.professional_id = u.id)
        ORDER BY u.name, u.id
        LIMIT $3`,
      [`${literal(q)}%`, `% ${literal(q)}%`, limit],
    ),
  ]);
  return {
    sepaFiles: files.rows.map((row) => ({
      id: row.id,
      msgId: row.msg_id,
      status: row.status,
      amountCents: Number(row.amount_cents),
      referenceMonth: row.reference_month,
    })),
    transfers: transfers.rows.map((row) => ({
      id: row.id,
      endToEndId: row.end_to_end_id,
      sepaFileId: row.sepa_file_id,
      msgId: row.msg_id,
      professionalName: row.professional_name,
      amountCents: Number(row.amount_cents),
    })),
    doctors: doctors.rows.map((row) => ({
      professionalId: row.id,
      name: row.name,
      settlementCount: Number(row.settlement_count),
    })),
  };
}
