// INTERIM on branch stmtimport only: the real matchStatementFile comes from branch `reconcile`, which
// replaces this file when the branches meet. It matches nothing: every new line stays UNMATCHED.
import type { Queryable } from '../db/client';

export async function matchStatementFile(tx: Queryable, statementFileId: string) {
  const { rows } = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM statement_lines WHERE statement_file_id = $1',
    [statementFileId],
  );
  return { matched: 0, suggested: 0, unmatched: rows[0]!.n };
}
