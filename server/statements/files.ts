import type { BankStatement, StatementFileRow } from '../../contract/reconciliation';
import { continuityOf } from '../../domain/statements/statement-identity';
import type { Database, Queryable } from '../db/client';
import { exactPage, type KeysetQuery, SqlParams } from '../db/list';
import { type Actor, mutation } from '../platform/mutation';
import { refuse } from '../platform/refusal';
import { centsOf, type IdentityRow, identityColumns, identityOf } from './statement-rows';

/**
 * A file with its balance check and its progress (MATCHED or IGNORED of all): the counts are the sums of
 * what each write added (`statement_file_line_counts`, migration 0034), not a count of its lines. The check is the one the
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
    SELECT coalesce(sum(c.lines), 0)::int AS line_count, coalesce(sum(c.done), 0)::int AS done_count,
           coalesce(sum(c.sum_cents), 0)::text AS sum_cents
      FROM statement_file_line_counts c WHERE c.statement_file_id = s.id) n`;

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

function toFileRow(row: FileRow, statements: readonly BankStatement[]): StatementFileRow {
  const opening = centsOf(row.opening_balance_cents);
  const closing = centsOf(row.closing_balance_cents);
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
    statements: [...statements],
    pendingSkipped: statements.reduce((total, statement) => total + statement.pendingSkipped, 0),
  };
}

/** The order an account's statements follow each other in: by period, then by the bank's sequence. */
const STATEMENT_ORDER = (b: string) =>
  `${b}.period_start, ${b}.period_end, lpad(coalesce(${b}.sequence, ''), 40, '0'), ${b}.id`;

interface StatementRow extends IdentityRow {
  statement_file_id: string;
  id: string;
  account_iban: string | null;
  currency: string | null;
  balance_consistent: boolean | null;
  mismatch_note: string | null;
  entry_count: number;
  line_count: number;
  duplicates_skipped: number;
  pending_skipped: number;
  previous: IdentityRow | null;
}

/**
 * The statements of these files, each with its continuity: judged against its account's previous
 * statement (by period, then sequence), found through the (account, period) index — one row per listed
 * statement, whatever the number of lines.
 */
async function statementsOf(
  db: Queryable,
  fileIds: readonly string[],
): Promise<Map<string, BankStatement[]>> {
  const { rows } = await db.query<StatementRow>(
    `SELECT b.statement_file_id, b.id, b.account_iban, b.currency, b.balance_consistent, b.mismatch_note,
            b.entry_count, b.line_count, b.duplicates_skipped, b.pending_skipped, ${identityColumns('b')},
            (SELECT to_jsonb(p) FROM (
               SELECT ${identityColumns('p')} FROM bank_statements p
                WHERE p.account_iban = b.account_iban AND (${STATEMENT_ORDER('p')}) < (${STATEMENT_ORDER('b')})
                ORDER BY p.period_start DESC, p.period_end DESC, lpad(coalesce(p.sequence, ''), 40, '0') DESC, p.id DESC
                LIMIT 1) p) AS previous
       FROM bank_statements b
      WHERE b.statement_file_id = ANY($1::uuid[])
      ORDER BY b.statement_file_id, b.number`,
    [fileIds],
  );
  const byFile = new Map<string, BankStatement[]>();
  for (const row of rows) {
    const account = row.account_iban ?? '';
    const previous =
      row.account_iban === null || row.previous === null ? null : identityOf(account, row.previous);
    const identity = identityOf(account, row);
    const { continuity, gapCents } = continuityOf(previous, identity);
    const statement: BankStatement = {
      id: row.id,
      ...identity,
      accountIban: row.account_iban,
      currency: row.currency,
      balanceConsistent: row.balance_consistent,
      mismatchNote: row.mismatch_note,
      entryCount: row.entry_count,
      lineCount: row.line_count,
      duplicatesSkipped: row.duplicates_skipped,
      pendingSkipped: row.pending_skipped,
      continuity,
      gapCents,
      previousPeriodStart: previous?.periodStart ?? null,
      previousPeriodEnd: previous?.periodEnd ?? null,
    };
    byFile.set(row.statement_file_id, [...(byFile.get(row.statement_file_id) ?? []), statement]);
  }
  return byFile;
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
  const statements = await statementsOf(
    db,
    page.rows.map((row) => row.id),
  );
  return {
    items: page.rows.map((row) => toFileRow(row, statements.get(row.id) ?? [])),
    nextCursor: page.nextCursor,
    total: page.total,
  };
}

export async function statementFile(db: Queryable, id: string): Promise<StatementFileRow> {
  const { rows } = await db.query<FileRow>(`SELECT ${FILE_SELECT} ${FILE_FROM} WHERE s.id = $1`, [id]);
  if (!rows[0]) throw refuse('STATEMENT_FILE_NOT_FOUND');
  return toFileRow(rows[0], (await statementsOf(db, [id])).get(id) ?? []);
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
