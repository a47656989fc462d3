import type { MoneySearchQuery, StatementsSearch } from '../../contract/money-search';
import type { StatementLineStatus } from '../../contract/statuses';
import { amountSearchCents } from '../../domain/amount-search';
import type { Queryable } from '../db/client';
import { SqlParams } from '../db/list';

/** `LIKE` text with its wildcards taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * The palette's statements search (decision 0131): files whose name contains the text, and lines of
 * the amount typed, in either direction ("45,30" finds −45,30 € and 45,30 €), or whose counterparty has
 * a word starting with it; newest first. Read-only.
 */
export async function searchStatements(
  db: Queryable,
  { q, limit }: MoneySearchQuery,
): Promise<StatementsSearch> {
  const cents = amountSearchCents(q);
  const params = new SqlParams();
  const lineMatch =
    cents === null
      ? `l.counterparty_name ILIKE ${params.add(`${literal(q)}%`)} OR l.counterparty_name ILIKE ${params.add(`% ${literal(q)}%`)}`
      : `l.bank_amount_cents IN (${params.add(cents)}::bigint, ${params.add(-cents)}::bigint)`;
  const [files, lines] = await Promise.all([
    db.query<{ id: string; file_name: string; imported_at: Date | string }>(
      `SELECT id, file_name, imported_at FROM statement_files
        WHERE file_name ILIKE $1
        ORDER BY imported_at DESC, id
        LIMIT $2`,
      [`%${literal(q)}%`, limit],
    ),
    db.query<{
      id: string;
      statement_file_id: string;
      file_name: string;
      bank_date: string;
      bank_amount_cents: string | number;
      counterparty_name: string | null;
      status: StatementLineStatus;
    }>(
      `SELECT l.id, l.statement_file_id, f.file_name, l.bank_date::text AS bank_date, l.bank_amount_cents,
              l.counterparty_name, l.status
         FROM statement_lines l
         JOIN statement_files f ON f.id = l.statement_file_id
        WHERE ${lineMatch}
        ORDER BY l.bank_date DESC, l.id
        LIMIT ${params.add(limit)}`,
      params.values,
    ),
  ]);
  return {
    files: files.rows.map((row) => ({
      id: row.id,
      fileName: row.file_name,
      importedAt: new Date(row.imported_at).toISOString(),
    })),
    lines: lines.rows.map((row) => ({
      id: row.id,
      statementFileId: row.statement_file_id,
      fileName: row.file_name,
      bankDate: row.bank_date,
      amountCents: Number(row.bank_amount_cents),
      counterpartyName: row.counterparty_name,
      status: row.status,
    })),
  };
}
