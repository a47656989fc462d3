import type { StatementFileRow } from '../../contract/reconciliation';
import type { Database, Queryable } from '../db/client';
import { exactPage, type KeysetQuery, SqlParams } from '../db/list';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';

/**
 * A file with its balance check and its progress (MATCHED or IGNORED of all). The check is the one the
 * import made on every entry of the file (decision 0097): lines skipped as already imported from an
 * overlapping file are not among this file's lines, so its own lines need not add up. Files recorded
 * before imports stored it are checked against their lines.
 */
const FILE_SELECT = `s.id, s.file_name, s.format, s.account_iban, s.opening_balance_cents, s.closing_balance_cents,
       s.balance_consistent, s.imported_at, s.reconciled_at, s.uploaded_by, up.name AS uploaded_by_name, s.reconciled_by,
       rb.name AS reconciled_by_name, n.line_count, n.done_count, n.sum_cents`;
const FILE_FROM = `FROM statement_files s
  LEFT JOIN users up ON up.id = s.uploaded_by
  LEFT JOIN users rb ON rb.id = s.reconciled_by
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS line_count,
           (count(*) FILTER (WHERE l.status IN ('MATCHED', 'IGNORED')))::int AS done_count,
           coalesce(sum(l.bank_amount_cents), 0)::text AS sum_cents
      FROM statement_lines l WHERE l.statement_file_id = s.id) n`;

interface FileRow {
  id: string;
  file_name: string;
  format: StatementFileRow['format'];
  account_iban: string | null;
  opening_balance_cents: string | number | null;
  closing_balance_cents: string | number | null;
  balance_consistent: boolean | null;
  imported_at: Date | string;
  reconciled_at: Date | string | null;
  uploaded_by: string | null;
  uploaded_by_name: string | null;
  reconciled_by: string | null;
  reconciled_by_name: string | null;
  line_count: number;
  done_count: number;
  sum_cents: string;
}

const cents = (value: string | number | null) => (value === null ? null : Number(value));

function toFileRow(row: FileRow): StatementFileRow {
  const opening = cents(row.opening_balance_cents);
  const closing = cents(row.closing_balance_cents);
  return {
    id: row.id,
    fileName: row.file_name,
    format: row.format,
    accountIban: row.account_iban,
    openingBalanceCents: opening,
    closingBalanceCents: closing,
    balanceConsistent:
      row.balance_consistent ??
      (opening !== null && closing !== null && BigInt(opening) + BigInt(row.sum_cents) === BigInt(closing)),
    lineCount: row.line_count,
    doneCount: row.done_count,
    importedAt: new Date(row.imported_at).toISOString(),
    uploadedBy: row.uploaded_by ? { id: row.uploaded_by, name: row.uploaded_by_name ?? '' } : null,
    reconciledAt: row.reconciled_at ? new Date(row.reconciled_at).toISOString() : null,
    reconciledBy: row.reconciled_by ? { id: row.reconciled_by, name: row.reconciled_by_name ?? '' } : null,
  };
}

/** Statement files, newest import first. */
export async function listStatementFiles(
  db: Queryable,
  query: { limit: number; cursor?: string | undefined },
) {
  const keyset: KeysetQuery = {
    select: FILE_SELECT,
    from: FILE_FROM,
    where: [],
    params: new SqlParams(),
    sort: { sql: 's.imported_at', type: 'timestamptz' },
    id: 's.id',
    order: 'desc',
  };
  const page = await exactPage<FileRow>(db, keyset, {
    sort: 'importedAt',
    order: 'desc',
    cursor: query.cursor,
    limit: query.limit,
  });
  return { items: page.rows.map(toFileRow), nextCursor: page.nextCursor, total: page.total };
}

export async function statementFile(db: Queryable, id: string): Promise<StatementFileRow> {
  const { rows } = await db.query<FileRow>(`SELECT ${FILE_SELECT} ${FILE_FROM} WHERE s.id = $1`, [id]);
  if (!rows[0]) throw refuse('STATEMENT_FILE_NOT_FOUND');
  return toFileRow(rows[0]);
}

/**
 * Closing a statement (issue 12, point 6): only when every line is MATCHED or IGNORED and the
 * balances are consistent. Marking it again answers it as it is. Its lines no longer change after.
 */
export async function markStatementReconciled(
  db: Database,
  actor: Actor,
  id: string,
): Promise<StatementFileRow> {
  await mutation(db, actor, { action: 'statement.reconciled', entityType: 'statement_file' }, async (tx) => {
    const { rows } = await tx.query<{ reconciled_at: Date | null }>(
      'SELECT reconciled_at FROM statement_files WHERE id = $1 FOR UPDATE',
      [id],
    );
    if (!rows[0]) throw refuse('STATEMENT_FILE_NOT_FOUND');
    const file = await statementFile(tx, id);
    if (file.reconciledAt) return { result: null, entityId: id, after: { alreadyReconciled: true } };
    if (file.doneCount !== file.lineCount || !file.balanceConsistent)
      throw refuse('STATEMENT_NOT_RECONCILABLE');
    await tx.query('UPDATE statement_files SET reconciled_at = $2, reconciled_by = $3 WHERE id = $1', [
      id,
      actor.at,
      actor.userId,
    ]);
    return { result: null, entityId: id, before: { reconciledAt: null }, after: { reconciledAt: actor.at } };
  });
  return statementFile(db, id);
}
